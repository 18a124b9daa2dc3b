import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/core/loop.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AgentMessage, type AssistantMessage, type ToolResultMessage } from "../../src/protocol/messages.js";
import { uniqueToolIds } from "../../src/protocol/unique-tool-ids.js";
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
});
