import { vi, afterEach, describe, expect, it } from "vitest";
// Colours are only written when the terminal supports them; force them before ink loads.
vi.hoisted(() => {
  process.env.FORCE_COLOR = "1";
});
import { cleanup, render } from "ink-testing-library";
import { PassThrough } from "node:stream";
import { renderOwned } from "../testing/owned-render.js";
import { XtermScreen } from "../testing/xterm-screen.js";
import { initialStreamState, reduceStream } from "../state/agent-stream-reducer.js";
import { startChild } from "../state/child-reducer.js";
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

describe("a profile's color: on the terminal, through the renderer (frame owner, frame diff, SGR compaction)", () => {
  const isInCi = ["CI", "CONTINUOUS_INTEGRATION"].some((k) => k in process.env && process.env[k] !== "0" && process.env[k] !== "false");
  it.skipIf(isInCi)("the cells of the profile name and the border are magenta, the prompt's are not, after a redraw too", async () => {
    const writes: string[] = [];
    const tty = Object.assign(new PassThrough(), { rows: 12, columns: 60, isTTY: true }) as unknown as NodeJS.WriteStream;
    tty.write = ((chunk: string) => writes.push(chunk) > 0) as NodeJS.WriteStream["write"];
    const screen = new XtermScreen(60, 12);
    const child = startChild({ childId: "20261202-142301-ab12cd", profile: "reviewer", color: "magenta", prompt: "review the diff", resumed: false, at: 0 });
    const app = renderOwned(<SubagentPane child={child} now={1000} width={60} lines={2} />, tty);
    const settle = () => new Promise((r) => setTimeout(r, 80));
    try {
      await settle();
      app.rerender(<SubagentPane child={child} now={2000} width={60} lines={2} />);
      await settle();
      await screen.write(writes.join(""));
      const name = screen.find("reviewer")!;
      expect(name, screen.rows().join("\n")).toBeDefined();
      for (let i = 0; i < "reviewer".length; i++) expect(screen.cell(name.row, name.col + i).fg).toEqual({ mode: "palette", index: 5 });
      const corner = screen.find("╭")!;
      expect(screen.cell(corner.row, corner.col).fg).toEqual({ mode: "palette", index: 5 });
      const prompt = screen.find("review the diff")!;
      expect(prompt).toBeDefined();
      expect(screen.cell(prompt.row, prompt.col).fg).not.toEqual({ mode: "palette", index: 5 });
    } finally {
      app.unmount();
      screen.dispose();
    }
  });
});
