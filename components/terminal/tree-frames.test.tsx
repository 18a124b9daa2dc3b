import { afterEach, describe, expect, it, vi } from "vitest";
import { Box, Text, type DOMElement } from "ink";
import { cleanup, render } from "ink-testing-library";
import { createRef } from "react";
import { ScreenEmulator } from "../testing/screen-emulator.js";
import { FrameClock } from "./frame-phases.js";
import { cut, InlineFrameWriter, TreeFrameWriter } from "./tree-frames.js";
import { treeRows, type CellRow } from "./tree-rows.js";

afterEach(() => cleanup());

function View({ lines, spinner, ref }: { lines: string[]; spinner: string; ref: React.RefObject<DOMElement | null> }) {
  return (
    <Box ref={ref} flexDirection="column" width={40}>
      <Box borderStyle="round" flexDirection="column" height={6} overflow="hidden" justifyContent="flex-end">
        {lines.map((l, i) => (
          <Text key={i}>{l}</Text>
        ))}
      </Box>
      <Text>
        {spinner} working 漢字 <Text color="green">ok</Text>
      </Text>
    </Box>
  );
}

const rootOf = (ref: React.RefObject<DOMElement | null>) => {
  let root = ref.current!;
  while (root.parentNode) root = root.parentNode;
  return root;
};

