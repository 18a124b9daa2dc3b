/**
 * useBoxRestore: what goes back into the input box when a run ends — the stopped or failed
 * prompt, then the prompts that were waiting behind it (the person stopped the run, or it failed),
 * joined by newlines. A new `seq` each time, so the box takes the same text twice.
 */
import { useEffect, useRef, useState } from "react";

/** Text for the input box and its sequence number; undefined until a run ended with something to give back. */
export type BoxRestore = { text: string; seq: number } | undefined;

/**
 * Gives back, when `running` turns false: `restore` (the stream's stopped prompt, once per seq),
 * the prompts pushed to `held` (held back by a stop), and, after a failure, `takeAllQueued()`.
 * `takeAllQueued` must be stable (the effect runs when a run ends, not on every render).
 */
export function useBoxRestore(running: boolean, restore: BoxRestore, failed: boolean, takeAllQueued: () => string[]): { boxRestore: BoxRestore; held: { current: string[] } } {
  const [boxRestore, setBoxRestore] = useState<BoxRestore>();
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
    if (parts.length) setBoxRestore((r) => ({ text: parts.join("\n"), seq: (r?.seq ?? 0) + 1 }));
  }, [running, restore, failed, takeAllQueued]);
  return { boxRestore, held };
}
