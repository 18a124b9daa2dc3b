/** The virtual transcript's heights: the rows each item draws, per width and details state. */
import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "../state/transcript-types.js";
import { itemLines } from "./item-lines.js";
import { anchorAt, finishedRows, rowsBefore } from "./virtual-window.js";

describe("finishedRows", () => {
  it("is the number of rows the item draws, per width and details state", () => {
    const item: TranscriptItem = { kind: "info", id: "i1", done: true, tone: "dim", text: "a line of text that wraps at narrow widths" };
    expect(finishedRows(item, 80)).toBe(1);
    expect(finishedRows(item, 10)).toBe(itemLines(item, 10).length);
    expect(finishedRows(item, 10)).toBe(5);
    for (const w of [11, 12, 13, 14, 80]) expect(finishedRows(item, w)).toBe(itemLines(item, w).length);
  });
});

describe("rowsBefore / anchorAt", () => {
  const heights = [4, 1, 10, 3];
  const heightOf = (i: number) => heights[i]!;
  it("name a row by its item and back", () => {
    expect(anchorAt(4, heightOf, 0)).toEqual({ item: 0, row: 0 });
    expect(anchorAt(4, heightOf, 4)).toEqual({ item: 1, row: 0 });
    expect(anchorAt(4, heightOf, 9)).toEqual({ item: 2, row: 4 });
    expect(anchorAt(4, heightOf, 99)).toEqual({ item: 3, row: 2 }); // past the end: the last row
    for (let top = 0; top < 18; top++) expect(rowsBefore(heightOf, anchorAt(4, heightOf, top))).toBe(top);
  });
});

describe("heights with details open", () => {
  it("a finished child's summary counts its report when details are open", () => {
    const report = Array.from({ length: 12 }, (_, i) => `report line ${i}`).join("\n");
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
    const child = { childId: "c1", prompt: "p", status: "ok", startedAt: 0, turns: 1, usage, report, entries: [], dropped: 0, thinking: false };
    const item = { kind: "tool", id: "t1", done: true, name: "task", args: {}, status: "ok", child } as unknown as TranscriptItem;
    expect(finishedRows(item, 80)).toBe(1);
    expect(finishedRows(item, 80, true)).toBe(13);
    expect(finishedRows(item, 80)).toBe(1);
  });
});
