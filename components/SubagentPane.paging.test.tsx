import { describe, expect, it } from "vitest";
import { reduceChild, startChild } from "./hooks/child-reducer.js";
import type { ChildView } from "./hooks/transcript-types.js";
import { pageStart, paneTail } from "./SubagentPane.js";

const texts = (child: ChildView, n: number, width: number) => paneTail(child, n, width).map((l) => (l.kind === "text" ? l.text : `tool:${l.tool.name}`));

/** A child that streamed `rows` short lines (one row each at 40 columns), one delta a line. */
function streamed(rows: number): ChildView[] {
  let c = startChild({ childId: "20261202-142301-ab12cd", profile: "scout", prompt: "p", resumed: false, at: 0 });
  c = reduceChild(c, { type: "turn_start", turn: 1 });
  const states: ChildView[] = [];
  for (let i = 0; i < rows; i++) {
    c = reduceChild(c, { type: "text_delta", text: `row ${i}\n` });
    states.push(c);
  }
  return states;
}

describe("pane body paging", () => {
  it("pageStart: 0 while the rows fit, then steps of n − 1 that always include the newest row", () => {
    expect([1, 4, 5, 7, 8, 10, 11].map((t) => pageStart(t, 4))).toEqual([0, 0, 3, 3, 6, 6, 9]);
    for (let t = 1; t < 50; t++) {
      const s = pageStart(t, 4);
      expect(t - 1 - s).toBeLessThan(4);
      expect(s % 3).toBe(0);
    }
    expect(pageStart(9, 1)).toBe(8);
  });

  it("a full body pages: the newest row moves to the top, the rest fill in below it, the height stays", () => {
    const states = streamed(6);
    expect(texts(states[3]!, 4, 40)).toEqual(["row 0", "row 1", "row 2", "row 3"]);
    expect(texts(states[4]!, 4, 40)).toEqual(["row 3", "row 4", " ", " "]);
    expect(texts(states[5]!, 4, 40)).toEqual(["row 3", "row 4", "row 5", " "]);
  });

  it("a streamed row rewrites about one pane row, not the whole body (bytes follow the text)", () => {
    const n = 4;
    const states = streamed(40);
    let rewritten = 0;
    for (let i = 1; i < states.length; i++) {
      const before = texts(states[i - 1]!, n, 40);
      const after = texts(states[i]!, n, 40);
      for (let r = 0; r < n; r++) if ((before[r] ?? "") !== (after[r] ?? "")) rewritten++;
    }
    // Scrolling by one row would rewrite all n rows for each of the ~36 rows after the first page (≈ 150).
    expect(rewritten).toBeLessThanOrEqual(40 * 2);
  });

  it("a tool call counts as one row of the page", () => {
    let c = streamed(3).at(-1)!;
    c = reduceChild(c, { type: "tool_start", call: { type: "toolCall", id: "g", name: "grep", arguments: { pattern: "x" } } });
    c = reduceChild(c, { type: "turn_start", turn: 2 });
    c = reduceChild(c, { type: "text_delta", text: "after\n" });
    expect(texts(c, 4, 40)).toEqual(["tool:grep", "after", " ", " "]);
  });
});
