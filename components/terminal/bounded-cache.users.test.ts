/**
 * The caches of frame-diff.ts and layout/measure.ts use the one policy (bounded-cache.js): a row
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
