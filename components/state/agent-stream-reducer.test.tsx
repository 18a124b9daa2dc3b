import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AssistantMessage, type ToolCall, type Usage } from "../../src/protocol/messages.js";
import { initialStreamState, reduceAll, runningChildren, type StreamAction } from "./agent-stream-reducer.js";
import { CHILD_ENTRIES_CAP, CHILD_TEXT_CAP, childReport } from "./child-reducer.js";
import { itemCopyText } from "./copy-answer.js";
import { itemText } from "../hooks/use-transcript-search.js";
import { itemLines } from "../layout/item-lines.js";
import { stripAnsi } from "../testing/wait-for-frame.js";
import type { StreamState, ToolItem, TranscriptItem } from "./transcript-types.js";

const ev = (event: AgentEvent, at = 0): StreamAction => ({ type: "event", event, at });
const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCall => ({ type: "toolCall", id, name, arguments: args });
const usage = (input: number, output: number, extra: Partial<Usage> = {}): Usage => ({ ...emptyUsage(), input, output, ...extra });
const assistant = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }], stopReason: "end_turn", usage: emptyUsage() });
const toolEnd = (c: ToolCall, content: string, isError = false): AgentEvent => ({ type: "tool_end", call: c, result: { toolCallId: c.id, toolName: c.name, content, isError }, durationMs: 12 });
const child = (childId: string, parentToolCallId: string, event: AgentEvent, profile?: string): StreamAction =>
  ev({ type: "subagent_event", childId, parentToolCallId, profile, event });

function run(actions: StreamAction[], start: StreamState = initialStreamState()): StreamState {
  return reduceAll(start, actions);
}
const kinds = (items: TranscriptItem[]) => items.map((i) => i.kind);
const tool = (s: StreamState, id: string) => [...s.finished, ...s.live].find((i): i is ToolItem => i.kind === "tool" && i.id === id)!;

