import { describe, expect, it } from "vitest";
import type { ToolItem, TranscriptItem } from "./transcript-types.js";
import { latestToolItems, toolOutputView, wholeResultText, type ResultReader } from "./tool-output.js";

const tool = (id: string, extra: Partial<ToolItem> = {}): ToolItem => ({ kind: "tool", id, done: true, name: "bash", args: { command: id }, status: "ok", result: `out ${id}`, ...extra });
const headOnly = (id: string, file = "/s.jsonl"): ToolItem => tool(id, { result: undefined, resultHead: ["h1", "h2", "h3"], resultLines: 50, saved: { file, callId: id } });
/** The lines as one string, wrapping undone (rows joined by a space). */
const text = (lines: { text: string }[]) => lines.map((l) => l.text.trim()).join(" ").replace(/\s+/g, " ");

describe("latestToolItems", () => {
  it("takes the last run of tool calls: a text or prompt before it ends the run", () => {
    const items: TranscriptItem[] = [
      { kind: "user", id: "u1", done: true, text: "q" },
      tool("old"),
      { kind: "assistant", id: "a1", done: true, text: "then" },
      tool("a"),
      { kind: "info", id: "n", done: true, text: "warning", tone: "warn" },
      tool("b"),
      { kind: "assistant", id: "a2", done: true, text: "answer" },
    ];
    expect(latestToolItems(items).map((i) => i.id)).toEqual(["a", "b"]);
    expect(latestToolItems([{ kind: "user", id: "u", done: true, text: "q" }])).toEqual([]);
  });
});

describe("toolOutputView", () => {
  it("reads head-only results from their file once per file; held ones come from memory; kept ones as they are", () => {
    const asked: Array<[string, readonly string[]]> = [];
    const read: ResultReader = (file, ids) => {
      asked.push([file, ids]);
      return { results: new Map(ids.map((id) => [id, { toolCallId: id, toolName: "bash", content: `WHOLE ${id}`, isError: false }])) };
    };
    const view = toolOutputView([headOnly("x"), headOnly("y"), headOnly("z"), tool("k")], { z: "HELD z" }, 80, { read });
    expect(asked).toEqual([["/s.jsonl", ["x", "y"]]]);
    const all = text(view.lines);
    for (const s of ["WHOLE x", "WHOLE y", "HELD z", "not in the session file yet", "out k"]) expect(all).toContain(s);
    expect(view.title).toBe("whole output of the latest 4 tool calls");
  });

  it("says why a result is not available (file missing, entry absent, saving failed) and shows the kept head", () => {
    const read: ResultReader = (file) => (file === "/gone" ? { results: new Map(), problem: "the session file /gone does not exist (any more)" } : { results: new Map() });
    const all = text(toolOutputView([headOnly("a", "/gone"), headOnly("b")], {}, 100, { read, unsaved: true }).lines);
    expect(all).toContain("not available: the session file /gone does not exist");
    expect(all).toContain("the session file /s.jsonl does not hold this result (saving the session failed)");
    expect(all).toContain("h1");
    expect(all).toContain("47 more lines");
    expect(text(toolOutputView([], {}, 80).lines)).toContain("No tool call has finished");
  });

  it("copies the whole text of a head-only item (its head when the file lacks it)", () => {
    const read: ResultReader = (_f, ids) => ({ results: new Map(ids.map((id) => [id, { toolCallId: id, toolName: "bash", content: "ALL", isError: false }])) });
    expect(wholeResultText(headOnly("a"), read)).toBe("ALL");
    expect(wholeResultText(headOnly("a"), () => ({ results: new Map() }))).toBe("h1\nh2\nh3");
    expect(wholeResultText(tool("k"))).toBe("out k");
  });
});
