/**
 * useMouseWheel: calls the handler for each wheel notch the terminal reports (see ../mouse.ts);
 * clicks and other mouse reports are swallowed here and do nothing.
 */
import { useStdin } from "ink";
import { useEffect, useRef } from "react";
import { wheelStep } from "../terminal/mouse.js";

/** While `active`, `onWheel(+1)` for a notch up, `onWheel(-1)` for a notch down. */
export function useMouseWheel(onWheel: (step: number) => void, active: boolean): void {
  const { internal_eventEmitter: events } = useStdin();
  const latest = useRef(onWheel);
  latest.current = onWheel;
  useEffect(() => {
    if (!active) return;
    const onInput = (raw: unknown) => {
      if (typeof raw !== "string") return;
      const step = wheelStep(raw);
      if (step) latest.current(step);
    };
    events.on("input", onInput);
    return () => {
      events.off("input", onInput);
    };
  }, [events, active]);
}
