/**
 * useScreenKeys: the navigation keys of the screen, routed by what has the keyboard. Tab /
 * Shift-Tab move between the prompt, the running panes and the sidebar; a focused pane stops on
 * Ctrl-X (never on a typed letter: typing there is a message for the child), retries now when paused on Ctrl-R, and opens its child's full transcript (live) on Enter; the sidebar and the session picker take ↑/↓, Enter and Esc; the transcript overlay takes
 * ↑/↓, PgUp/PgDn, Home/End, `r` (resume), `q`/Esc. No letter acts in the sidebar: other typing
 * there (or on a pane) is the prompt's (Prompt `onTypeWhileAway`). Ctrl-T opens (or closes) the
 * whole output of the latest tool calls; other Ctrl keys are left to the screen's handlers.
 */
import { useInput } from "ink";
import { useRef } from "react";
import type { UiFocus } from "../state/ui-reducer.js";

/** What the keys do; the screen implements them. */
export interface ScreenKeyHandlers {
  tab(backwards: boolean): void;
  escape(): void;
  /** Ctrl-X on a focused pane (a key typing cannot produce: every letter there is a message for the child). */
  stopPane(): void;
  /** Ctrl-R on a focused pane: a paused child tries again now. */
  wakePane(): void;
  /** ↑/↓: the selection (sidebar, picker) or one line (overlay). */
  move(delta: number): void;
  /** PgUp/PgDn in the overlay (±1 page). */
  page(delta: number): void;
  /** Home/End in the overlay. */
  edge(end: boolean): void;
  /** Enter in the sidebar, the picker or on a focused pane. */
  open(): void;
  /** `r` in the overlay. */
  resume(): void;
  /** Ctrl-T: the latest tool calls' whole output, opened or closed. */
  toolOutput(): void;
}

/** Listens while `active` (false while an approval question is open). */
export function useScreenKeys(currentFocus: UiFocus, currentHandlers: ScreenKeyHandlers, active: boolean): void {
  // Read at key time: a key may arrive after a render but before ink re-subscribed this handler.
  const latest = useRef({ focus: currentFocus, handlers: currentHandlers });
  latest.current = { focus: currentFocus, handlers: currentHandlers };
  useInput(
    (input, key) => {
      const { focus, handlers } = latest.current;
      if (key.ctrl) {
        if (input === "t" && focus !== "resume" && focus !== "picker") handlers.toolOutput();
        else if (input === "r" && focus === "pane") handlers.wakePane();
        else if (input === "x" && focus === "pane") handlers.stopPane();
        return;
      }
      if (key.tab) {
        if (focus === "prompt" || focus === "pane" || focus === "sidebar") handlers.tab(key.shift);
        return;
      }
      if (focus === "prompt") return;
      if (key.escape) return handlers.escape();
      const letter = input.toLowerCase();
      switch (focus) {
        case "pane":
          if (key.return) handlers.open();
          return;
        case "sidebar":
        case "picker":
          if (key.upArrow || key.downArrow) handlers.move(key.upArrow ? -1 : 1);
          else if (key.return) handlers.open();
          return;
        case "overlay":
          if (key.upArrow || key.downArrow) handlers.move(key.upArrow ? -1 : 1);
          else if (key.pageUp || key.pageDown) handlers.page(key.pageUp ? -1 : 1);
          else if (key.home || key.end) handlers.edge(key.end);
          else if (letter === "r") handlers.resume();
          else if (letter === "q") handlers.escape();
          return;
        default:
          return;
      }
    },
    { isActive: active },
  );
}
