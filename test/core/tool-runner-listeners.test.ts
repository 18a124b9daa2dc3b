/** A batch of concurrent tool calls, each listening for the abort, does not make Node warn about a listener leak. */
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { runToolCalls } from "../../src/core/tool-runner.js";
import { MAIN_AGENT } from "../../src/core/loop.js";
import type { AnyTool } from "../../src/protocol/tool.js";

const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.name);
afterEach(() => process.off("warning", onWarning));

it("twelve concurrent calls on one signal: no MaxListenersExceededWarning, every call answered", async () => {
  process.on("warning", onWarning);
  const listening: AnyTool = {
    name: "look",
    description: "waits a tick, listening for the abort",
    schema: z.object({ n: z.number() }),
    concurrent: true,
    readOnly: true,
    async execute(args: { n: number }, ctx: { signal: AbortSignal }) {
      const stop = () => undefined;
      ctx.signal.addEventListener("abort", stop);
      await new Promise((r) => setTimeout(r, 20));
      ctx.signal.removeEventListener("abort", stop);
      return { output: `seen ${args.n}`, isError: false };
    },
  } as unknown as AnyTool;
  const calls = Array.from({ length: 12 }, (_, n) => ({ type: "toolCall" as const, id: `c${n}`, name: "look", arguments: { n } }));
  const results = await runToolCalls(calls, { tools: [listening], cwd: process.cwd(), agent: MAIN_AGENT, signal: new AbortController().signal, emit: () => undefined });
  await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
  expect(results.map((r) => r.content)).toEqual(calls.map((_, n) => `seen ${n}`));
  expect(warnings).not.toContain("MaxListenersExceededWarning");
});
