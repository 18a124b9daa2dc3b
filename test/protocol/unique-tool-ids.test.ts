import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/core/loop.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AgentMessage, type AssistantMessage, type ToolResultMessage } from "../../src/protocol/messages.js";
import { createCallIdIndex, uniqueToolIds } from "../../src/protocol/unique-tool-ids.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { isHistorySendable, repairHistory } from "../../src/session/repair.js";
import { echoTool } from "../helpers/fake-tools.js";

const call = (id: string, text: string) => ({ type: "toolCall" as const, id, name: "echo", arguments: { text } });
const assistant = (...calls: ReturnType<typeof call>[]): AssistantMessage => ({ role: "assistant", content: calls, stopReason: "tool_use", usage: emptyUsage() });
const result = (id: string, content: string) => ({ toolCallId: id, toolName: "echo", content, isError: false });

describe("duplicate tool-call ids from the model server", () => {
  it("the loop renames the second call before anything is saved: both run, each with its own result, every request valid", async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ id: "dup", name: "echo", arguments: { text: "one" } }, { id: "dup", name: "echo", arguments: { text: "two" } }] }, { toolCalls: [{ id: "dup", name: "echo", arguments: { text: "three" } }] }, { text: "done" }]);
    const saved: AgentMessage[] = [];
    const events: AgentEvent[] = [];
    const history: AgentMessage[] = [];
    await runAgentLoop({ provider, model: "m", system: "s", cwd: process.cwd(), tools: [echoTool], history, userMessage: "go", onMessage: (m) => saved.push(m), onEvent: (e) => events.push(e) });
    for (const request of provider.requests) expect(isHistorySendable(request.messages)).toBe(true);
    expect(isHistorySendable(saved)).toBe(true);
    const results = saved.filter((m): m is ToolResultMessage => m.role === "toolResult").flatMap((m) => m.results.map((r) => [r.toolCallId, r.content]));
    expect(results).toEqual([["dup", "echo: one"], ["dup_2", "echo: two"], ["dup_3", "echo: three"]]);
    expect(events.some((e) => e.type === "warning" && e.message.includes("repeated tool call id(s) dup"))).toBe(true);
  });

  it("a saved history that already has them is repaired on load: results paired with their calls by order", () => {
    const messages: AgentMessage[] = [
      { role: "user", content: "go" },
      assistant(call("a", "1"), call("a", "2")),
      { role: "toolResult", results: [result("a", "first"), result("a", "second")] },
      assistant(call("a", "3")),
      { role: "toolResult", results: [result("a", "third")] },
    ];
    const fixed = repairHistory(messages);
    expect(isHistorySendable(fixed.messages)).toBe(true);
    expect(fixed.repaired).toBe(true);
    expect(fixed.notes[0]).toContain("renamed tool call id(s) used twice in message 1: a → a_2");
    const pairs = fixed.messages.flatMap((m) => (m.role === "toolResult" ? m.results.map((r) => `${r.toolCallId}=${r.content}`) : []));
    expect(pairs).toEqual(["a=first", "a_2=second", "a_3=third"]);
    // Deterministic: a second load renames the same way; a clean history is untouched.
    expect(uniqueToolIds(messages).messages).toEqual(fixed.messages.slice(0, 5));
    expect(uniqueToolIds(fixed.messages).notes).toEqual([]);
  });

  it("a long run reads each history message about once for the check, not the whole history every turn", async () => {
    const turns = 300;
    const provider = createScriptedProvider((_r, i) => (i < turns ? { toolCalls: [{ name: "echo", arguments: { text: "x" } }], usage: { input: 1, output: 1 } } : { text: "done", usage: { input: 1, output: 1 } }), { keepRequests: false });
    const target: AgentMessage[] = [];
    let reads = 0;
    // Counts every read of a message by index (a scan of the whole history per turn would be ~90,000).
    const history = new Proxy(target, {
      get(t, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(t, key, receiver);
      },
    });
    const result = await runAgentLoop({ provider, model: "m", system: "s", cwd: process.cwd(), tools: [echoTool], history, userMessage: "go", maxIterations: turns + 5 });
    expect(result.reason).toBe("done");
    expect(target.length).toBe(2 * turns + 2);
    expect(reads).toBeLessThan(4 * target.length);
  });

  it("after a compaction rewrote the history, only the ids still in it count (as when the whole history was read every turn)", async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ id: "x", name: "echo", arguments: { text: "1" } }] }, { toolCalls: [{ id: "y", name: "echo", arguments: { text: "2" } }] }, { toolCalls: [{ id: "x", name: "echo", arguments: { text: "3" } }, { id: "y", name: "echo", arguments: { text: "4" } }] }, { text: "done" }]);
    const history: AgentMessage[] = [];
    const events: AgentEvent[] = [];
    const onBeforeTurn = (h: AgentMessage[], ctx: { turn: number }) => {
      // Before the third call: the first call and its result are summarised away.
      if (ctx.turn === 3) h.splice(0, 3, { role: "user", content: "summary" });
    };
    await runAgentLoop({ provider, model: "m", system: "s", cwd: process.cwd(), tools: [echoTool], history, userMessage: "go", onBeforeTurn, onEvent: (e) => events.push(e) });
    const ids = history.flatMap((m) => (m.role === "toolResult" ? m.results.map((r) => r.toolCallId) : []));
    expect(ids).toEqual(["y", "x", "y_2"]);
    expect(isHistorySendable(history)).toBe(true);
    expect(events.filter((e) => e.type === "warning").map((e) => (e as { message: string }).message)).toEqual([expect.stringContaining("repeated tool call id(s) y; renamed to y_2")]);
  });

  it("the id index reads appended messages only, and the whole history again after a rewrite", () => {
    const history: AgentMessage[] = [{ role: "user", content: "go" }, assistant(call("a", "1")), { role: "toolResult", results: [result("a", "r")] }];
    const index = createCallIdIndex(history);
    expect([...index.ids()]).toEqual(["a"]);
    history.push(assistant(call("b", "2")), { role: "toolResult", results: [result("b", "r")] });
    expect([...index.ids()]).toEqual(["a", "b"]);
    expect(index.reads).toBe(5);
    history.splice(0, 3, { role: "user", content: "summary" });
    expect([...index.ids()]).toEqual(["b"]);
    expect(index.reads).toBe(8);
    // Replaced in place at the end (same length): read again too.
    history[history.length - 2] = assistant(call("c", "3"));
    history[history.length - 1] = { role: "toolResult", results: [result("c", "r")] };
    expect([...index.ids()]).toEqual(["c"]);
  });
});
