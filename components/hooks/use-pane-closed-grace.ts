/**
 * usePaneClosedGrace: a focused pane can close under the person — its child ends and the keyboard
 * goes back to the prompt — just as they press Esc to leave it. That Esc was meant for the pane,
 * so for a moment after the hand-back the first Esc only says what happened instead of stopping
 * the main agent's turn (which Esc on the prompt does); the next Esc stops it.
 */
import { useRef } from "react";

/** How long after the hand-back an Esc is taken as meant for the pane. */
export const PANE_CLOSED_GRACE_MS = 1500;

/** Shown for an Esc that was meant for the closed pane. */
export const PANE_CLOSED_HINT = "the pane you were in closed (its child ended) — Esc again stops the main agent's turn";

/**
 * `handedBack`: the screen's focus is a pane whose child no longer runs (shown as the prompt).
 * `escapeMeantForPane()` (call on Esc) is true once, for the first Esc within the grace after the
 * hand-back; `now` is the key clock.
 */
export function usePaneClosedGrace(handedBack: boolean, now: () => number): { escapeMeantForPane(): boolean } {
  const at = useRef<number | undefined>(undefined);
  const was = useRef(false);
  // Noted as the frame without the pane is made: the person sees the prompt from then on.
  if (handedBack && !was.current) at.current = now();
  if (!handedBack) at.current = undefined;
  was.current = handedBack;
  return {
    escapeMeantForPane: () => {
      const t = at.current;
      at.current = undefined;
      return t !== undefined && now() - t < PANE_CLOSED_GRACE_MS;
    },
  };
}
