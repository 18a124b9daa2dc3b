/**
 * The caches of frame-diff.ts, layout/measure.ts, layout/item-lines.ts and tree-rows.ts use the one policy (bounded-cache.js): a row
 * drawn every frame keeps its cached answer however many new rows pass through (frame-diff's used
 * to clear everything at 2,000; measure's dropped the oldest key even while it was in use).
 */
import { describe, expect, it } from "vitest";
import { cachedCells } from "./frame-diff.js";
import { wrapRows } from "../layout/measure.js";

describe("the project's caches keep the working set across turnovers", () => {
  it("frame-diff's cells of a row drawn every frame", () => {
    const row = "\u001b[36m⠋\u001b[39m general · a row drawn every frame";
    const first = cachedCells(row);
    expect(first).toBeDefined();
    for (let i = 0; i < 10_000; i++) {
      cachedCells(`\u001b[2m${i}s · ${i * 10} tok\u001b[22m`);
      if (i % 50 === 0) expect(cachedCells(row), `after ${i} new rows`).toBe(first);
    }
  });

  it("measure's wrapped rows of a text measured every frame", () => {
    const text = "a long line measured every frame, wrapped at twelve";
    const first = wrapRows(text, 12);
    for (let i = 0; i < 10_000; i++) {
      wrapRows(`child ${i} · ${i}s`, 12);
      if (i % 50 === 0) expect(wrapRows(text, 12), `after ${i} new texts`).toBe(first);
    }
  });
});

describe("tree-rows' tokenized lines are held compactly and bounded by what they hold", () => {
  it("holds a line of printable ASCII as one run, not a cell at a time", async () => {
    const { styledRuns, styledCells } = await import("./tree-rows.js");
    const line = `\u001b[2m${"a".repeat(100)}\u001b[22m and more`;
    expect(styledRuns(line)).toHaveLength(2);
    expect(styledCells(line)).toHaveLength(109); // expanded on demand, a cell each
  });

  it("holds at most twice its budget of runs however many distinct lines a long session draws", async () => {
    const { styledRuns, heldRuns, RUN_CACHE_BUDGET } = await import("./tree-rows.js");
    // lines of wide characters: one run per grapheme
    for (let i = 0; i < 5_000; i++) styledRuns(`│ ${i} ${"漢".repeat(50)} │`);
    expect(heldRuns()).toBeLessThanOrEqual(2 * RUN_CACHE_BUDGET + 200);
  });

  it("holds at most twice its budget of characters however many distinct lines of few runs pass", async () => {
    const { styledRuns, heldLines, RUN_CACHE_BUDGET } = await import("./tree-rows.js");
    // a long transcript's rows: plain text of ~165 characters, one run each
    const row = (i: number) => `${i} ${"the login flow checks the token ".repeat(5)}`;
    for (let i = 0; i < 5_000; i++) styledRuns(row(i));
    // bounded by characters: a few hundred such rows, not the 2 × 2,000 lines its entry bound allows
    expect(heldLines()).toBeLessThanOrEqual(Math.ceil((2 * RUN_CACHE_BUDGET) / row(0).length) + 2);
  });
});

describe("frame-diff's cells of rows are bounded by the characters they hold", () => {
  it("holds at most twice its budget of characters however many distinct wide rows pass", async () => {
    const { cachedCells, heldCellChars } = await import("./frame-diff.js");
    for (let i = 0; i < 5_000; i++) cachedCells(`\u001b[2m${String(i).padEnd(180, "x")}\u001b[22m`);
    expect(heldCellChars()).toBeLessThanOrEqual(2 * 100_000 + 200);
  });
});

describe("the Ink seam's wrapped texts are bounded by the characters they hold", () => {
  it("holds at most twice its budget of characters however many distinct long texts are wrapped", async () => {
    const { wrapForLayout, heldWrapChars } = await import("./ink-seam.js");
    // a streaming answer: every frame a longer text, each a new key of its whole length
    let answer = "";
    for (let i = 0; i < 3_000; i++) {
      answer += `word${i} `;
      wrapForLayout(answer.slice(-2_000), 80, "wrap");
    }
    expect(heldWrapChars()).toBeLessThanOrEqual(2 * 200_000 + 2 * 2_100);
  });

  it("keeps a text wrapped every frame across turnovers", async () => {
    const { wrapForLayout } = await import("./ink-seam.js");
    const text = "a status line wrapped every frame at twelve columns";
    const first = wrapForLayout(text, 12, "wrap");
    for (let i = 0; i < 5_000; i++) {
      wrapForLayout(`${"x".repeat(500)} ${i}`, 12, "wrap");
      if (i % 50 === 0) expect(wrapForLayout(text, 12, "wrap"), `after ${i} new texts`).toBe(first);
    }
  });
});

describe("frame-diff's answers for single characters are the one bounded cache too", () => {
  it("holds at most two generations of characters however many distinct ones pass", async () => {
    const { cachedCells, heldNarrowChecks } = await import("./frame-diff.js");
    // each row a new CJK character (U+4E00 on): a Map that keeps everything would hold 5,000
    for (let i = 0; i < 5_000; i++) cachedCells(`row ${String.fromCharCode(0x4e00 + i)}`);
    expect(heldNarrowChecks()).toBeLessThanOrEqual(2 * 1000);
  });
});

describe("measure's wrapped rows are bounded by the characters they hold", () => {
  it("holds at most twice its budget of characters however many distinct long texts are measured", async () => {
    const { wrapRows, heldWrappedChars } = await import("../layout/measure.js");
    for (let i = 0; i < 500; i++) wrapRows(`answer ${i} `.padEnd(2_000, "y"), 80);
    // texts and rows: about 4,000 characters an entry, 2,000,000 kept by a cache that counts entries only
    expect(heldWrappedChars()).toBeLessThanOrEqual(2 * 200_000 + 4_100);
  });
});

describe("item-lines' rows of items are bounded by the characters they hold", () => {
  it("holds a few hundred long items' rows, not the 2 × 1,000 entries its count bound allows", async () => {
    const { itemLines, heldItemRows, ITEM_ROWS_BUDGET } = await import("../layout/item-lines.js");
    // a long session's answers, each ~2,000 characters of rows, each drawn once
    const text = "the login flow checks the token and then the session. ".repeat(36);
    for (let i = 0; i < 3_000; i++) itemLines({ kind: "assistant", id: `a${i}`, done: true, text: `${i} ${text}` } as never, 80);
    expect(heldItemRows()).toBeLessThanOrEqual(2 * Math.ceil(ITEM_ROWS_BUDGET / 1_900) + 2);
  });
});
