/**
 * useRenderClock: the screen's clock (spinners, elapsed times) that rides on the frames something
 * else causes. Every render while it is active reads the clock, and its own timer fires only after
 * `intervalMs` without a render — so a streaming answer's frames (~10 a second) carry the spinner
 * with them and the clock adds no frames of its own, while a quiet screen still ticks.
 */
import { useEffect, useReducer, useRef } from "react";

/**
 * The current time in ms, read at each render while `active` (and at the render that turns it
 * off), frozen otherwise; re-renders the caller `intervalMs` after its last render while active.
 */
export function useRenderClock(active: boolean, intervalMs = 250, clock: () => number = Date.now): number {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  const now = useRef<number | undefined>(undefined);
  const wasActive = useRef(active);
  if (now.current === undefined || active || wasActive.current) now.current = clock();
  wasActive.current = active;
  // After every commit (no deps): a render for any reason re-arms the timer.
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(tick, intervalMs);
    return () => clearTimeout(timer);
  });
  return now.current;
}
