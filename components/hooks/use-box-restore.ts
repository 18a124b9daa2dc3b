/**
 * useBoxRestore: what goes back into the input box when a run ends — the stopped or failed
 * prompt, then the prompts that were waiting behind it (the person stopped the run, or it failed),
 * joined by newlines. A new `seq` each time, so the box takes the same text twice. The text given
 * back is the screen store's (`boxRestore`); this hook gathers it when a run ends.
 */
import { useEffect, useRef } from "react";
import type { ScreenStore } from "../state/screen-state.js";

/** Text for the input box and its sequence number; undefined until a run ended with something to give back. */
export type BoxRestore = { text: string; seq: number } | undefined;

/**
 * Gives back (dispatched to `store`), when `running` turns false: `restore` (the stream's stopped prompt, once per seq),
 * the prompts pushed to `held` (held back by a stop), and, after a failure, `takeAllQueued()`.
 * `takeAllQueued` must be stable (the effect runs when a run ends, not on every render).
 */
export function useBoxRestore(store: ScreenStore, running: boolean, restore: BoxRestore, failed: boolean, takeAllQueued: () => string[]): { held: { current: string[] } } {
  const held = useRef<string[]>([]);
  const restoredSeq = useRef(0);
  useEffect(() => {
    if (running) return;
    const parts: string[] = [];
    if (restore && restore.seq !== restoredSeq.current) {
      restoredSeq.current = restore.seq;
      parts.push(restore.text);
    }
    parts.push(...held.current.splice(0), ...(failed ? takeAllQueued() : []));
    if (parts.length) store.dispatch({ type: "box_restore", text: parts.join("\n") });
  }, [store, running, restore, failed, takeAllQueued]);
  return { held };
}
