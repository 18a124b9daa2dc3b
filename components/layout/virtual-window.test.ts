/** The virtual transcript's height records: one per item, width and details state, a few widths kept. */
import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "../hooks/transcript-types.js";
import { itemRows } from "./item-rows.js";
import { finishedRows, recordRows } from "./virtual-window.js";

describe("finishedRows / recordRows", () => {
  it("answers each width and details key from its own record, and keeps the latest few widths", async () => {
    const item: TranscriptItem = { kind: "info", id: "i1", done: true, tone: "dim", text: "a line of text that wraps at narrow widths" };
    expect(finishedRows(item, 80)).toBe(1);
    expect(recordRows(item, 80, 3)).toBe(true);
    expect(recordRows(item, 80, 3)).toBe(false);
    expect(recordRows(item, 80, 5, 1_000_080)).toBe(true); // details open: another key
    expect(finishedRows(item, 80)).toBe(3);
    expect(finishedRows(item, 80, 1_000_080)).toBe(5);
    expect(finishedRows(item, 10)).toBe(itemRows(item, 10)); // not measured at 10: the estimate
    for (const w of [11, 12, 13, 14]) finishedRows(item, w);
    expect(finishedRows(item, 80)).toBe(1); // 80's measurement was the oldest and is gone: estimated again
  });
});