describe("reduceStream: main agent", () => {
  it("starts with the header and shows the user's message at once", () => {
    const s = run([{ type: "run_start", text: "hello", at: 0 }], initialStreamState({ cwd: "/p", model: "m", provider: "x", notices: ["skipped a.md"] }));
    expect(s.running).toBe(true);
    expect(s.finished).toMatchObject([{ kind: "header", cwd: "/p", notices: ["skipped a.md"] }, { kind: "user", text: "hello" }]);
  });

  it("a loaded session's ledger sets the token totals, its history the context in use (the latest call's input incl. cache)", () => {
    const answer = (u: Usage): AssistantMessage => ({ ...assistant("a"), usage: u });
    const history = [
      { role: "user" as const, content: "q1" },
      answer(usage(1000, 50, { cacheRead: 200 })),
      { role: "user" as const, content: "q2" },
      answer(usage(1500, 70, { cacheRead: 300, cacheWrite: 40 })),
    ];
    const spend = [{ agent: "main", model: "m", usage: { input: 2500, output: 120, cacheRead: 500, cacheWrite: 40 } }];
    const s = initialStreamState({ cwd: "/p", model: "m", provider: "x", notices: [] }, history, [], undefined, [], spend);
    expect(s.contextTokens).toBe(1840);
    expect(s.usage).toEqual({ input: 2500, output: 120, cacheRead: 500, cacheWrite: 40 });
    expect(initialStreamState()).toMatchObject({ contextTokens: 0, usage: emptyUsage() });
  });

  it("accumulates streamed text into one live item that is finished at turn end", () => {
    const s1 = run([{ type: "run_start", text: "hi", at: 0 }, ev({ type: "turn_start", turn: 1 }), ev({ type: "text_delta", text: "Hel" }), ev({ type: "text_delta", text: "lo!" })]);
    expect(s1.live).toMatchObject([{ kind: "assistant", text: "Hello!", done: false }]);
    const s2 = run([ev({ type: "turn_end", turn: 1, message: assistant("Hello!") }), ev({ type: "agent_end", reason: "done", turns: 1, usage: emptyUsage() }), { type: "run_end", at: 1 }], s1);
    expect(s2.live).toEqual([]);
    expect(kinds(s2.finished)).toEqual(["user", "assistant"]);
    expect(s2.running).toBe(false);
  });

  it("collapses thinking to a character count and closes it when text starts", () => {
    const s = run([ev({ type: "thinking_delta", text: "abc" }), ev({ type: "thinking_delta", text: "de" }), ev({ type: "text_delta", text: "Answer" })]);
    expect(s.finished).toMatchObject([{ kind: "thinking", chars: 5, done: true }]);
    expect(s.live).toMatchObject([{ kind: "assistant", text: "Answer" }]);
  });

  it("keeps call order: a finished tool waits behind an unfinished one before it", () => {
    const a = call("a", "read", { path: "x.ts" });
    const b = call("b", "grep", { pattern: "login" });
    const s1 = run([
      ev({ type: "text_delta", text: "Looking" }),
      ev({ type: "toolcall_start", id: "a", name: "read" }),
      ev({ type: "toolcall_start", id: "b", name: "grep" }),
      ev({ type: "turn_end", turn: 1, message: assistant("Looking") }),
      ev({ type: "tool_start", call: a }),
      ev({ type: "tool_start", call: b }),
      ev(toolEnd(b, "src/a.ts:1: login")),
    ]);
    expect(kinds(s1.finished)).toEqual(["assistant"]);
    expect(s1.live.map((i) => i.id)).toEqual(["a", "b"]);
    expect(tool(s1, "a")).toMatchObject({ status: "running", args: { path: "x.ts" } });
    expect(tool(s1, "b")).toMatchObject({ status: "ok", done: true, result: "src/a.ts:1: login", durationMs: 12 });
    const s2 = run([ev(toolEnd(a, "no such file", true))], s1);
    expect(s2.live).toEqual([]);
    expect(s2.finished.map((i) => i.id)).toEqual([s1.finished[0]!.id, "a", "b"]);
    expect(tool(s2, "a").status).toBe("error");
  });

  it("shows the last line of live tool output", () => {
    const a = call("a", "bash", { command: "make" });
    const s = run([ev({ type: "tool_start", call: a }), ev({ type: "tool_update", toolCallId: "a", text: "step 1\nstep 2\n" })]);
    expect(tool(s, "a").update).toBe("step 2");
  });

  it("counts tokens of every agent from the ledger and takes context use from the main agent's latest call", () => {
    const s = run([
      ev({ type: "usage", usage: usage(1000, 50, { cacheRead: 200 }) }),
      ev({ type: "usage", usage: usage(1500, 70) }),
      ev({ type: "subagent_start", childId: "c1", parentToolCallId: "t1", prompt: "p", resumed: false }),
      child("c1", "t1", { type: "usage", usage: usage(9000, 10) }),
      { type: "spend", rows: [{ agent: "main", usage: usage(2500, 120, { cacheRead: 200 }) }, { agent: "c1", run: "t1", usage: usage(9000, 10) }] },
    ]);
    expect(s.usage).toEqual(usage(11_500, 130, { cacheRead: 200 }));
    expect(s.contextTokens).toBe(1500);
  });

  it("reports an error once whether it came as an event, a rejection, or both", () => {
    const both = run([{ type: "run_start", text: "x", at: 0 }, ev({ type: "error", message: "overloaded" }), { type: "run_end", error: "overloaded", at: 1 }]);
    expect(both.finished.filter((i) => i.kind === "info").map((i) => (i.kind === "info" ? i.text : ""))).toEqual(["error: overloaded"]);
    const rejectOnly = run([{ type: "run_start", text: "x", at: 0 }, { type: "run_end", error: "socket hang up", at: 1 }]);
    expect(rejectOnly.finished[rejectOnly.finished.length - 1]).toMatchObject({ kind: "info", tone: "error", text: "error: socket hang up" });
  });

  it("puts notices above the live run and clears the visible transcript on clear", () => {
    const s1 = run([{ type: "run_start", text: "x", at: 0 }, ev({ type: "text_delta", text: "streaming" }), { type: "notice", text: "Commands: …" }]);
    expect(kinds(s1.finished)).toEqual(["user", "info"]);
    expect(kinds(s1.live)).toEqual(["assistant"]);
    const s2 = run([{ type: "clear" }], s1);
    expect(s2.finished).toEqual([]);
    expect(s2.epoch).toBe(s1.epoch + 1);
    expect(kinds(s2.live)).toEqual(["assistant"]);
  });
});

