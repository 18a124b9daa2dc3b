import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AgentMessage, type ToolCall } from "../../src/protocol/messages.js";
import { compactionSummaryMessage } from "../../src/session/types.js";
import { childCounts, initialStreamState, reduceAll, runningChildIds, type StreamAction } from "../state/agent-stream-reducer.js";
import { historyItems } from "../state/history-items.js";
import type { StreamState, ToolItem } from "../state/transcript-types.js";

const ev = (event: AgentEvent, at = 0): StreamAction => ({ type: "event", event, at });
const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCall => ({ type: "toolCall", id, name, arguments: args });
const tool = (s: StreamState, id: string) => [...s.finished, ...s.live].find((i): i is ToolItem => i.kind === "tool" && i.id === id)!;
const started = () =>
  reduceAll(initialStreamState(), [
    { type: "run_start", text: "q", at: 0 },
    ev({ type: "tool_start", call: call("t1", "task", { prompt: "a" }) }),
    ev({ type: "tool_start", call: call("t2", "task", { prompt: "b" }) }),
    ev({ type: "tool_start", call: call("t3", "task", { prompt: "c" }) }),
    ev({ type: "subagent_start", childId: "c1", parentToolCallId: "t1", prompt: "a", resumed: false }, 10),
    ev({ type: "subagent_start", childId: "c2", parentToolCallId: "t2", prompt: "b", resumed: false }, 10),
  ]);
const compactionEnd = (reason: "threshold" | "overflow" | "manual"): AgentEvent => ({ type: "compaction_end", reason, ok: true, replacedCount: 12, tokensBefore: 160_000, tokensAfter: 9_000, summary: "S" });

describe("reduceStream: stopping one child, queued children", () => {
  it("counts running children and task calls still waiting for a slot, in call order", () => {
    const s = started();
    expect(childCounts(s)).toEqual({ running: 2, queued: 1 });
    expect(runningChildIds(s)).toEqual(["c1", "c2"]);
    const pendingOnly = reduceAll(initialStreamState(), [ev({ type: "toolcall_start", id: "t9", name: "task" })]);
    expect(childCounts(pendingOnly)).toEqual({ running: 0, queued: 0 }); // arguments still streaming: not queued yet
  });

  it("child_stop marks that child stopping until its end arrives; the sibling is untouched", () => {
    const s = reduceAll(started(), [{ type: "child_stop", childId: "c1" }]);
    expect(tool(s, "t1").child).toMatchObject({ status: "running", stopping: true });
    expect(tool(s, "t2").child?.stopping).toBeUndefined();
    const ended = reduceAll(s, [ev({ type: "subagent_end", childId: "c1", parentToolCallId: "t1", summary: { status: "aborted", turns: 1, usage: emptyUsage(), durationMs: 5, reason: "stopped by the user" } })]);
    expect(tool(ended, "t1").child).toMatchObject({ status: "aborted", stopping: false, reason: "stopped by the user" });
    expect(runningChildIds(ended)).toEqual(["c2"]);
    expect(reduceAll(started(), [{ type: "child_stop", childId: "nope" }])).toEqual(started());
  });
});

describe("reduceStream: compaction", () => {
  it("shows the main agent's automatic compaction as one dim line and flags it while it runs", () => {
    const s1 = reduceAll(initialStreamState(), [{ type: "run_start", text: "q", at: 0 }, ev({ type: "compaction_start", reason: "threshold", tokensBefore: 160_000, replacing: 12 })]);
    expect(s1.compacting).toBe(true);
    const s2 = reduceAll(s1, [ev(compactionEnd("threshold"))]);
    expect(s2.compacting).toBe(false);
    expect(s2.finished.at(-1)).toMatchObject({ kind: "info", tone: "dim", text: "✂ context compacted: 12 messages summarised (160k → 9.0k tokens)" });
    const failed = reduceAll(s1, [ev({ type: "compaction_end", reason: "overflow", ok: false, tokensBefore: 1, error: "boom" })]);
    expect(failed.finished.at(-1)).toMatchObject({ tone: "warn", text: expect.stringContaining("compaction failed (the model said the context was too long): boom") });
  });

  it("leaves a manual compaction to /compact's own message, and clears the flag at run end", () => {
    const s = reduceAll(initialStreamState(), [{ type: "run_start", at: 0 }, ev({ type: "compaction_start", reason: "manual", tokensBefore: 1, replacing: 2 }), ev(compactionEnd("manual"))]);
    expect(s.finished).toEqual([]);
    const cut = reduceAll(initialStreamState(), [{ type: "run_start", at: 0 }, ev({ type: "compaction_start", reason: "manual", tokensBefore: 1, replacing: 2 }), { type: "run_end", at: 1 }]);
    expect(cut.compacting).toBe(false);
  });

  it("puts a child's compaction on its pane as a note", () => {
    const wrap = (event: AgentEvent) => ev({ type: "subagent_event", childId: "c1", parentToolCallId: "t1", event });
    const s1 = reduceAll(started(), [wrap({ type: "compaction_start", reason: "threshold", tokensBefore: 1, replacing: 3 })]);
    expect(tool(s1, "t1").child?.note).toBe("✂ compacting context…");
    const s2 = reduceAll(s1, [wrap(compactionEnd("threshold"))]);
    expect(tool(s2, "t1").child?.note).toContain("✂ context compacted: 12 messages summarised");
    expect(s2.compacting).toBe(false);
  });
});

describe("reduceStream: runs without a main prompt, resumed history", () => {
  it("a run may start without a message (/compact) or with a prompt to a resumed child", () => {
    const plain = reduceAll(initialStreamState(), [{ type: "run_start", at: 0 }]);
    expect(plain).toMatchObject({ running: true, finished: [] });
    const resumed = reduceAll(initialStreamState(), [{ type: "run_start", text: "again", target: "general [abc123]", at: 0 }]);
    expect(resumed.finished).toMatchObject([{ kind: "user", text: "again", target: "general [abc123]" }]);
  });

  it("starts a resumed session's screen with its history as finished items", () => {
    const history: AgentMessage[] = [
      compactionSummaryMessage("older stuff"),
      { role: "user", content: "where is login?" },
      { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Looking." }, call("g1", "grep", { pattern: "login" }), call("g2", "read", { path: "x" })], stopReason: "tool_use", usage: emptyUsage() },
      { role: "toolResult", results: [{ toolCallId: "g1", toolName: "grep", content: "a.ts:1", isError: false }, { toolCallId: "g2", toolName: "read", content: "ENOENT", isError: true }] },
      { role: "assistant", content: [{ type: "text", text: "In a.ts." }], stopReason: "end_turn", usage: emptyUsage() },
    ];
    const s = initialStreamState({ cwd: "/p", model: "m", provider: "x", notices: [] }, history);
    expect(s.finished.map((i) => i.kind)).toEqual(["header", "info", "user", "thinking", "assistant", "tool", "tool", "assistant"]);
    expect(s.finished[5]).toMatchObject({ id: "h:g1", name: "grep", status: "ok", result: "a.ts:1", done: true });
    expect(s.finished[6]).toMatchObject({ status: "error", result: "ENOENT" });
    expect(new Set(s.finished.map((i) => i.id)).size).toBe(s.finished.length);
    expect(historyItems([{ role: "assistant", content: [call("z", "bash")], stopReason: "tool_use", usage: emptyUsage() }])).toMatchObject([{ status: "error", result: "(no result was saved)" }]);
  });
});
