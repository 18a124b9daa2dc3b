/**
 * usePromptQueue: prompts typed while a run is in progress wait here, in order, and are sent one
 * at a time as each run ends. ↑ on an empty input box takes the newest one back to edit (or to
 * delete); when the person stops the run (Esc / Ctrl-C) nothing is sent on its own: the waiting
 * prompts go back into the input box instead, so none is lost and none runs unasked.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export interface PromptQueue {
  /** Waiting prompts, oldest first. */
  items: readonly string[];
  /** Adds a prompt at the end. */
  add(text: string): void;
  /** Removes and returns the newest waiting prompt (to edit), or undefined. */
  takeLast(): string | undefined;
  /** Removes and returns every waiting prompt (the run was stopped). */
  takeAll(): string[];
}

/**
 * The queue over a screen whose run state is `running`; `send(text)` starts a run and says whether
 * it did (false: still busy — it is tried again when the run state changes). While `hold` (the
 * last request failed) nothing is sent.
 */
export function usePromptQueue(running: boolean, send: (text: string) => boolean, hold = false): PromptQueue {
  const [items, setItems] = useState<string[]>([]);
  // The list as of now (several changes may come before the next render).
  const current = useRef<string[]>([]);
  const update = useCallback((next: string[]) => {
    current.current = next;
    setItems(next);
  }, []);
  const sendRef = useRef(send);
  sendRef.current = send;
  useEffect(() => {
    if (running || hold || current.current.length === 0) return;
    const [next, ...rest] = current.current;
    if (sendRef.current(next!)) update(rest);
  }, [running, hold, items, update]);
  return {
    items,
    add: useCallback((text: string) => update([...current.current, text]), [update]),
    takeLast: useCallback(() => {
      const last = current.current.at(-1);
      if (last !== undefined) update(current.current.slice(0, -1));
      return last;
    }, [update]),
    takeAll: useCallback(() => {
      const all = current.current;
      if (all.length) update([]);
      return all;
    }, [update]),
  };
}
