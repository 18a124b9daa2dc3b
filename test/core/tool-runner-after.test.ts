/** The after-tool step (PostToolUse / PostToolUseFailure hooks) runs for a tool that throws, and its own failure never replaces the tool's result. */
import { expect, it } from "vitest";
import { z } from "zod";
import { runToolCalls, type OnToolCall } from "../../src/core/tool-runner.js";
import { MAIN_AGENT } from "../../src/core/loop.js";
import type { AnyTool, ToolOutput } from "../../src/protocol/tool.js";

const tool = (name: string, run: () => Promise<ToolOutput>): AnyTool =>
  ({ name, description: name, schema: z.object({}), readOnly: true, execute: run }) as unknown as AnyTool;
const call = (name: string) => ({ type: "toolCall" as const, id: `id-${name}`, name, arguments: {} });

function checkWith(after: NonNullable<OnToolCall["after"]>): OnToolCall {
  const check = (() => ({ allow: true })) as OnToolCall;
  check.after = after;
  return check;
}

it("a tool that throws still reaches the after step, which sees the failure", async () => {
  const seen: ToolOutput[] = [];
  const onToolCall = checkWith(async (_c, out) => {
    seen.push(out);
    return "failure hook ran";
  });
  const boom = tool("boom", async () => {
    throw new Error("disk on fire");
  });
  const [result] = await runToolCalls([call("boom")], { tools: [boom], cwd: process.cwd(), agent: MAIN_AGENT, signal: new AbortController().signal, emit: () => undefined, onToolCall });
  expect(seen).toEqual([{ output: "boom failed: disk on fire", isError: true }]);
  expect(result!.isError).toBe(true);
  expect(result!.content).toBe("boom failed: disk on fire\n\nfailure hook ran");
});

it("an after step that throws keeps the tool's own successful result", async () => {
  const onToolCall = checkWith(async () => {
    throw new Error("hook crashed");
  });
  const fine = tool("fine", async () => ({ output: "all good", isError: false }));
  const [result] = await runToolCalls([call("fine")], { tools: [fine], cwd: process.cwd(), agent: MAIN_AGENT, signal: new AbortController().signal, emit: () => undefined, onToolCall });
  expect(result!.isError).toBe(false);
  expect(result!.content).toBe("all good\n\n(the after-tool step failed: hook crashed)");
});