describe("TreeFrameWriter: rows from the tree straight to the terminal, only the changes after the first", () => {
  it("shows each frame exactly as Ink lays it out, writing far fewer bytes than the whole frame after the first", () => {
    const screen = new ScreenEmulator(40, 12);
    let bytes = "";
    const writer = new TreeFrameWriter((b) => {
      bytes = b;
      screen.write(b);
    }, true);
    const ref = createRef<DOMElement>();
    const lines = ["line 1", "line 2", "line 3"];
    const app = render(<View ref={ref} lines={lines} spinner="⠋" />);
    writer.draw(treeRows(rootOf(ref)), 40, 12);
    const plain = () => app.lastFrame()!.replace(/\u001b\[[0-9;]*m/g, "").split("\n");
    expect(screen.lines().slice(0, plain().length).map((l) => l.trimEnd())).toEqual(plain().map((l) => l.trimEnd()));
    const whole = bytes.length;
    for (let i = 4; i <= 9; i++) {
      lines.push(`line ${i}`);
      app.rerender(<View ref={ref} lines={[...lines]} spinner={i % 2 ? "⠙" : "⠹"} />);
      writer.draw(treeRows(rootOf(ref)), 40, 12);
      expect(screen.lines().slice(0, plain().length).map((l) => l.trimEnd())).toEqual(plain().map((l) => l.trimEnd()));
      expect(bytes.length).toBeLessThan(whole / 2);
    }
  });

  it("draws the next frame whole after invalidate (the screen was changed beside it)", () => {
    const screen = new ScreenEmulator(40, 12);
    const writer = new TreeFrameWriter((b) => screen.write(b), false);
    const ref = createRef<DOMElement>();
    const app = render(<View ref={ref} lines={["a"]} spinner="⠋" />);
    writer.draw(treeRows(rootOf(ref)), 40, 12);
    screen.write("\u001b[2J\u001b[H"); // wiped beside the writer
    writer.invalidate();
    writer.draw(treeRows(rootOf(ref)), 40, 12);
    expect(screen.lines()[0]!.trimEnd()).toBe(app.lastFrame()!.replace(/\u001b\[[0-9;]*m/g, "").split("\n")[0]!.trimEnd());
  });

  it("cuts rows to the terminal's width and the frame to its height", () => {
    const screen = new ScreenEmulator(10, 3);
    const writer = new TreeFrameWriter((b) => screen.write(b), false);
    const ref = createRef<DOMElement>();
    render(<View ref={ref} lines={["a fairly long line of text"]} spinner="⠋" />);
    writer.draw(treeRows(rootOf(ref)), 10, 3);
    // Every row here lost its right border to the cut: each ends in … (see below for one cut only in blanks).
    expect(screen.lines()).toEqual(["╭────────…", "│        …", "│        …"]);
  });

  it("cut: … in the last cell only when something was cut, never splitting a wide character", () => {
    const row = (text: string): CellRow => {
      const chars: string[] = [];
      for (const ch of text) {
        chars.push(ch);
        if (ch === "漢") chars.push("");
      }
      return { chars, styles: chars.map(() => "") };
    };
    const text = (r: CellRow) => r.chars.join("");
    expect(text(cut(row("abcdefgh"), 5))).toBe("abcd…");
    expect(text(cut(row("abc     "), 5))).toBe("abc  ");
    expect(text(cut(row("abc漢defg"), 5))).toBe("abc …"); // the wide character's first half would be left alone
    expect(text(cut(row("ab漢defg"), 5))).toBe("ab漢…");
    expect(cut(row("abc"), 5).chars).toHaveLength(3);
  });
});

/** A row of plain cells. */
const row = (text: string): CellRow => ({ chars: [...text], styles: [...text].map(() => "") });

/** An inline writer (scrolling on) drawing into an emulated `columns`×`rows` terminal, every write kept. */
function recordingInlineWriter(columns: number, rows: number): { writes: string[]; screen: ScreenEmulator; w: InlineFrameWriter } {
  const writes: string[] = [];
  const screen = new ScreenEmulator(columns, rows);
  const w = new InlineFrameWriter((bytes) => {
    writes.push(bytes);
    screen.write(bytes);
  }, true);
  return { writes, screen, w };
}

describe("InlineFrameWriter: a frame taller than the terminal", () => {
  const frame = (n: number, last: string) => [...Array.from({ length: n - 1 }, (_, i) => row(`row ${i}`)), row(last)];

  it("is cut on its rows to the terminal's height less the cursor's row, its top rows first, and patched like any other", () => {
    const { writes, screen, w } = recordingInlineWriter(40, 10);
    w.draw(frame(14, "working 1"), 40, 10);
    expect(writes[0]).not.toContain("row 4"); // the cut rows are never written
    expect(screen.lines().slice(0, 9).map((l) => l.trimEnd())).toEqual([...Array.from({ length: 8 }, (_, i) => `row ${i + 5}`), "working 1"]);
    w.draw(frame(14, "working 2"), 40, 10);
    expect(writes).toHaveLength(2);
    expect(writes[1]).not.toContain("row 5"); // the frame fits: only what changed
    expect(screen.lines().at(-2)!.trimEnd()).toBe("working 2");
    expect(screen.scrollback).toEqual([]); // nothing went up into the scrollback
    w.draw(frame(14, "working 2"), 40, 10);
    expect(writes).toHaveLength(2); // unchanged: nothing written
    w.invalidate();
    w.draw(frame(14, "working 2"), 40, 10);
    expect(writes).toHaveLength(3); // after invalidate, drawn whole even when unchanged
    expect(writes[2]).toContain("row 5");
  });

  it("keeps the caret on its cell when the rows above it are cut, and drops it when its own row is", () => {
    const screen = new ScreenEmulator(40, 6);
    const w = new InlineFrameWriter((bytes) => screen.write(bytes), false);
    w.draw(frame(8, "› draft"), 40, 6, [], { x: 9, y: 7 });
    expect(screen.lines()[4]!.trimEnd()).toBe("› draft");
    expect({ x: screen.col, y: screen.row }).toEqual({ x: 9, y: 4 });
    w.draw(frame(8, "› draft"), 40, 6, [], { x: 3, y: 1 });
    expect({ x: screen.col, y: screen.row }).toEqual({ x: 0, y: 5 }); // its row was cut: the cursor waits below the frame
  });
});

describe("InlineFrameWriter: rows written above a live frame at the foot of a full screen (a streaming answer's settled rows)", () => {
  const foot = (spin: string) => [row("╭──────────────────────────────────────╮"), row("│ › working…                           │"), row("╰──────────────────────────────────────╯"), row(`${spin} model · ctx 0%`)];

  it("lands every row once, in order, in the scrollback and on screen, the foot moved down by the terminal (not written again)", () => {
    const { writes, screen, w } = recordingInlineWriter(40, 10);
    const lines = Array.from({ length: 60 }, (_, i) => `answer line ${i}`);
    let written = 0; // rows gone above
    let shown = 0; // rows drawn so far
    const spins = ["⠋", "⠙", "⠹", "⠸"];
    for (let step = 0; shown < lines.length; step++) {
      shown = Math.min(lines.length, shown + 3);
      // The rows but the last two have settled: they go above, once; the last two stay live.
      const settle = Math.max(written, shown - 2);
      const above = lines.slice(written, settle).map(row);
      const live = [...lines.slice(settle, shown).map(row), ...foot(spins[step % 4]!)];
      w.draw(live, 40, 10, above);
      written = settle;
      if (step > 3) {
        const bytes = writes.at(-1)!;
        expect(bytes).not.toContain("╭─"); // the prompt box was moved, not written
        expect(bytes).not.toContain(`answer line ${settle - 3}`); // a row already on screen is not written again
      }
    }
    const all = [...screen.scrollback, ...screen.lines().map((l) => l.trimEnd())];
    while (all.at(-1) === "") all.pop();
    expect(all.filter((l) => l.startsWith("answer line"))).toEqual(lines);
    expect(all.slice(-4)).toEqual(foot(spins[19 % 4]!).map((r) => r.chars.join("").trimEnd()));
  });
});

describe("the frame writers tell their clock where a frame's time goes", () => {
  it("full-screen and inline: the fitting of the rows, the diff and the write, each in its phase", () => {
    const row = (text: string): CellRow => ({ chars: [...text], styles: [...text].map(() => "") });
    for (const inline of [false, true]) {
      const clock = new FrameClock();
      let now = 0;
      vi.spyOn(performance, "now").mockImplementation(() => now);
      const write = () => (now += 7); // the terminal takes 7 ms to take the bytes
      const writer = inline ? new InlineFrameWriter(write, false, clock) : new TreeFrameWriter(write, false, clock);
      clock.start();
      now += 2; // the tree's rows
      clock.mark("rows");
      writer.draw([row("one"), row("two")], 20, 10);
      expect(clock.phases.rows).toBe(2);
      expect(clock.phases.write).toBe(7);
      expect(clock.phases.cells + clock.phases.diff).toBe(0); // no time passed there
      vi.restoreAllMocks();
    }
  });
});
