/**
 * V8 heap tuning for the long-running TUI. Its RSS (smaps of a soak: answers and 8 children, round
 * after round) grows in V8's own 256 KB heap pages, not in malloc, wasm or file mappings; of those
 * pages the young generation is 32 MB (two 16 MB semi-spaces) once a stream has run, a third of the
 * heap. Capped at two 8 MB semi-spaces a 4-minute soak ran ~7–16 MB lower and the 8-children run
 * peaked ~9 MB lower, at the same CPU.
 * node's `--max-semi-space-size` is read only at start-up (a re-exec with it costs ~40 ms); what V8
 * reads each time it grows the young generation is the growth factor. So after each GC the factor
 * is 1 while the young generation is at the cap, and V8's own (2) below it: V8 also shrinks the
 * young generation when allocation is slow, and a factor left at 1 would keep it at its smallest
 * (1 MB semi-spaces: everything promoted, the old generation at 3× its size in a soak).
 *
 * The old generation: V8 lets it grow to 1.1–4× what survived the last full GC before the next one
 * (more the faster the program allocates), and a streaming TUI allocates fast. In a soak the first
 * full GC came only after ~100 s, with old space at 77 MB and RSS at 180 MB for ~40 MB live, and
 * later ones at 2–4× the live heap. V8 reads `--heap-growing-percent` each time it sets the next
 * limit, so the TUI fixes the factor at 1 + OLD_GROWTH_PERCENT / 100: full GCs come when the old
 * generation grew by that much (their marking is incremental and concurrent), and RSS follows what
 * is live.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** The largest semi-space (MB) the TUI lets V8 grow its young generation to (two of them). */
export const SEMI_SPACE_CAP_MB = 8;

/** What capYoungGeneration reads and calls; the defaults are the process's own V8. */
export interface HeapHooks {
  /** Bytes V8's young generation (new space) takes now. */
  newSpaceBytes: () => number;
  setFlags: (flags: string) => void;
  /** Calls `listener` after garbage collections; returns a function that stops it. */
  afterGc: (listener: () => void) => () => void;
}

const processHeap: HeapHooks = {
  newSpaceBytes: () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0,
  setFlags: setFlagsFromString,
  afterGc: (listener) => {
    const observer = new PerformanceObserver(listener);
    observer.observe({ entryTypes: ["gc"] });
    return () => observer.disconnect();
  },
};

/**
 * Keeps V8's young generation at most two `capMb` semi-spaces: after each GC its growth factor is
 * set to 1 when it is that large and back to 2 when it is smaller (only when that changes).
 * Returns a function that stops it (leaving V8's default factor).
 */
export function capYoungGeneration(capMb = SEMI_SPACE_CAP_MB, hooks: HeapHooks = processHeap): () => void {
  let capped = false;
  const check = () => {
    const atCap = hooks.newSpaceBytes() >= 2 * capMb * 1024 * 1024;
    if (atCap === capped) return;
    capped = atCap;
    hooks.setFlags(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
  };
  const stop = hooks.afterGc(check);
  check();
  return () => {
    stop();
    if (capped) hooks.setFlags("--semi-space-growth-factor=2");
  };
}

/** How far (%) the old generation may grow past what survived the last full GC before the next one. */
export const OLD_GROWTH_PERCENT = 25;

/** Fixes V8's old-generation growing factor at 1 + `percent` / 100 (see the module note). */
export function limitOldGeneration(percent = OLD_GROWTH_PERCENT, setFlags: (flags: string) => void = setFlagsFromString): void {
  setFlags(`--heap-growing-percent=${percent}`);
}

let applied = false;

/**
 * Whether the V8 of `version` (process.versions.v8) is one whose flags the tuning sets are known to
 * exist in (V8 11–14: Node 20 to 25). V8 prints "Error: unrecognized flag" on stderr — over the
 * TUI — for a flag it dropped, so on any other V8 the tuning is left out.
 */
export function heapFlagsKnown(version: string = process.versions.v8): boolean {
  const major = Number(version.split(".")[0]);
  return major >= 11 && major <= 14;
}

/** Applies the TUI's heap tuning (capYoungGeneration, limitOldGeneration) once per process on a V8 whose flags it knows; later calls do nothing. */
export function tuneHeapForTui(): void {
  if (applied || !heapFlagsKnown()) return;
  applied = true;
  capYoungGeneration();
  limitOldGeneration();
}

/** Whether tuneHeapForTui has run in this process. */
export function heapTuned(): boolean {
  return applied;
}
