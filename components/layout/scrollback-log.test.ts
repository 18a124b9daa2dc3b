/**
 * Inline, a streaming answer's rows go into the scrollback as they settle, once
 * (scrollback-log.ts): the commit rule (markdown-lines.ts settledRows: which rows are final), the
 * log that writes them (the answer whole, in order, once: streamed, stopped, resized), and the live
 * area that draws only what is not written yet.
 */
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "../state/transcript-types.js";
import { itemLines } from "./item-lines.js";
import { liveRows } from "./live-rows.js";
import { markdownLines, settledRows } from "./markdown-lines.js";
import { entryRows, ScrollbackLog } from "./scrollback-log.js";

const ANSWER = [
  "# The login code",
  "",
  "Paragraph one, long enough to wrap at forty columns and then some more words.",
  "",
  "",
  "- a bullet that wraps at forty columns and a little beyond that",
  "- a second bullet",
  "| name | value |",
  "|---|:-:|",
  "| a | 1 |",
  "| b | 2 |",
  "After the table, a paragraph.",
  "```ts",
  "const x = verify(request, 42);",
  "",
  "return redirect(x);",
  "```",
  "> a quote",
  "line with a | bar, not a table",
  "The end.",
].join("\n");

describe("settledRows: the rows of a streaming answer no more text can change", () => {
  it("settles a block once a complete line starts another; never the last block, an open fence, a table still growing, or a line a rule could make a table's header", () => {
    const rows = (text: string) => settledRows(text, 40).rows.join("\n");
    expect(rows("one paragraph, still streaming")).toBe("");
    expect(rows("one paragraph\n")).toBe(""); // complete, but nothing started after it
    expect(rows("one paragraph\nthe next")).toBe(""); // the next line is not complete yet
    expect(rows("one paragraph\nthe next\n")).toBe("one paragraph");
    expect(rows("| a | b |\n|--")).toBe(""); // the rule line may make it a table's header
    expect(rows("| a | b |\n|---|---|\n| 1 | 2 |\n")).toBe(""); // the table may get more rows
    expect(rows("| a | b |\n|---|---|\n| 1 | 2 |\nafter\n")).toContain("│ 1"); // a line without a bar ended it
    expect(rows("intro\n```ts\nconst a = 1;\nconst b = 2;\n")).toBe("intro"); // the open fence is not settled
    expect(settledRows("intro\n```ts\nconst a = 1;\n```\nafter\n", 40).rows).toHaveLength(2); // intro, and the closed code block's one row
    const blank = settledRows("one\n\n\nthree\n", 40);
    expect(blank).toEqual({ rows: ["one", " "], at: "one\n\n\n".length }); // the blank rows settle with the block before them; the rest starts on a block
  });

  it("at every prefix of an answer, the settled rows are the first rows the whole answer draws, and the rest drawn from `at` on follows them exactly", () => {
    for (const width of [24, 40, 80]) {
      const whole = markdownLines(ANSWER, width);
      for (let end = 0; end <= ANSWER.length; end++) {
        const text = ANSWER.slice(0, end);
        const s = settledRows(text, width);
        expect(whole.slice(0, s.rows.length), `${width}: ${JSON.stringify(text)}`).toEqual(s.rows);
        expect([...s.rows, ...markdownLines(text.slice(s.at), width)], `${width}: ${JSON.stringify(text)}`).toEqual(markdownLines(text, width));
      }
    }
  });
});

const assistant = (text: string, done = false): TranscriptItem => ({ kind: "assistant", id: "a1", done, text });
const user: TranscriptItem = { kind: "user", id: "u1", done: true, text: "explain" };

