/** The virtual transcript's height records: one per item, width and details state, a few widths kept. */
import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "../state/transcript-types.js";
import { itemRows } from "./item-rows.js";
import { anchorAt, finishedRows, recordRows, rowsBefore } from "./virtual-window.js";

describe("finishedRows / recordRows", () => {
  it("answers each width and details key from its own record, and keeps the latest few widths", async () => {
    const item: TranscriptItem = { kind: "info", id: "i1", done: true, tone: "dim", text: "a line of text that wraps at narrow widths" };
    expect(finishedRows(item, 80)).toBe(1);
    expect(recordRows(item, 80, 3)).toBe(true);
    expect(recordRows(item, 80, 3)).toBe(false);
    expect(recordRows(item, 80, 5, true)).toBe(true); // details open: another key
    expect(finishedRows(item, 80)).toBe(3);
    expect(finishedRows(item, 80, true)).toBe(5);
    expect(finishedRows(item, 10)).toBe(itemRows(item, 10)); // not measured at 10: the estimate
    for (const w of [11, 12, 13, 14]) finishedRows(item, w);
    expect(finishedRows(item, 80)).toBe(1); // 80's measurement was the oldest and is gone: estimated again
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
  it("a finished child's summary counts its report when details are open, and each state keeps its own record", () => {
    const report = Array.from({ length: 12 }, (_, i) => `report line ${i}`).join("\n");
    const item = { kind: "tool", id: "t1", done: true, name: "task", args: {}, status: "ok", child: { status: "ok", report } } as unknown as TranscriptItem;
    expect(finishedRows(item, 80)).toBe(1);
    expect(finishedRows(item, 80, true)).toBe(13);
    recordRows(item, 80, 14, true);
    expect(finishedRows(item, 80, true)).toBe(14);
    expect(finishedRows(item, 80)).toBe(1);
  });
});
