/**
 * A child's row and pane fit their parts (fitRow, which measures each part's width) only when
 * something they show changed: a frame that renders them again with the same figures, or the same
 * child tick, does not fit them again. Counted by calls, not time.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as fitRowModule from "../layout/fit-row.js";
import { CHILD_TICK_MS } from "../state/child-status.js";
import { reduceChild, startChild } from "../state/child-reducer.js";
import type { ChildView } from "../state/transcript-types.js";
import { ChildRow } from "./ChildRow.js";
import { SubagentPane } from "./SubagentPane.js";

vi.mock("../layout/fit-row.js", async (importOriginal) => {
  const real = await importOriginal<typeof fitRowModule>();
  return { ...real, fitRow: vi.fn(real.fitRow) };
});
const fitRow = vi.mocked(fitRowModule.fitRow);

afterEach(() => cleanup());

const AT = 1_000_000;
const child = (): ChildView =>
  reduceChild(reduceChild(startChild({ childId: "20261204-120000-abcd10", profile: "scout", prompt: "look at part one of the code", resumed: false, at: AT }), { type: "turn_start", turn: 1 }, AT), { type: "text_delta", text: "reading the login handler\nand its tests" }, AT);

describe("fitting a child's row and pane", () => {
  for (const [name, view] of [
    ["ChildRow", (c: ChildView, now: number, focused = false) => <ChildRow child={c} now={now} width={80} focused={focused} />],
    ["SubagentPane", (c: ChildView, now: number, focused = false) => <SubagentPane child={c} now={now} width={60} focused={focused} />],
  ] as const) {
    it(`${name}: not again for a render with the same figures (same child, same tick), again when what it shows changed`, () => {
      const c = child();
      const app = render(view(c, AT + 10));
      expect(fitRow).toHaveBeenCalled();
      fitRow.mockClear();
      // The parent renders again: a later clock within the same child tick, and a copy of the same child.
      app.rerender(view(c, AT + 20));
      app.rerender(view({ ...c }, AT + 30));
      expect(fitRow).not.toHaveBeenCalled();
      // The tick passes: the spinner and elapsed time change, so the parts are fitted again.
      app.rerender(view(c, AT + 10 + 2 * CHILD_TICK_MS));
      expect(fitRow).toHaveBeenCalled();
      expect(app.lastFrame()).toContain("scout");
    });
  }
});
