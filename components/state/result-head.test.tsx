import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AgentMessage, type ToolCall } from "../../src/protocol/messages.js";
import { initialStreamState, reduceAll, type StreamAction } from "./agent-stream-reducer.js";
import { historyItems } from "./history-items.js";
import { RESULT_HEAD, RESULT_LINE_CAP, resultHead } from "./result-head.js";
import type { StreamState, ToolItem } from "./transcript-types.js";

const FILE = "/home/x/.ink/sessions/s1.jsonl";
const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCall => ({ type: "toolCall", id, name, arguments: args });
const toolEnd = (c: ToolCall, content: string): AgentEvent => ({ type: "tool_end", call: c, result: { toolCallId: c.id, toolName: c.name, content, isError: false }, durationMs: 5 });
const ev = (event: AgentEvent, savedTo?: string): StreamAction => ({ type: "event", event, at: 0, ...(savedTo ? { savedTo } : {}) });
const saved = (ids: string[]): AgentEvent => ({ type: "message", message: { role: "toolResult", results: ids.map((id) => ({ toolCallId: id, toolName: "bash", content: "…", isError: false })) } });
const tool = (s: StreamState, id: string) => [...s.finished, ...s.live].find((i): i is ToolItem => i.kind === "tool" && i.id === id)!;
const long = Array.from({ length: 400 }, (_, i) => `row ${i + 1} ${"x".repeat(i === 0 ? 500 : 10)}`).join("\n");

describe("reduceStream: a long tool result saved in the session file", () => {
  it("keeps only the head (capped lines), the line count and where it is saved; the whole text is held until its message is written", () => {
    const c = call("t1", "bash", { command: "seq 400" });
    const s = reduceAll(initialStreamState(), [{ type: "run_start", text: "go", at: 0 }, ev({ type: "tool_start", call: c }, FILE), ev(toolEnd(c, long), FILE)]);
    const item = tool(s, "t1");
    expect(item.result).toBeUndefined();
    expect(item.resultHead).toHaveLength(RESULT_HEAD);
    expect(item.resultHead![0]!.length).toBeLessThanOrEqual(RESULT_LINE_CAP);
    expect(item.resultHead![1]).toBe(`row 2 ${"x".repeat(10)}`);
    expect(item.resultLines).toBe(400);
    expect(item.saved).toEqual({ file: FILE, callId: "t1" });
    expect(s.heldResults).toEqual({ t1: long });
    // Once the turn's result message is in the file, the UI holds none of the text.
    const after = reduceAll(s, [ev(saved(["t1"]), FILE), ev({ type: "agent_end", reason: "done", turns: 1, usage: emptyUsage() }), { type: "run_end", at: 1 }]);
    expect(after.heldResults).toEqual({});
    expect(tool(after, "t1")).toMatchObject({ status: "ok", resultLines: 400 });
    expect(tool(after, "t1").result).toBeUndefined();
    expect(JSON.stringify(after).length).toBeLessThan(long.length / 4);
  });

  it("keeps the text in memory when its message could not be written (no savedTo on it)", () => {
    const c = call("t1", "bash");
    const s = reduceAll(initialStreamState(), [ev(toolEnd(c, long), FILE), ev(saved(["t1"]))]);
    expect(s.heldResults).toEqual({ t1: long });
  });

  it("keeps the whole result when it is short, when it is a task report, or when nothing saves it", () => {
    const short = call("s", "read");
    const task = call("k", "task", { prompt: "look" });
    const unsaved = call("u", "bash");
    const s = reduceAll(initialStreamState(), [ev(toolEnd(short, "a\nb\nc\nd"), FILE), ev(toolEnd(task, long), FILE), ev(toolEnd(unsaved, long))]);
    expect(tool(s, "s")).toMatchObject({ result: "a\nb\nc\nd" });
    expect(tool(s, "k").result).toBe(long);
    expect(tool(s, "u").result).toBe(long);
    for (const id of ["s", "k", "u"]) expect(tool(s, id).resultHead).toBeUndefined();
    expect(s.heldResults ?? {}).toEqual({});
  });

  it("an interrupted run does not replace a kept head with 'interrupted'", () => {
    const c = call("t1", "bash");
    const s = reduceAll(initialStreamState(), [{ type: "run_start", text: "go", at: 0 }, ev(toolEnd(c, long), FILE), { type: "run_end", error: "boom", at: 1 }]);
    expect(tool(s, "t1").result).toBeUndefined();
    expect(tool(s, "t1").resultHead).toHaveLength(RESULT_HEAD);
  });
});

describe("historyItems: long saved results of a resumed session", () => {
  const messages: AgentMessage[] = [
    { role: "user", content: "go" },
    { role: "assistant", content: [call("a", "bash", { command: "seq 400" }), call("b", "read", { path: "x" })], stopReason: "tool_use", usage: emptyUsage() },
    { role: "toolResult", results: [{ toolCallId: "a", toolName: "bash", content: long, isError: false }, { toolCallId: "b", toolName: "read", content: "tiny", isError: false }] },
  ];

  it("keep only their head and where to read them when the session file is named", () => {
    const items = historyItems(messages, [], FILE).filter((i): i is ToolItem => i.kind === "tool");
    expect(items[0]).toMatchObject({ resultLines: 400, saved: { file: FILE, callId: "a" } });
    expect(items[0]!.result).toBeUndefined();
    expect(items[0]!.resultHead).toHaveLength(RESULT_HEAD);
    expect(items[1]).toMatchObject({ result: "tiny" });
  });

  it("stay whole without a file", () => {
    const items = historyItems(messages).filter((i): i is ToolItem => i.kind === "tool");
    expect(items[0]!.result).toBe(long);
  });
});

describe("resultHead", () => {
  it("copies its lines out of the result: the kept heads do not keep the whole results in memory", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const heads: unknown[] = [];
    for (let k = 0; k < 40; k++) {
      // 1 MB per result, every line long enough for V8 to slice it out of the whole string.
      const content = Array.from({ length: 10_000 }, (_, i) => `${k}:${i} ${"y".repeat(95)}`).join("\n");
      heads.push(resultHead(content));
    }
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
    expect(heads).toHaveLength(40);
    expect(grownMb).toBeLessThan(8); // 40 MB of results were read; only 120 short lines stay
  });
});
