import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/protocol/messages.js";
import { INTERRUPTED_RESULT, isHistoryValid, repairHistory } from "../../src/session/repair.js";
import { assistant, results, user } from "./helpers.js";

const interrupted = (id: string, name: string) => ({ toolCallId: id, toolName: name, content: INTERRUPTED_RESULT, isError: true });

describe("repairHistory", () => {
  it("leaves a valid history untouched", () => {
    const history: AgentMessage[] = [
      user("hi"),
      assistant("", [{ id: "a", name: "read" }, { id: "b", name: "grep" }]),
      results(["b", "grep"], ["a", "read"]),
      assistant("done"),
      user("more"),
    ];
    const snapshot = structuredClone(history);
    expect(isHistoryValid(history)).toBe(true);
    const out = repairHistory(history);
    expect(out).toEqual({ messages: snapshot, repaired: false, notes: [] });
    expect(history).toEqual(snapshot);
  });

  it("gives tool calls without any results synthetic error results", () => {
    const history: AgentMessage[] = [user("go"), assistant("working", [{ id: "a", name: "bash" }, { id: "b", name: "read" }])];
    const snapshot = structuredClone(history);
    expect(isHistoryValid(history)).toBe(false);
    const out = repairHistory(history);
    expect(out.repaired).toBe(true);
    expect(out.messages).toEqual([...snapshot, { role: "toolResult", results: [interrupted("a", "bash"), interrupted("b", "read")] }]);
    expect(isHistoryValid(out.messages)).toBe(true);
    expect(out.notes.join("\n")).toMatch(/2 tool call\(s\) without results: bash a, read b/);
    expect(history).toEqual(snapshot); // pure
  });

  it("inserts results before a trailing user message, keeping it", () => {
    const history: AgentMessage[] = [assistant("", [{ id: "a", name: "bash" }]), user("what happened?")];
    const out = repairHistory(history);
    expect(out.messages).toEqual([history[0], { role: "toolResult", results: [interrupted("a", "bash")] }, user("what happened?")]);
    expect(isHistoryValid(out.messages)).toBe(true);
  });

  it("completes a partial toolResult message", () => {
    const history: AgentMessage[] = [assistant("", [{ id: "a", name: "read" }, { id: "b", name: "bash" }]), results(["a", "read"])];
    expect(isHistoryValid(history)).toBe(false);
    const out = repairHistory(history);
    expect(out.messages[1]).toEqual({ role: "toolResult", results: [...results(["a", "read"]).results, interrupted("b", "bash")] });
    expect(isHistoryValid(out.messages)).toBe(true);
    expect(out.repaired).toBe(true);
  });

  it("drops duplicate results, results for unknown calls, and orphan toolResult messages", () => {
    const dup = results(["a", "read"]);
    dup.results.push({ toolCallId: "a", toolName: "read", content: "second", isError: false });
    dup.results.push({ toolCallId: "zzz", toolName: "read", content: "stray", isError: false });
    const history: AgentMessage[] = [results(["x", "ls"]), user("hi"), assistant("", [{ id: "a", name: "read" }]), dup];
    expect(isHistoryValid(history)).toBe(false);
    const out = repairHistory(history);
    expect(out.messages).toEqual([user("hi"), history[2], results(["a", "read"])]);
    expect(isHistoryValid(out.messages)).toBe(true);
    expect(out.notes).toHaveLength(2);
    expect(out.notes.join("\n")).toMatch(/duplicate/);
    expect(out.notes.join("\n")).toMatch(/unknown tool calls/);
  });

  it("merges split toolResult messages into one", () => {
    const history: AgentMessage[] = [assistant("", [{ id: "a", name: "read" }, { id: "b", name: "ls" }]), results(["a", "read"]), results(["b", "ls"])];
    expect(isHistoryValid(history)).toBe(false);
    const out = repairHistory(history);
    expect(out.messages).toEqual([history[0], results(["a", "read"], ["b", "ls"])]);
    expect(isHistoryValid(out.messages)).toBe(true);
  });
});

describe("isHistoryValid", () => {
  it("rejects extra or missing results and results not right after the call", () => {
    const call = assistant("", [{ id: "a", name: "read" }]);
    expect(isHistoryValid([call, results(["a", "read"])])).toBe(true);
    expect(isHistoryValid([call, results(["a", "read"], ["b", "ls"])])).toBe(false);
    expect(isHistoryValid([call, results(["a", "read"], ["a", "read"])])).toBe(false);
    expect(isHistoryValid([call, user("x"), results(["a", "read"])])).toBe(false);
    expect(isHistoryValid([user("x"), results(["a", "read"])])).toBe(false);
    expect(isHistoryValid([])).toBe(true);
  });
});
