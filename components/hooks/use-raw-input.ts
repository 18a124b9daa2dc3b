/**
 * useRawInput: every input chunk exactly as ink read it from the terminal (ink has only split it
 * at escape sequences), for the line editor: `useInput` parses a chunk as ONE key, so a chunk of
 * several keys (three DELs from a held Backspace, "abc" + Enter) loses all but its text, and it
 * reports DEL and the Delete key alike. The handler is read at key time (a ref), so a key that
 * arrives before ink re-subscribes after a render still reaches the latest handler.
 */
import { useStdin } from "ink";
import { useEffect, useLayoutEffect, useRef } from "react";

/**
 * Calls `handler` with each raw chunk while mounted (raw mode on, as with useInput). `sync`: it
 * listens from the commit that first draws the component (a layout effect), so a key pressed as
 * soon as a question is on screen reaches it.
 */
export function useRawInput(handler: (raw: string) => void, { sync = false } = {}): void {
  const { internal_eventEmitter: events, setRawMode } = useStdin();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    setRawMode(true);
    return () => setRawMode(false);
  }, [setRawMode]);
  (sync ? useLayoutEffect : useEffect)(() => {
    const onInput = (raw: unknown) => {
      if (typeof raw === "string") latest.current(raw);
    };
    events.on("input", onInput);
    return () => {
      events.off("input", onInput);
    };
  }, [events]);
}
