import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/protocol/messages.js";
import { GAP_PLACEHOLDER_PREFIX, HistoryRefusedError, historyProblems, INTERRUPTED_RESULT, isHistorySendable, isHistoryValid, repairHistory } from "../../src/session/repair.js";
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
    expect(out).toEqual({ messages: snapshot, repaired: false, notes: [], summary: [], toPersist: [] });
    expect(history).toEqual(snapshot);
  });

  it("closes the crash tail's calls without running them, and says what it closed", () => {
    const history: AgentMessage[] = [user("go"), assistant("working", [{ id: "a", name: "bash" }, { id: "b", name: "read" }])];
    const snapshot = structuredClone(history);
    expect(isHistoryValid(history)).toBe(false);
    const out = repairHistory(history);
    expect(out.repaired).toBe(true);
    const closed = { role: "toolResult", results: [interrupted("a", "bash"), interrupted("b", "read")] };
    expect(out.messages).toEqual([...snapshot, closed]);
    expect(out.toPersist).toEqual([closed]);
    expect(out.summary).toEqual(["2 interrupted tool calls closed"]);
    expect(INTERRUPTED_RESULT).toContain("not run again");
    expect(isHistorySendable(out.messages)).toBe(true);
    expect(history).toEqual(snapshot); // pure
  });

  it("completes a partial toolResult message at the tail", () => {
    const history: AgentMessage[] = [user("go"), assistant("", [{ id: "a", name: "read" }, { id: "b", name: "bash" }]), results(["a", "read"])];
    const out = repairHistory(history);
    expect(out.messages[2]).toEqual({ role: "toolResult", results: [...results(["a", "read"]).results, interrupted("b", "bash")] });
    expect(isHistoryValid(out.messages)).toBe(true);
  });

  it("merges split toolResult messages into one", () => {
    const history: AgentMessage[] = [user("go"), assistant("", [{ id: "a", name: "read" }, { id: "b", name: "ls" }]), results(["a", "read"]), results(["b", "ls"])];
    const out = repairHistory(history);
    expect(out.messages).toEqual([user("go"), history[1], results(["a", "read"], ["b", "ls"])]);
    expect(isHistoryValid(out.messages)).toBe(true);
  });

  it("inserts a placeholder user turn when the history does not start with one (a damaged first line), and says so", () => {
    const history: AgentMessage[] = [assistant("", [{ id: "a", name: "ls" }]), results(["a", "ls"]), assistant("done")];
    const out = repairHistory(history, (i) => `line ${i + 2}`);
    expect(out.messages[0]).toMatchObject({ role: "user", content: expect.stringContaining(GAP_PLACEHOLDER_PREFIX) });
    expect(String((out.messages[0] as { content: string }).content)).toContain("before line 2");
    expect(out.messages.slice(1)).toEqual(history);
    expect(out.summary.join()).toMatch(/placeholder/);
    expect(isHistorySendable(out.messages)).toBe(true);
  });

  it("inserts a placeholder between two assistant turns in a row", () => {
    const out = repairHistory([user("a"), assistant("one"), assistant("two")]);
    expect(out.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(isHistorySendable(out.messages)).toBe(true);
  });

  const refusals: Array<[string, AgentMessage[], RegExp]> = [
    ["a result without a call", [user("a"), results(["x", "ls"]), assistant("ok")], /message 1 holds tool results \(x\) that follow no tool call/],
    ["a result for a call the message did not make", [user("a"), assistant("", [{ id: "x", name: "ls" }]), results(["x", "ls"], ["y", "ls"])], /result for tool call "y", which message 1 did not make/],
    ["two results for one call", [user("a"), assistant("", [{ id: "x", name: "ls" }]), results(["x", "ls"], ["x", "ls"])], /tool call "x" \(message 1\) has two results/],
    ["calls without results in the middle", [user("a"), assistant("", [{ id: "x", name: "ls" }]), user("b"), assistant("done")], /message 1 has tool call\(s\) without results in the middle of the history: ls x/],
  ];
  for (const [name, history, pattern] of refusals) {
    it(`refuses ${name}, naming the entry`, () => {
      const snapshot = structuredClone(history);
      let error: unknown;
      try {
        repairHistory(history);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(HistoryRefusedError);
      expect((error as HistoryRefusedError).message).toMatch(pattern);
      expect((error as Error).message).toContain("nothing was changed");
      expect(history).toEqual(snapshot);
    });
  }

  it("lists every problem at once", () => {
    expect(historyProblems([user("a"), results(["q", "ls"]), assistant("", [{ id: "x", name: "ls" }, { id: "x", name: "ls" }]), results(["x", "ls"])])).toHaveLength(2);
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
