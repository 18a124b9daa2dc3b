/** A tool call's elapsed time starts when it runs: the approval wait before it is not counted (issue #23 item 8). */
import { expect, it } from "vitest";
import { runToolCalls } from "../../src/core/tool-runner.js";
import { MAIN_AGENT } from "../../src/core/loop.js";
import { bashTool } from "../../src/tools/index.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { AnyTool } from "../../src/protocol/tool.js";

it("bash's durationMs excludes the minute its approval waited (injected clock)", async () => {
  let clock = 1_000_000;
  const events: AgentEvent[] = [];
  const call = { type: "toolCall" as const, id: "b1", name: "bash", arguments: { command: "true" } };
  await runToolCalls([call], {
    tools: [bashTool as AnyTool],
    cwd: process.cwd(),
    agent: MAIN_AGENT,
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
    now: () => clock,
    onToolCall: async () => {
      clock += 60_000; // the person took a minute to say yes
      return { allow: true };
    },
  });
  const end = events.find((e): e is Extract<AgentEvent, { type: "tool_end" }> => e.type === "tool_end");
  expect(end?.result.isError).toBe(false);
  // The clock only moved while the approval waited, so the tool's own time is 0.
  expect(end?.durationMs).toBe(0);
});

it("a refused call's durationMs does not count the wait for the refusal either", async () => {
  let clock = 0;
  const events: AgentEvent[] = [];
  await runToolCalls([{ type: "toolCall", id: "b2", name: "bash", arguments: { command: "rm -rf /" } }], {
    tools: [bashTool as AnyTool],
    cwd: process.cwd(),
    agent: MAIN_AGENT,
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
    now: () => clock,
    onToolCall: () => {
      clock += 30_000;
      return { allow: false, reason: "no" };
    },
  });
  const end = events.find((e): e is Extract<AgentEvent, { type: "tool_end" }> => e.type === "tool_end");
  expect(end?.result.content).toContain("refused");
  expect(end?.durationMs).toBe(0);
});
