/** The overlap line of issue #25 item 4: a child whose file another agent changed (or that was refused one) shows it on its pane. */
import { cleanup, render } from "ink-testing-library";
import { afterEach, expect, it } from "vitest";
import { reduceChild, startChild } from "./state/child-reducer.js";
import { SubagentPane } from "./views/SubagentPane.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

it("both children's panes show the overlap: the refused one and the one holding the file", () => {
  const start = (childId: string, description: string) =>
    reduceChild(reduceChild(startChild({ childId, description, prompt: "p", resumed: false, at: 1000 }), { type: "turn_start", turn: 1 }), { type: "text_delta", text: "working on it" });
  const refused = reduceChild(start("20261202-142301-bb0002", "tidy login"), { type: "edit_overlap", path: "src/a.ts", other: "general · fix login [20261202-142301-aa0001]", refused: true });
  const holder = reduceChild(start("20261202-142301-aa0001", "fix login"), { type: "edit_overlap", path: "src/a.ts", other: "general · tidy login [20261202-142301-bb0002]", refused: false });
  const frame = (child: typeof refused) => stripAnsi(render(<SubagentPane child={child} now={2000} width={140} lines={4} />).lastFrame()!);
  expect(frame(refused)).toContain("⚠ overlap: src/a.ts is being changed by general · fix login [20261202-142301-aa0001]; not changed here");
  expect(frame(refused)).toContain("working on it");
  expect(frame(holder)).toContain("⚠ overlap: general · tidy login [20261202-142301-bb0002] also tried to change src/a.ts, which this child changed");
});
