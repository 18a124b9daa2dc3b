/**
 * Worker-thread entry of the search tools (`grep`, `find`): the matching runs here so that a slow
 * or catastrophic pattern never blocks the main thread (signals, the UI, other agents).
 *
 * Started by `search-runner.ts` with `workerData = {job, progress}`. Before each item it stores
 * the item's index in `progress[0]` (a shared Int32Array), so the main thread can tell which item
 * overran its time budget and terminate the worker. Messages:
 *   in:  `{items: SearchItem[], base}` — items numbered from `base`
 *   out: `{type: "ready"}` once the job compiled, `{type: "result", index, result}` for every item that matched or was skipped,
 *        `{type: "done", upTo}` after each batch (items below `upTo` are finished),
 *        `{type: "error", message}` when the job cannot be compiled.
 * This file is a separate entry point: a bundle must emit it as `search-worker.js` beside the
 * module that starts it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { compileJob, type SearchItem, type SearchJob } from "./search-match.js";

interface Init {
  job: SearchJob;
  progress: SharedArrayBuffer;
}

const { job, progress } = workerData as Init;
const current = new Int32Array(progress);
const port = parentPort!;
let run: ReturnType<typeof compileJob> | undefined;
try {
  run = compileJob(job);
  port.postMessage({ type: "ready" });
} catch (err) {
  port.postMessage({ type: "error", message: err instanceof Error ? err.message : String(err) });
}

port.on("message", (batch: { items: SearchItem[]; base: number }) => {
  if (!run) return;
  for (let k = 0; k < batch.items.length; k++) {
    const index = batch.base + k;
    Atomics.store(current, 0, index);
    const result = run(batch.items[k]!);
    if (result.matched || result.skipped) port.postMessage({ type: "result", index, result });
  }
  port.postMessage({ type: "done", upTo: batch.base + batch.items.length });
});
