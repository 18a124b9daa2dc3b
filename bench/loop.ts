/**
 * `loop`: the harness's own cost per tool call with the scripted provider (which answers at once
 * and, with keepRequests off, keeps no copy of the history): 1,000 turns of one trivial call each,
 * and 1,000 trivial calls in one turn.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { runAgentLoop } from "../src/core/loop.js";
import type { AnyTool } from "../src/protocol/tool.js";
import { createScriptedProvider } from "../src/providers/scripted.js";
import { median, type Figure } from "./stats.js";

const noop: AnyTool = {
  name: "noop",
  description: "does nothing",
  schema: z.object({}),
  concurrent: true,
  readOnly: true,
  execute: async () => ({ output: "ok", isError: false }),
};

const usage = { input: 100, output: 10 };

/** Wall ms of one run of `turns` turns with `perTurn` calls each. */
async function run(turns: number, perTurn: number): Promise<number> {
  const provider = createScriptedProvider(
    (_r, i) => (i < turns ? { toolCalls: Array.from({ length: perTurn }, () => ({ name: "noop", arguments: {} })), usage } : { text: "done", usage }),
    { keepRequests: false },
  );
  const cwd = mkdtempSync(join(tmpdir(), "ink-bench-loop-"));
  try {
    const t = performance.now();
    const result = await runAgentLoop({ provider, model: "m", system: "s", tools: [noop], history: [], userMessage: "go", cwd, maxIterations: turns + 5 });
    if (result.reason !== "done") throw new Error(`loop bench stopped early: ${result.reason}`);
    return performance.now() - t;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** The loop figures (µs per call), medians of `runs`. */
export async function loopFigures(runs: number): Promise<Figure[]> {
  await run(50, 1);
  const turns: number[] = [];
  const batch: number[] = [];
  for (let i = 0; i < runs; i++) {
    turns.push(await run(1000, 1)); // ms for 1,000 calls = µs per call
    batch.push(await run(1, 1000));
  }
  return [
    { group: "loop", name: "1,000 turns × 1 trivial call, per call", median: median(turns), unit: "µs", runs },
    { group: "loop", name: "1 turn × 1,000 trivial calls, per call", median: median(batch), unit: "µs", runs },
  ];
}
