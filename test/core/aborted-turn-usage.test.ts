/**
 * A model call cut off by an abort has no usage report from its provider: the loop counts the
 * output it streamed at the live estimate's rate (CHARS_PER_TOKEN), emits it as a usage event and
 * includes it in the run's usage, so every total built from either agrees (issue #23 item 8).
 */
import { expect, it } from "vitest";
import { runAgentLoop } from "../../src/core/loop.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { addUsage, emptyUsage, type AgentMessage } from "../../src/protocol/messages.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { initialStreamState, reduceAll } from "../../components/state/agent-stream-reducer.js";
import { abandonChild, startChild } from "../../components/state/child-reducer.js";

const never = new Promise<never>(() => undefined);

it("an aborted turn's streamed output is counted once: usage event, LoopResult and agent_end agree", async () => {
  const provider = createScriptedProvider([{ text: "done with the first", usage: { input: 50, output: 5 }, toolCalls: [] }, { text: "x".repeat(41), waitFor: never }]);
  const history: AgentMessage[] = [];
  const events: AgentEvent[] = [];
  const controller = new AbortController();
  await runAgentLoop({ provider, model: "m", system: "s", tools: [], history, userMessage: "one", cwd: process.cwd() });
  const run = runAgentLoop({
    provider,
    model: "m",
    system: "s",
    tools: [],
    history,
    userMessage: "two",
    cwd: process.cwd(),
    signal: controller.signal,
    onEvent: (e) => {
      events.push(e);
      if (e.type === "text_delta" && events.filter((x) => x.type === "text_delta").length === 3) controller.abort();
    },
  });
  const result = await run;
  expect(result.reason).toBe("aborted");
  expect(result.usage).toEqual({ ...emptyUsage(), output: Math.ceil(41 / 4) });
  const fromEvents = events.filter((e) => e.type === "usage").reduce((u, e) => (e.type === "usage" ? addUsage(u, e.usage) : u), emptyUsage());
  expect(fromEvents).toEqual(result.usage);
  const end = events.find((e) => e.type === "agent_end");
  expect(end?.type === "agent_end" && end.usage).toEqual(result.usage);
  // The estimate is not put on a kept message: it would anchor the context estimate far too low.
  for (const m of history) if (m.role === "assistant" && m.stopReason === "aborted") expect(m.usage).toEqual(emptyUsage());
});

it("the output-only estimate leaves the status bar's context use alone (its tokens come from the ledger)", () => {
  const state = reduceAll(initialStreamState(), [
    { type: "event", event: { type: "usage", usage: { input: 4000, output: 10, cacheRead: 1000, cacheWrite: 0 } }, at: 1 },
    { type: "event", event: { type: "usage", usage: { ...emptyUsage(), output: 11 } }, at: 2 },
    { type: "spend", rows: [{ agent: "main", model: "m", usage: { input: 4000, output: 21, cacheRead: 1000, cacheWrite: 0 } }] },
  ]);
  expect(state.contextTokens).toBe(5000);
  expect(state.usage.output).toBe(21);
});

it("a child cut off without its end keeps the estimate its pane showed", () => {
  const child = { ...startChild({ childId: "c1", prompt: "p", resumed: false, at: 0 }), usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 }, pendingChars: 41 };
  expect(abandonChild(child, 5000).usage).toEqual({ input: 100, output: 20 + 11, cacheRead: 0, cacheWrite: 0 });
});