describe("reduceStream: one copy of an answer", () => {
  it("a finished answer holds the text of its message (the history's copy), not a second one built from the deltas", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const history: AssistantMessage[] = [];
    let s = initialStreamState();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 10; n++) {
      const parts = Array.from({ length: 2048 }, (_, i) => `${n}:${i} `.padEnd(64, "y")); // streamed as small deltas
      s = reduceAll(s, [{ type: "run_start", text: `q${n}`, at: 0 }, ...parts.map((text) => ev({ type: "text_delta", text }))]);
      history.push(assistant(parts.join(""))); // the agent's own copy, as its history keeps it
      s = run([ev({ type: "message", message: history[n]! }), ev({ type: "agent_end", reason: "done", turns: 1, usage: emptyUsage() }), { type: "run_end", at: 1 }], s);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before; // 10 answers of 128 KB: ~2 MB with their items; ~7 MB when the items keep the text built from the deltas
    expect(grown).toBeLessThan(4 * 1024 * 1024);
    const answers = s.finished.filter((i) => i.kind === "assistant");
    expect(answers).toHaveLength(10);
    expect(answers.map((a) => a.kind === "assistant" && a.text)).toEqual(history.map((m) => (m.content[0] as { text: string }).text));
  });

  it("an answer whose text differs from its message's keeps its own", () => {
    const s = run([{ type: "run_start", text: "q", at: 0 }, ev({ type: "text_delta", text: "streamed" }), ev({ type: "message", message: assistant("other") })]);
    expect(s.finished.at(-1)).toMatchObject({ kind: "assistant", text: "streamed" });
  });
});

