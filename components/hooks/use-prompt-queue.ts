/**
 * usePromptQueue: prompts typed while a run is in progress wait here, in order, and are sent one
 * at a time as each run ends. ↑ on an empty input box takes the newest one back to edit (or to
 * delete); when the person stops the run (Esc / Ctrl-C) nothing is sent on its own: the waiting
 * prompts go back into the input box instead, so none is lost and none runs unasked. The queue is
 * the screen store's (`queued`); this hook sends from it as runs end.
 */
import { useCallback, useEffect, useRef } from "react";
import type { ScreenStore } from "../state/screen-state.js";

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
 * The queue `items` (the store's, changed through `store`) over a screen whose run state is
 * `running`; `send(text)` starts a run and says whether it did (false: still busy — it is tried
 * again when the run state changes). While `hold` (the last request failed) nothing is sent.
 */
export function usePromptQueue(store: ScreenStore, items: readonly string[], running: boolean, send: (text: string) => boolean, hold = false): PromptQueue {
  const sendRef = useRef(send);
  sendRef.current = send;
  // Read at call time: prompts queued or taken since the last render count.
  const queued = useCallback(() => store.getState().queued, [store]);
  useEffect(() => {
    const next = queued()[0];
    if (running || hold || next === undefined) return;
    if (sendRef.current(next)) store.dispatch({ type: "queue_shift" });
  }, [running, hold, items, store, queued]);
  return {
    items,
    add: useCallback((text: string) => store.dispatch({ type: "queue_add", text }), [store]),
    takeLast: useCallback(() => {
      const last = queued().at(-1);
      store.dispatch({ type: "queue_pop" });
      return last;
    }, [store, queued]),
    takeAll: useCallback(() => {
      const all = [...queued()];
      store.dispatch({ type: "queue_clear" });
      return all;
    }, [store, queued]),
  };
}
