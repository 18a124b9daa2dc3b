import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.js";
import { markdownTail } from "../layout/markdown-lines.js";
import { parseMarkdown } from "../markdown/parse-markdown.js";
import { columnWidths } from "../layout/table-layout.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

afterEach(() => cleanup());

const TABLE = [
  "Results:",
  "",
  "| Module | Lines | Notes |",
  "|:-------|------:|:-----:|",
  "| `src/core/loop.ts` | 412 | the agent loop: streams a turn, runs its tool calls, and repeats until the model stops |",
  "| **pricing** | 9 | small |",
  "",
  "After the table.",
].join("\n");

function frameAt(width: number): string[] {
  const { lastFrame } = render(
    <Box width={width}>
      <Markdown text={TABLE} width={width} />
    </Box>,
  );
  return stripAnsi(lastFrame()!).split("\n");
}

describe("Markdown tables", () => {
  it("parses the header, alignments and body cells as plain text", () => {
    const table = parseMarkdown(TABLE).find((b) => b.type === "table");
    expect(table).toMatchObject({ type: "table", align: ["left", "right", "center"], header: ["Module", "Lines", "Notes"] });
    expect(table && table.type === "table" && table.rows[1]).toEqual(["pricing", "9", "small"]);
  });

  it("at 120 columns: one row per table row, aligned columns between box rules", () => {
    const rows = frameAt(120);
    const top = rows.findIndex((r) => r.startsWith("┌"));
    expect(rows[top + 1]).toMatch(/^│ Module {11}│ Lines │ {41}Notes {42}│$/); // the centred column
    expect(rows[top + 2]!.startsWith("├")).toBe(true);
    expect(rows[top + 3]).toContain("│ src/core/loop.ts │   412 │ the agent loop");
    expect(rows[top + 4]).toMatch(/^│ pricing\s+│     9 │\s+small\s+│$/);
    expect(rows[top + 5]!.startsWith("└")).toBe(true);
    // Every table row is as wide as the rules: the columns line up.
    const widths = new Set(rows.slice(top, top + 6).map((r) => stringWidth(r)));
    expect(widths.size).toBe(1);
    expect([...widths][0]).toBeLessThanOrEqual(120);
    expect(rows).toContain("After the table.");
    expect(rows.join("\n")).not.toContain("|");
  });

  it("at 60 columns: the wide cell wraps over rows and no row is wider than 60", () => {
    const rows = frameAt(60);
    const top = rows.findIndex((r) => r.startsWith("┌"));
    const bottom = rows.findIndex((r) => r.startsWith("└"));
    const table = rows.slice(top, bottom + 1);
    for (const r of table) expect(stringWidth(r)).toBeLessThanOrEqual(60);
    expect(new Set(table.map((r) => stringWidth(r))).size).toBe(1);
    // The long note took several rows; all its words are still there.
    expect(table.length).toBeGreaterThan(6);
    const words = table.join(" ").replace(/[│┌┐└┘├┤┬┴┼─]/g, " ");
    for (const w of ["agent", "loop:", "streams", "repeats", "until", "stops"]) expect(words).toContain(w);
  });

  it("a line with a bar but no rule under it stays prose", () => {
    expect(parseMarkdown("a | b\nnext")).toEqual([
      { type: "para", spans: [{ text: "a | b" }] },
      { type: "para", spans: [{ text: "next" }] },
    ]);
  });
});

describe("streaming after a code block", () => {
  it("a live tail cut inside a code block keeps the prose after its closing fence as prose", () => {
    const text = ["```ts", ...Array.from({ length: 10 }, (_, i) => `const a${i} = ${i};`), "```", "The prose after the code."].join("\n");
    const tail = markdownTail(text, 3, 80).rows.map(stripAnsi);
    // Code rows are indented by two; the prose is not, and no fence is drawn.
    expect(tail).toEqual(["  const a8 = 8;", "  const a9 = 9;", "The prose after the code."]);
  });

  it("a tail that starts after a closed code block is not reopened", () => {
    const text = ["```", "x", "```", "one", "two", "three"].join("\n");
    expect(markdownTail(text, 2, 80).rows.map(stripAnsi)).toEqual(["two", "three"]);
  });
});

describe("a table too wide for even its narrowest columns", () => {
  it("is cut at the width, never drawn wider", () => {
    const text = ["| a | b | c | d | e | f |", "|---|---|---|---|---|---|", "| 1 | 2 | 3 | 4 | 5 | 6 |"].join("\n");
    const { lastFrame } = render(
      <Box width={20}>
        <Markdown text={text} width={20} />
      </Box>,
    );
    const rows = stripAnsi(lastFrame()!).split("\n");
    expect(rows[0]!.startsWith("┌")).toBe(true);
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(20);
    expect(rows[1]).toContain("│ a");
  });
});

describe("unbreakable cells", () => {
  const PATHS = [
    "| file | what it does |",
    "|---|---|",
    "| src/session/main-session-file.ts | the main session's file, written line by line as the run goes on and read back by resume |",
    "| components/layout/virtual-window.ts | which finished items touch the scrolled window |",
  ].join("\n");

  for (const width of [78, 61]) {
    it(`at ${width} columns a path keeps its whole width while the prose column gives the room`, () => {
      const { lastFrame } = render(
        <Box width={width}>
          <Markdown text={PATHS} width={width} />
        </Box>,
      );
      const rows = stripAnsi(lastFrame()!).split("\n");
      for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(width);
      expect(rows.some((r) => /^│ src\/session\/main-session-file\.ts +│/.test(r))).toBe(true);
      expect(rows.some((r) => r.startsWith("│ components/layout/virtual-window.ts │"))).toBe(true);
      const prose = rows.map((r) => r.split("│")[2]?.trim() ?? "").join(" ");
      expect(prose).toContain("written line by line as the run goes on and read back by resume");
    });
  }

  it("columnWidths: the prose column gives first; only when every column is down to its longest word do words break", () => {
    const table = { align: ["left", "left"] as const, header: ["a", "b"], rows: [["aaaaaaaaaaaaaaaaaaaa", "one two three four five six seven eight nine ten"]] };
    expect(columnWidths({ ...table, align: [...table.align] }, 50)).toEqual([20, 23]);
    // Room for 20 + 5 only: the 20-wide word gives up room too once "three" and "seven" are whole.
    expect(columnWidths({ ...table, align: [...table.align] }, 7 + 20)).toEqual([15, 5]);
  });
});