describe("reduceStream: children", () => {
  const t1 = call("t1", "task", { prompt: "find login", agent: "scout" });
  const t2 = call("t2", "task", { prompt: "find tests" });
  const started = (): StreamState =>
    run([
      { type: "run_start", text: "where is login?", at: 0 },
      ev({ type: "toolcall_start", id: "t1", name: "task" }),
      ev({ type: "toolcall_start", id: "t2", name: "task" }),
      ev({ type: "tool_start", call: t1 }),
      ev({ type: "tool_start", call: t2 }),
      ev({ type: "subagent_start", childId: "c-aaa111", parentToolCallId: "t1", profile: "scout", prompt: "find login", resumed: false }, 1000),
      ev({ type: "subagent_start", childId: "c-bbb222", parentToolCallId: "t2", prompt: "find tests", resumed: false }, 1000),
    ]);

  it("attaches each child to its task call and follows its turns, text, tools and tokens", () => {
    const grep = call("g1", "grep", { pattern: "login" });
    const s = run(
      [
        child("c-aaa111", "t1", { type: "turn_start", turn: 1 }),
        child("c-aaa111", "t1", { type: "text_delta", text: "Searching for login" }),
        child("c-aaa111", "t1", { type: "tool_start", call: grep }),
        child("c-aaa111", "t1", toolEnd(grep, "src/auth/login.ts:3: export function login")),
        child("c-aaa111", "t1", { type: "usage", usage: usage(300, 20) }),
        child("c-aaa111", "t1", { type: "turn_start", turn: 2 }),
        child("c-aaa111", "t1", { type: "text_delta", text: "Done" }),
        child("c-aaa111", "t1", { type: "message", message: assistant("**Answer**: in src/auth/login.ts") }),
      ],
      started(),
    );
    const c = tool(s, "t1").child!;
    expect(c).toMatchObject({ childId: "c-aaa111", profile: "scout", status: "running", turns: 2, startedAt: 1000, report: "**Answer**: in src/auth/login.ts" });
    expect(c.usage).toEqual(usage(300, 20));
    // One chronological list: the text, then the tool call (with its result), then the next turn's text.
    expect(c.entries).toMatchObject([
      { kind: "text", text: "Searching for login" },
      { kind: "tool", name: "grep", status: "ok", resultHead: ["src/auth/login.ts:3: export function login"], resultLines: 1 },
      { kind: "text", text: "Done" },
    ]);
    expect(tool(s, "t2").child).toMatchObject({ childId: "c-bbb222", profile: undefined, turns: 0, entries: [] });
    expect(runningChildren(s)).toBe(2);
  });

  it("keeps only the tail of a child's streamed text and its latest entries", () => {
    const s = run([child("c-aaa111", "t1", { type: "text_delta", text: "x".repeat(CHILD_TEXT_CAP) + "END" })], started());
    const entry = tool(s, "t1").child!.entries[0]!;
    expect(entry.kind === "text" && entry.text.length).toBe(CHILD_TEXT_CAP);
    expect(entry.kind === "text" && entry.text.endsWith("END")).toBe(true);
    const calls = Array.from({ length: CHILD_ENTRIES_CAP + 5 }, (_, i) => child("c-aaa111", "t1", { type: "tool_start", call: call(`g${i}`, "ls", {}) }));
    const many = tool(run(calls, started()), "t1").child!;
    expect(many.entries).toHaveLength(CHILD_ENTRIES_CAP);
    expect(many.dropped).toBe(5);
    expect(many.entries[0]).toMatchObject({ kind: "tool", id: "g5" });
  });

  it("collapses a finished child: summary from subagent_end, moved to finished with its task result", () => {
    const summary = { status: "ok" as const, turns: 3, usage: usage(900, 80), durationMs: 2100, sessionId: "c-aaa111" };
    const s = run([ev({ type: "subagent_end", childId: "c-aaa111", parentToolCallId: "t1", profile: "scout", summary }), ev(toolEnd(t1, "login is in src/auth/login.ts"))], started());
    expect(runningChildren(s)).toBe(1);
    const finishedTask = s.finished.find((i) => i.id === "t1") as ToolItem;
    expect(finishedTask.child).toMatchObject({ status: "ok", turns: 3, durationMs: 2100, usage: usage(900, 80) });
    expect(finishedTask.result).toBe("login is in src/auth/login.ts");
    expect(s.live.map((i) => i.id)).toEqual(["t2"]);
  });

  it("the child index holds the running children only: an ended child's entry goes, a resumed one comes back", () => {
    const summary = { status: "ok" as const, turns: 1, usage: usage(9, 8), durationMs: 21 };
    expect(Object.keys(started().childIndex)).toEqual(["c-aaa111", "c-bbb222"]);
    const ended = run([ev({ type: "subagent_end", childId: "c-aaa111", parentToolCallId: "t1", summary })], started());
    expect(Object.keys(ended.childIndex)).toEqual(["c-bbb222"]);
    // A long session: a hundred children started and ended leave nothing behind.
    const many = Array.from({ length: 100 }, (_, i) => [
      ev({ type: "subagent_start", childId: `c-${i}`, parentToolCallId: "t2", prompt: "p", resumed: false }),
      ev({ type: "subagent_end", childId: `c-${i}`, parentToolCallId: "t2", summary }),
    ]).flat();
    expect(Object.keys(run(many, ended).childIndex)).toEqual(["c-bbb222"]);
    // Resumed: it starts anew, and its events reach its call's item again.
    const resumed = run([ev({ type: "subagent_start", childId: "c-aaa111", parentToolCallId: "t1", prompt: "more", resumed: true }), child("c-aaa111", "t1", { type: "turn_start", turn: 4 })], ended);
    expect(Object.keys(resumed.childIndex).sort()).toEqual(["c-aaa111", "c-bbb222"]);
    expect(tool(resumed, "t1").child).toMatchObject({ childId: "c-aaa111", status: "running", turns: 4 });
  });

  it("a finished child keeps its text once: no entries (its transcript is in its session file), its report as the start of the task result", () => {
    const grep = call("g1", "grep", { pattern: "login" });
    const report = "REPORT-ONCE login is in src/auth/login.ts";
    const s = run(
      [
        child("c-aaa111", "t1", { type: "text_delta", text: "STREAMED-NOT-REPORT looking around" }),
        child("c-aaa111", "t1", { type: "tool_start", call: grep }),
        child("c-aaa111", "t1", { type: "tool_end", call: grep, result: { toolCallId: "g1", toolName: "grep", content: "GREP-OUTPUT", isError: false }, durationMs: 3 }),
        child("c-aaa111", "t1", { type: "text_delta", text: report }),
        child("c-aaa111", "t1", { type: "message", message: assistant(report) }),
        ev({ type: "subagent_end", childId: "c-aaa111", parentToolCallId: "t1", profile: "scout", summary: { status: "ok", turns: 2, usage: usage(900, 80), durationMs: 2100 } }),
        ev(toolEnd(t1, `${report}\n\n[task] child session c-aaa111; 2 turns`)),
      ],
      started(),
    );
    const item = tool(s, "t1");
    expect(item.child!.entries).toEqual([]);
    const held = JSON.stringify(item);
    expect(held).not.toContain("STREAMED-NOT-REPORT");
    expect(held).not.toContain("GREP-OUTPUT");
    expect(held.split("REPORT-ONCE")).toHaveLength(2);
    expect(childReport(item.child!, item.result)).toBe(report);
    expect(itemText(item)).toContain(report);
    expect(itemCopyText(item)).toBe(report);
    expect(itemLines(item, 80, true).map((r) => stripAnsi(r))).toContainEqual(expect.stringContaining(report));
    expect(stripAnsi(itemLines(item, 80, false)[0]!)).toContain("— REPORT-ONCE");
  });

  it("a report the task result does not start with stays the child's own", () => {
    const s = run(
      [
        child("c-aaa111", "t1", { type: "message", message: assistant("partial words") }),
        ev({ type: "subagent_end", childId: "c-aaa111", parentToolCallId: "t1", profile: "scout", summary: { status: "crash", turns: 1, usage: usage(9, 8), durationMs: 21 } }),
        ev(toolEnd(t1, "[task] child failed after 1 turn: boom", true)),
      ],
      started(),
    );
    const item = tool(s, "t1");
    expect(item.child).toMatchObject({ report: "partial words" });
    expect(item.child!.reportChars).toBeUndefined();
    expect(childReport(item.child!, item.result)).toBe("partial words");
  });

  it("on abort every unfinished call is interrupted and every running child shows aborted", () => {
    const s = run([ev({ type: "agent_end", reason: "aborted", turns: 1, usage: emptyUsage() }, 4000), { type: "run_end", at: 4000 }], started());
    expect(s.live).toEqual([]);
    const c1 = tool(s, "t1");
    expect(c1).toMatchObject({ done: true, status: "error", result: "interrupted" });
    expect(c1.child).toMatchObject({ status: "aborted", durationMs: 3000 });
    expect(tool(s, "t2").child?.status).toBe("aborted");
    expect(s.finished[s.finished.length - 1]).toMatchObject({ kind: "info", tone: "warn" });
    expect(runningChildren(s)).toBe(0);
  });

  it("keeps the core's aborted/timeout status and reason when the child reports its own end", () => {
    const summary = { status: "timeout" as const, turns: 1, usage: emptyUsage(), durationMs: 5000, reason: "timed out after 5000 ms" };
    const s = run([ev({ type: "subagent_end", childId: "c-bbb222", parentToolCallId: "t2", summary })], started());
    expect(tool(s, "t2").child).toMatchObject({ status: "timeout", reason: "timed out after 5000 ms" });
  });
});
