import { vi, afterEach, describe, expect, it } from "vitest";
// Colours are only written when the terminal supports them; force them before ink loads.
vi.hoisted(() => {
  process.env.FORCE_COLOR = "1";
});
import { readFileSync } from "node:fs";
import { Box, Text, type DOMElement } from "ink";
import { cleanup, render } from "ink-testing-library";
import { createRef, type ReactElement } from "react";
import { WrapText } from "../views/WrapText.js";
import { SubagentPane } from "../views/SubagentPane.js";
import { startChild } from "../state/child-reducer.js";
import { checkInkVersion, INK_PINNED } from "./ink-seam.js";
import { rowLine, styledCells, styledRuns, treeRows } from "./tree-rows.js";
import stringWidth from "string-width";

afterEach(() => cleanup());

/** A frame as cells: per row, [char, sorted SGR codes] per cell (so code order does not matter). */
function cellsOfFrame(lines: readonly string[]): [string, string][][] {
  return lines.map((line) =>
    styledCells(line).flatMap((c) => {
      const codes = [...c.style.matchAll(/\u001b\[([0-9;]*)m/g)].map((m) => m[1]).sort().join(" ");
      return c.width === 2 ? [[c.ch, codes] as [string, string], ["", codes] as [string, string]] : [[c.ch, codes] as [string, string]];
    }),
  );
}

/** Renders `view` inside a box we hold, with Ink; returns Ink's frame and the rows treeRows draws from the same laid-out tree. */
function both(view: (ref: React.RefObject<DOMElement | null>) => ReactElement): { ink: string[]; ours: string[] } {
  const ref = createRef<DOMElement>();
  const { lastFrame } = render(view(ref));
  let root = ref.current!;
  while (root.parentNode) root = root.parentNode;
  expect(root.nodeName).toBe("ink-root");
  return { ink: lastFrame()!.split("\n"), ours: treeRows(root).map(rowLine) };
}

const child = startChild({ childId: "20261202-142301-ab12cd", profile: "reviewer", color: "magenta", prompt: "review the diff", resumed: false, at: 0 });

const FIXTURES: Record<string, (ref: React.RefObject<DOMElement | null>) => ReactElement> = {
  "borders in colours, dim and per-side": (ref) => (
    <Box ref={ref} flexDirection="column" width={40}>
      <Box borderStyle="round" borderColor="magenta" paddingX={1}>
        <Text bold>title</Text>
      </Box>
      <Box borderStyle="single" borderDimColor borderTop={false} borderRight={false}>
        <Text color="#ff8800">hex colour</Text>
      </Box>
      <Box borderStyle="double" borderLeftColor="green" borderBottomColor="ansi256(200)">
        <Text backgroundColor="rgb(10,20,30)">rgb bg</Text>
      </Box>
    </Box>
  ),
  "wrap and truncate": (ref) => (
    <Box ref={ref} flexDirection="column" width={20}>
      <Text>the quick brown fox jumps over the lazy dog, twice over</Text>
      <Text wrap="truncate" color="green">the quick brown fox jumps over the lazy dog</Text>
      <Text wrap="truncate-middle">the quick brown fox jumps over the lazy dog</Text>
      <Text wrap="truncate-start">the quick brown fox jumps over the lazy dog</Text>
      <WrapText>words that wrap right at the edge of the box here</WrapText>
    </Box>
  ),
  "bold, dim, italic, underline, inverse, strikethrough and nested colours": (ref) => (
    <Box ref={ref} width={60}>
      <Text color="red">
        red <Text bold>bold red</Text> <Text dimColor>dim</Text> <Text inverse>inv</Text> <Text italic underline>iu</Text> <Text strikethrough backgroundColor="blue">st</Text> back
      </Text>
    </Box>
  ),
  "wide CJK and emoji": (ref) => (
    <Box ref={ref} flexDirection="column" width={12} borderStyle="single">
      <Text>漢字かな交じり文です</Text>
      <Text color="cyan">ok 👍 done 🎉 yes</Text>
      <Box>
        <Text>中</Text>
        <Text>x</Text>
      </Box>
    </Box>
  ),
  "overflow hidden, absolute, margins and padding": (ref) => (
    <Box ref={ref} flexDirection="column" width={30} height={8}>
      <Box height={2} overflow="hidden" marginLeft={2}>
        <Text>one two three four five six seven eight nine ten eleven</Text>
      </Box>
      <Box marginTop={1} paddingLeft={3} width={20} overflowX="hidden">
        <Text wrap="truncate-end">{"x".repeat(40)}</Text>
      </Box>
      <Box position="absolute" marginTop={5} marginLeft={10}>
        <Text color="yellow">absolute</Text>
      </Box>
      <Box justifyContent="flex-end" width={30}>
        <Text>right</Text>
      </Box>
    </Box>
  ),
  "background colour box and a row of boxes": (ref) => (
    <Box ref={ref} width={50} flexDirection="row" gap={1}>
      <Box backgroundColor="blue" width={10} height={2}>
        <Text>on blue</Text>
      </Box>
      <Box flexGrow={1} borderStyle="bold">
        <Text>grow</Text>
      </Box>
      <Box display="none">
        <Text>hidden</Text>
      </Box>
    </Box>
  ),
  "a real view: a running child's pane": (ref) => (
    <Box ref={ref}>
      <SubagentPane child={child} now={1000} width={60} lines={3} />
    </Box>
  ),
};

describe("treeRows: the laid-out tree drawn to rows, the same cells as Ink's own output", () => {
  for (const [name, view] of Object.entries(FIXTURES)) {
    it(name, () => {
      const { ink, ours } = both(view);
      expect(ours.length).toBe(ink.length);
      expect(cellsOfFrame(ours)).toEqual(cellsOfFrame(ink));
      expect(ink.join("\n")).toMatch(/\u001b\[/); // the fixture has styles to compare (colours are on)
    });
  }

  it("clips a text to every overflow-hidden box above it, not only the nearest (Ink keeps only the innermost)", () => {
    const ref = createRef<DOMElement>();
    render(
      <Box ref={ref} width={20} height={3} flexDirection="column">
        <Box width={6} overflow="hidden">
          <Box width={12} overflowY="hidden">
            <Text>abcdefghijkl</Text>
          </Box>
        </Box>
      </Box>,
    );
    let root = ref.current!;
    while (root.parentNode) root = root.parentNode;
    expect(treeRows(root).map(rowLine)[0]).toBe("abcdef");
  });
});

describe("treeRows reads of yoga only what the frame needs", () => {
  it("a box's borders only when it clips (overflow hidden), a text's left and right insets only; every node's position and size", () => {
    const ref = createRef<DOMElement>();
    render(
      <Box ref={ref} width={30} flexDirection="column">
        <Box paddingLeft={2} borderStyle="round" flexDirection="column">
          <Text>one</Text>
          <Text>two</Text>
        </Box>
        <Box borderStyle="single" overflow="hidden" height={3}>
          <Text>clipped</Text>
        </Box>
      </Box>,
    );
    let root = ref.current!;
    while (root.parentNode) root = root.parentNode;
    const yoga = Object.getPrototypeOf(ref.current!.yogaNode!) as Record<string, (...a: unknown[]) => unknown>;
    const border = vi.spyOn(yoga, "getComputedBorder");
    const padding = vi.spyOn(yoga, "getComputedPadding");
    try {
      const rows = treeRows(root).map(rowLine);
      expect(rows.slice(0, 4).map((r) => r.replace(/\u001b\[[0-9;]*m/g, ""))).toEqual([`╭${"─".repeat(28)}╮`, "│  one" + " ".repeat(23) + "│", "│  two" + " ".repeat(23) + "│", `╰${"─".repeat(28)}╯`]);
      // 3 texts × (left + right) borders and paddings; the clipping box's 4 borders; nothing of the other 3 boxes.
      expect(padding).toHaveBeenCalledTimes(3 * 2);
      expect(border).toHaveBeenCalledTimes(3 * 2 + 4);
    } finally {
      border.mockRestore();
      padding.mockRestore();
    }
  });
});

describe("ink-seam: pinned to the installed Ink", () => {
  it("accepts the installed Ink's version and refuses another minor, naming what to check", () => {
    const installed = JSON.parse(readFileSync(new URL("../../node_modules/ink/package.json", import.meta.url), "utf8")) as { version: string };
    expect(() => checkInkVersion(installed.version)).not.toThrow();
    expect(installed.version.startsWith(`${INK_PINNED}.`)).toBe(true);
    expect(() => checkInkVersion("6.9.0")).toThrow(/Ink 6\.9\.0 is installed.*ink-seam\.ts.*INK_PINNED/);
  });
});

describe("styledRuns: a line mostly of ASCII with a few other characters", () => {
  it("keeps its ASCII stretches as runs and splits only the rest into graphemes, the cells as a split of the whole line gives", () => {
    const segmenter = new Intl.Segmenter();
    const lines = [
      "● general · look at part 0 [abcd00] 12s · 1.2k tok · …the login is handled",
      "cafe\u0301 au lait · e\u0301te\u0301 · 1\ufe0f\u20e3 done",
      "a\u200db · 👩\u200d💻 at work · 漢字 here · x\u0300\u0301y",
      "\u001b[2mdim · text\u001b[22m then plain ✓",
    ];
    for (const line of lines) {
      const plain = line.replace(/\u001b\[[0-9;]*m/g, "");
      const expected = [...segmenter.segment(plain)].map(({ segment }) => ({ ch: segment, width: Math.max(1, stringWidth(segment)) }));
      expect(styledCells(line).map(({ ch, width }) => ({ ch, width })), line).toEqual(expected);
    }
    // `●`, `·`, `…` are one unit and one cell each: the whole line is one run, not one entry a character
    expect(styledRuns(lines[0]!)).toEqual([{ ch: lines[0], style: "", width: lines[0]!.length, narrow: true }]);
    const runs = styledRuns(lines[2]!);
    expect(runs.filter((r) => r.narrow).map((r) => r.ch)).toContain(" at work · ");
    expect(runs.find((r) => r.ch === "漢")).toMatchObject({ width: 2 });
  });

  it("segments only what is not one-cell characters side by side: a row of ASCII, `·`, `●`, `…` and borders is never handed to Intl.Segmenter", () => {
    const row = "\u001b[32m●\u001b[39m general · look at part 7 of [8e8226] 9s · …quest and redirects the use… ⠸ → ✓ — café";
    styledCells(`${row} and its characters met once`); // (string-width segments a character the first time it is measured)
    const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");
    try {
      // New lines (the cache has not seen them): a child's row and a pane's side, as they first appear.
      const side = "\u001b[2m│\u001b[22m ›● [7a6458] look at part 6 of the… \u001b[2m│ ╰────╯\u001b[22m";
      expect(styledCells(row).map((c) => c.ch).join("")).toBe(row.replace(/\u001b\[[0-9;]*m/g, ""));
      expect(styledCells(side).map((c) => c.ch).join("")).toBe(side.replace(/\u001b\[[0-9;]*m/g, ""));
      expect(segment).not.toHaveBeenCalled();
      // What may join a neighbour is still segmented: the accent with its letter, the emoji alone.
      expect(styledCells("· cafe\u0301 · 漢 ·").map((c) => c.ch)).toEqual(["·", " ", "c", "a", "f", "e\u0301", " ", "·", " ", "漢", " ", "·"]);
      expect(segment).toHaveBeenCalled();
    } finally {
      segment.mockRestore();
    }
  });

  it("gives the graphemes a split of the whole line gives, for mixes of one-cell characters with marks, joiners, prepended and wide ones", () => {
    const segmenter = new Intl.Segmenter();
    const pool = ["a", " ", "·", "●", "…", "─", "│", "é", "\u0301", "\u200d", "\ufe0f", "👍", "👍🏽", "漢", "ß", "Ω", "⠋", "✓", "⚡", "→", "\u0e33", "\u0600", "1", "x\u20d7", "🇺🇸"];
    let seed = 7;
    const pick = () => pool[(seed = (seed * 1103515245 + 12345) % 2147483648) % pool.length]!;
    for (let t = 0; t < 3000; t++) {
      let line = "";
      for (let i = 0; i < 8; i++) line += pick();
      const cells = styledCells(`${line}\u001b[0m${t}`).map(({ ch }) => ch);
      // The same as tokenizing with the line's ASCII stretches split off first (graphemes across them aside):
      // compare the characters and that no cell is split inside a grapheme the segmenter keeps whole.
      expect(cells.join("")).toBe(`${line}${t}`);
      const bounds = new Set<number>();
      let at = 0;
      for (const { segment } of segmenter.segment(`${line}${t}`)) bounds.add((at += segment.length));
      at = 0;
      for (const ch of cells) {
        at += ch.length;
        if (ch.length > 1 || !/[\x20-\x7e]/.test(ch)) expect(bounds.has(at) || /[\x20-\x7e]/.test(`${line}${t}`[at] ?? "")).toBe(true);
      }
    }
  });

  it("holds a pane's border as one run a style: box drawing is narrow like ASCII", () => {
    const dim = "\u001b[2m";
    const top = `${dim}╭${"─".repeat(30)}╮\u001b[22m`;
    expect(styledRuns(top)).toEqual([{ ch: `╭${"─".repeat(30)}╮`, style: dim, width: 32, narrow: true }]);
    const side = `${dim}│\u001b[22m child 3 · reading files ${dim}│\u001b[22m`;
    expect(styledRuns(side).map((r) => r.ch)).toEqual(["│", " child 3 · reading files ", "│"]);
    expect(styledCells(side).map((c) => c.ch).join("")).toBe("│ child 3 · reading files │");
  });
});
