/** BudgetQuestion at a narrow terminal: every key and the spend stay on screen, and the rows the layout reserves are the rows it draws. */
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { BudgetQuestion, budgetQuestionRows } from "./BudgetQuestion.js";
import type { BudgetRequest } from "./hooks/budget-broker.js";

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

  it("with fewer rows than wrapping needs (a short terminal), it keeps to one row a line, cut at the end", () => {
    const app = render(<BudgetQuestion request={request} onAnswer={() => {}} width={60} maxRows={4} />);
    const lines = app.lastFrame()!.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain("[1] +50%");
    app.unmount();
  });
});
