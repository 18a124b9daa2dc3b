import { describe, expect, it } from "vitest";
import { parsedAnswers, partBlocks, partRows, PARSES_KEPT, type PartedItem } from "./item-parts.js";

const answer = (i: number): PartedItem => ({ kind: "assistant", id: `a${i}`, done: true, text: `# Answer ${i}\n\nA paragraph of answer ${i}.\n\n- one\n- two\n\n\`\`\`ts\nconst x = ${i};\n\`\`\`\n` });

describe("partBlocks", () => {
  it("keeps the parses of the latest answers only, however many a session finishes", () => {
    const items = Array.from({ length: 10 * PARSES_KEPT }, (_, i) => answer(i));
    for (const item of items) {
      partBlocks(item);
      partRows(item, 80);
    }
    expect(parsedAnswers()).toBeLessThanOrEqual(PARSES_KEPT);
  });

  it("gives the kept parse while an answer is in use, and an equal one after it was dropped", () => {
    const first = answer(-1);
    const blocks = partBlocks(first);
    const rows = [...partRows(first, 80)];
    expect(partBlocks(first)).toBe(blocks);
    for (let i = 0; i < 2 * PARSES_KEPT; i++) partBlocks(answer(1000 + i));
    const again = partBlocks(first);
    expect(again).not.toBe(blocks); // parsed again
    expect(again).toEqual(blocks);
    expect(partRows(first, 80)).toEqual(rows); // heights are kept apart from the parse
  });

  it("an answer drawn every frame stays parsed while others come and go", () => {
    const shown = answer(-2);
    const blocks = partBlocks(shown);
    for (let i = 0; i < 5 * PARSES_KEPT; i++) {
      partBlocks(answer(2000 + i));
      expect(partBlocks(shown)).toBe(blocks);
    }
  });
});