/** Streams ANSWER through a log in `step`-character pieces at `widthAt(i)`, then finishes it; the rows the log wrote, entry by entry, and the log's live `written` along the way. */
function stream(step: number, widthAt: (i: number) => number, stopAt = ANSWER.length) {
  const log = new ScrollbackLog();
  const rows: string[] = [];
  let seen = 0;
  const take = (entries: ReturnType<ScrollbackLog["update"]>["entries"], width: number) => {
    for (const e of entries.slice(seen)) rows.push(...entryRows(e, width));
    seen = entries.length;
  };
  let i = 0;
  for (let end = step; end < stopAt; end += step, i++) {
    const r = log.update([user], [assistant(ANSWER.slice(0, end))], widthAt(i), 0);
    take(r.entries, widthAt(i));
    // The live area draws only what is not written: its rows and the written ones make the answer.
    const live = liveRows([assistant(ANSWER.slice(0, end))], widthAt(i), 500, { now: 0, written: r.written }).blocks[0];
    if (live?.kind === "rows" && r.written) expect(live.rows).toEqual(markdownLines(ANSWER.slice(r.written.at, end), widthAt(i)));
  }
  const done = assistant(ANSWER.slice(0, stopAt), true);
  take(log.update([user, done], [], widthAt(i), 0).entries, widthAt(i));
  return { rows, done };
}

describe("ScrollbackLog: the streaming answer written into the scrollback once", () => {
  it("streamed in pieces then finished: the rows written are the finished answer's, each once, in order — as they would have been written at the end", () => {
    for (const step of [1, 7, 40]) {
      const { rows, done } = stream(step, () => 40);
      expect(rows).toEqual([...itemLines(user, 40), ...itemLines(done, 40)]);
    }
  });

  it("keeps no written rows once the answer finished (the entries stay, their rows are dropped)", () => {
    const log = new ScrollbackLog();
    const streaming = log.update([user], [assistant(ANSWER)], 40, 0).entries;
    const chunk = streaming.length - 1;
    expect("rows" in streaming[chunk]! && streaming[chunk]!.rows.length).toBeGreaterThan(0);
    const after = log.update([user, assistant(ANSWER, true)], [], 40, 0).entries;
    expect(after).toHaveLength(streaming.length + 1);
    expect(after[chunk]).toEqual({ key: streaming[chunk]!.key, rows: [] });
    expect(streaming[chunk]!).not.toEqual(after[chunk]); // the array <Static> was given before is not changed
  });

  it("stopped mid-answer: what streamed is written once", () => {
    const stopAt = ANSWER.indexOf("After the table");
    const { rows, done } = stream(5, () => 40, stopAt + 10);
    expect(rows).toEqual([...itemLines(user, 40), ...itemLines(done, 40)]);
  });

  it("resized mid-stream: rows written stay at the old width, the rest is drawn at the new one; no source line is lost or written twice", () => {
    const { rows } = stream(6, (i) => (i < 40 ? 60 : 30));
    const plain = rows.join("\n");
    for (const marker of ["The login code", "Paragraph one", "a second bullet", "After the table", "verify(request", "a quote", "The end."]) expect(plain.split(marker).length - 1, marker).toBe(1);
    expect(rows.some((r) => stringWidth(r) > 30)).toBe(true); // the rows written before the resize are at 60 columns
    expect(rows.slice(-3)).toEqual(markdownLines("> a quote\nline with a | bar, not a table\nThe end.", 30).slice(-3));
  });

  it("writes nothing while something unfinished comes before the answer, and starts over on a new epoch", () => {
    const log = new ScrollbackLog();
    const tool: TranscriptItem = { kind: "tool", id: "t1", done: false, name: "grep", args: {}, status: "running" };
    const text = ANSWER.slice(0, 200);
    expect(log.update([user], [tool, { ...assistant(text), id: "a2" }], 40, 0).entries).toHaveLength(1);
    const first = log.update([user], [assistant(text)], 40, 0);
    expect(first.entries.length).toBe(2);
    expect(first.written?.at).toBeGreaterThan(0);
    expect(log.update([user], [assistant(text)], 40, 0).entries).toBe(first.entries); // the same again: nothing new
    const fresh = log.update([user], [assistant(text)], 40, 1);
    expect(fresh.entries).not.toBe(first.entries);
    expect(fresh.entries.map((e) => e.key)).toEqual(first.entries.map((e) => e.key)); // written afresh, the answer from its start
  });
});
