/** BudgetQuestion at a narrow terminal: every key and the spend stay on screen, and the rows the layout reserves are the rows it draws. */
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { BudgetQuestion, budgetQuestionRows, presetTexts } from "./BudgetQuestion.js";
import type { BudgetRequest } from "../state/budget-broker.js";

const request: BudgetRequest = {
  id: 1,
  scope: "tree",
  agent: { id: "4bb28f", label: "general", description: "tests of sessions", depth: 1 },
  reached: { kind: "tokens", limit: 30_000, spent: 45_400, text: "budget of 30k tokens" },
  turns: 3,
};

describe("BudgetQuestion", () => {
  for (const width of [80, 60, 120]) {
    it(`at ${width} columns shows [s] stop and the spend whole, in the rows budgetQuestionRows reserves`, () => {
      const app = render(<BudgetQuestion request={request} onAnswer={() => {}} width={width} />);
      const frame = app.lastFrame()!;
      const flat = frame.replace(/[│╭╮╰╯─]/g, "").replace(/\s+/g, " ");
      expect(flat).toContain("[s] stop");
      expect(flat).toContain("(spent 45.4k tokens, 3 turns)");
      expect(frame.split("\n").length).toBe(budgetQuestionRows(request, width));
      app.unmount();
    });
  }

  it("at 80 columns hangs each wrapped line's continuation under its text and never splits a choice ([s] stop whole)", () => {
    const app = render(<BudgetQuestion request={request} onAnswer={() => {}} width={80} />);
    const rows = app.lastFrame()!.split("\n").slice(1, -1).map((r) => r.replace(/^│ /, "").replace(/ *│$/, ""));
    app.unmount();
    expect(rows.length).toBeGreaterThan(2);
    const starts = rows.filter((r) => !r.startsWith(" ")).map((r) => r.slice(0, 4));
    expect(starts).toEqual(["The ", "[1] "]); // only each line's first row starts at the box's edge
    for (const r of rows.filter((r) => r.startsWith(" "))) expect(r).toMatch(/^ {4}\S/);
    expect(rows.some((r) => r.includes("[s] stop"))).toBe(true);
  });

  it("with fewer rows than wrapping needs (a short terminal), it keeps to one row a line, cut at the end", () => {
    const app = render(<BudgetQuestion request={request} onAnswer={() => {}} width={60} maxRows={4} />);
    const lines = app.lastFrame()!.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain("[1] +50%");
    app.unmount();
  });

  it("prints the two dollar choices with the decimals they need to differ", () => {
    expect(presetTexts("cost", 0.00025)).toEqual({ half: "$0.0001", double: "$0.0003" }); // four decimals differ already
    expect(presetTexts("cost", 0.0002)).toEqual({ half: "$0.0001", double: "$0.0002" });
    expect(presetTexts("cost", 0.00015)).toEqual({ half: "$0.00007", double: "$0.00015" }); // was +$0.0001 twice
    expect(presetTexts("cost", 2)).toEqual({ half: "$1.00", double: "$2.00" });
    expect(presetTexts("tokens", 30_000)).toEqual({ half: "15k tokens", double: "30k tokens" });
    const cheap = render(<BudgetQuestion request={{ ...request, reached: { kind: "cost", limit: 0.00015, spent: 0.00016, text: "budget of $0.0002" } }} onAnswer={() => {}} width={120} />);
    expect(cheap.lastFrame()).toContain("[1] +50% (+$0.00007) / [2] 2× (+$0.00015)");
    cheap.unmount();
  });
});
