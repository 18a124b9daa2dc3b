import { vi, afterEach, describe, expect, it } from "vitest";
// Colours are only written when the terminal supports them; force them before ink loads.
vi.hoisted(() => {
  process.env.FORCE_COLOR = "1";
});
import { cleanup, render } from "ink-testing-library";
import { initialStreamState, reduceStream } from "./hooks/agent-stream-reducer.js";
import { startChild } from "./hooks/child-reducer.js";
import { ChildRow } from "./ChildRow.js";
import { SubagentPane } from "./SubagentPane.js";

afterEach(() => cleanup());

const MAGENTA = "\u001b[35m";
/** `text` drawn in magenta (bold may come first or second). */
const magenta = (text: string) => new RegExp(`(\u001b\\[35m(\u001b\\[1m)?|\u001b\\[1m\u001b\\[35m)${text.replace(/[[\]]/g, "\\$&")}`);

describe("a profile's color: in the UI", () => {
  it("colours the pane's profile name and its border while it runs; without one neither is coloured", () => {
    const child = startChild({ childId: "20261202-142301-ab12cd", profile: "reviewer", color: "magenta", prompt: "review", resumed: false, at: 0 });
    const frame = render(<SubagentPane child={child} now={1000} width={60} lines={2} />).lastFrame()!;
    expect(frame).toMatch(magenta("reviewer"));
    expect(frame.split("\n")[0]).toContain(`${MAGENTA}╭`);
    const plain = render(<SubagentPane child={{ ...child, color: undefined }} now={1000} width={60} lines={2} />).lastFrame()!;
    expect(plain).not.toContain(MAGENTA);
  });

  it("colours the compact row's name, and the stream reducer carries the colour from subagent_start", () => {
    const state = reduceStream(initialStreamState(), { type: "event", at: 0, event: { type: "subagent_start", childId: "c1", parentToolCallId: "t1", profile: "reviewer", color: "magenta", prompt: "p", resumed: false } });
    const item = [...state.finished, ...state.live].find((i) => i.kind === "tool" && i.child) as { child: Parameters<typeof ChildRow>[0]["child"] } | undefined;
    const child = item!.child;
    expect(child.color).toBe("magenta");
    expect(render(<ChildRow child={child} now={0} width={80} />).lastFrame()!).toMatch(magenta("reviewer · p ["));
  });
});
