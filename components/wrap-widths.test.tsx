import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { emptyUsage } from "../src/protocol/messages.js";
import { HistoryWindow } from "./views/HistoryWindow.js";
import type { TranscriptItem } from "./state/transcript-types.js";
import { Markdown } from "./views/Markdown.js";
import { stripAnsi } from "./testing/wait-for-frame.js";
import { paneTail } from "./views/SubagentPane.js";
import { TranscriptHistory } from "./views/Transcript.js";
import { TranscriptItemView } from "./views/TranscriptItemView.js";
import { dropBreakSpace, WrapText } from "./views/WrapText.js";

afterEach(() => cleanup());

function rowsAt(text: string, width: number): string[] {
  const { lastFrame } = render(
    <Box width={width} flexDirection="column">
      <Markdown text={text} width={width} />
    </Box>,
  );
  return stripAnsi(lastFrame()!).split("\n");
}

describe("Markdown wrapping", () => {
  it("wrapped numbered and bulleted items fit the width, continuation rows under the text", () => {
    const text = [
      "1. around — here wraps — exactly wraps `src/x/y.ts` and test the around around here around list and the `src/x/y.ts` a the a the — `src/x/y.ts` **bold words** first list the wraps list **bold words** **bold words**",
      "12. exactly to around list **bold words** here the and wraps wraps around **bold words** here the the that first — around and **bold words** the wraps **bold words** around wraps item list `src/x/y.ts` item that that `src/x/y.ts` **bold words** to `src/x/y.ts`",
      "- around and to — the to `src/x/y.ts` here exactly list test that last and around test wraps here a `src/x/y.ts` exactly a a — first and around test exactly wraps to around list the — first to **bold words** that test a exactly to **bold words** **bold words** — test and around",
    ].join("\n");
    const rows = rowsAt(text, 80);
    expect(rows.length).toBeGreaterThan(6);
    for (const row of rows) expect(stringWidth(row), row).toBeLessThanOrEqual(80);
    // Each item's marker is whole and its wrapped rows start under its first word.
    const first = rows.findIndex((r) => r.startsWith("1. around"));
    expect(rows[first + 1]).toMatch(/^ {3}\S/);
    const twelve = rows.findIndex((r) => r.startsWith("12. exactly"));
    expect(rows[twelve + 1]).toMatch(/^ {4}\S/);
    const bullet = rows.findIndex((r) => r.startsWith("• around"));
    for (const row of rows.slice(bullet + 1).filter((r) => r.trim() !== "")) expect(row).toMatch(/^ {2}\S/);
  });

  it("a wrapped row never starts with the space it broke at (a word that exactly fills a row)", () => {
    // 80 characters up to "abcdefghij", then a space: the break falls on that space.
    const line = `${"abcdefghi ".repeat(7)}abcdefghij next words here`;
    expect(rowsAt(line, 80)).toEqual([`${"abcdefghi ".repeat(7)}abcdefghij`, "next words here"]);
    const bullet = rowsAt(`- ${"abcdefghi ".repeat(7)}abcdefg **next** words here`, 80);
    expect(bullet).toEqual([`• ${"abcdefghi ".repeat(7)}abcdefg`, "  next words here"]);
    const quote = rowsAt(`> ${"abcdefghi ".repeat(7)}abcdefg next words here`, 80);
    expect(quote[1]).toBe("│ next words here");
  });

  it("dropBreakSpace: only continuation rows lose one leading space, after their colour codes", () => {
    expect(dropBreakSpace(" first", 0)).toBe(" first");
    expect(dropBreakSpace(" next", 1)).toBe("next");
    expect(dropBreakSpace("\u001b[1m next", 2)).toBe("\u001b[1mnext");
    expect(dropBreakSpace("  two", 1)).toBe(" two");
  });
});

describe("the user's message", () => {
  it("wraps within the width under its text, the › marker whole, each source line on its own rows", () => {
    // Nine words of 9 letters take 89 columns: the text column (78) holds seven and a space.
    const text = `${"abcdefghi ".repeat(9)}next ${"words ".repeat(60)}end\n  indented second line`;
    const { lastFrame } = render(
      <Box width={80} flexDirection="column">
        <TranscriptItemView item={{ kind: "user", id: "u", done: true, text }} now={0} width={80} />
      </Box>,
    );
    const rows = stripAnsi(lastFrame()!).split("\n").filter((r) => r !== "");
    for (const row of rows) expect(stringWidth(row), row).toBeLessThanOrEqual(80);
    expect(rows[0]).toBe(`› ${"abcdefghi ".repeat(7).trimEnd()}`);
    for (const row of rows.slice(1, -1)) expect(row).toMatch(/^ {2}\S/);
    expect(rows.at(-1)).toBe("    indented second line");
  });
});

describe("a finished child's report opened in place (Ctrl-O)", () => {
  const report = [
    "Findings",
    "",
    "1. `src/session/store.ts` written — session **line by line** the — read — the — file test and back `src/session/store.ts` `src/session/store.ts` file and the by back back **line by line** the session — session back — the — — test test by written `src/session/store.ts` by — written `src/session/store.ts` written — and is",
    "   - defines `AgentSessionOptions` (interface, line 47), `AgentSession` (class, line 75), `load` (method, line 64)",
    "",
    "| file | what |",
    "|---|---|",
    "| src/session/main-session-file.ts | the main session's file, written line by line as the run goes on and read back by resume |",
  ].join("\n");
  const item: TranscriptItem = {
    kind: "tool",
    id: "t",
    done: true,
    name: "task",
    args: { prompt: "find it" },
    status: "ok",
    result: "Findings",
    child: { childId: "child-1", prompt: "find it", status: "ok", startedAt: 0, durationMs: 1_000, turns: 1, usage: emptyUsage(), report, entries: [], dropped: 0, thinking: false, resumed: false },
  };

  for (const width of [80, 61]) {
    it(`at ${width} columns every row of the report fits, behind its rule`, async () => {
      const { lastFrame } = render(<HistoryWindow items={[item]} width={width} height={30} offset={0} detail />);
      await new Promise((r) => setTimeout(r, 30));
      const rows = stripAnsi(lastFrame()!).split("\n").filter((r) => r.trim() !== "");
      expect(rows.some((r) => r.includes("┌"))).toBe(true);
      for (const row of rows) expect(stringWidth(row), row).toBeLessThanOrEqual(width);
      for (const row of rows.slice(1)) expect(row.startsWith("│")).toBe(true);
      // Every word is drawn (nothing cut at the right edge).
      const words = rows.map((r) => r.replace(/^│\s*/, "").trim()).join(" ");
      expect(words).toContain("by — written src/session/store.ts written — and is • defines");
      expect(words).toContain("(method, line 64)");
    });
  }
});

describe("the inline history written to the scrollback (<Static>) at 80 columns", () => {
  it("a long message and a wrapped numbered item fit the terminal's 80 columns", async () => {
    const text = "where is the session file written line by line while a run goes on, and how is it read back again when a child session is resumed from the sidebar or from the command line with its id?";
    const app = render(<TranscriptHistory entries={[]} epoch={0} columns={80} />);
    const stdout = app.stdout as unknown as { columns: number; emit(event: string): void };
    Object.defineProperty(stdout, "columns", { value: 80, configurable: true });
    stdout.emit("resize");
    const finished: TranscriptItem[] = [
      { kind: "user", id: "u", done: true, text },
      { kind: "assistant", id: "a", done: true, text: `Here is what I found:\n\n1. ${text}\n2. **${text}**\n   - ${text}` },
    ];
    app.rerender(<TranscriptHistory entries={finished.map((item) => ({ key: item.id, item }))} epoch={0} columns={80} />);
    const written = () => stripAnsi(app.frames.join("\n")).split("\n");
    for (let i = 0; i < 50 && !written().some((r) => r.includes("its id?**") || r.includes("with its id?")); i++) await new Promise((r) => setTimeout(r, 10));
    const rows = written();
    expect(rows.filter((r) => r.includes("its id?")).length).toBeGreaterThanOrEqual(4);
    for (const row of rows) expect(stringWidth(row), row).toBeLessThanOrEqual(80);
  });
});

describe("the header and notices", () => {
  it("the header's help line wrapped at an exact fit does not start its second row with a space", () => {
    const { lastFrame } = render(
      <Box width={104} flexDirection="column">
        <TranscriptItemView item={{ kind: "header", id: "h", done: true, cwd: "/w", model: "m", provider: "p", notices: [] }} now={0} width={104} />
      </Box>,
    );
    const rows = stripAnsi(lastFrame()!).split("\n");
    expect(rows).toContain("exits");
  });

  it("a notice of several lines keeps each line's indentation and drops only the break's space", () => {
    const text = `Commands:\n  /help    this help\n${"abcdefghi ".repeat(3)}abcdefghij next`;
    const { lastFrame } = render(
      <Box width={40} flexDirection="column">
        <TranscriptItemView item={{ kind: "info", id: "i", done: true, tone: "info", text }} now={0} width={40} />
      </Box>,
    );
    expect(stripAnsi(lastFrame()!).split("\n")).toEqual(["Commands:", "  /help    this help", `${"abcdefghi ".repeat(3)}abcdefghij`, "next"]);
  });
});

describe("a live pane's text rows", () => {
  it("paneTail: a row after an exact fit does not start with the break's space; a new line keeps its indentation", () => {
    const child = {
      childId: "c",
      prompt: "p",
      status: "running" as const,
      startedAt: 0,
      turns: 1,
      usage: emptyUsage(),
      report: "",
      entries: [{ kind: "text" as const, text: `${"abcdefghi ".repeat(3)}abcdefghij next words\n  indented` }],
      dropped: 0,
      thinking: false,
      resumed: false,
    };
    expect(paneTail(child, 5, 40).map((l) => (l.kind === "text" ? l.text : ""))).toEqual([`${"abcdefghi ".repeat(3)}abcdefghij`, "next words", "  indented"]);
  });
});

describe("WrapText in a clipped view", () => {
  it("the top row of a text scrolled half out of view does not start with the space it broke at", () => {
    // 20 columns: each row's words fill it exactly, so wrap-ansi starts the next row with the space.
    const text = "aaaaa bbbb cccc dddd eeee ffff gggg hhhh iiii";
    const view = (top: number) =>
      stripAnsi(
        render(
          <Box width={20} height={2} overflow="hidden" flexDirection="column">
            <Box marginTop={-top} flexShrink={0} flexDirection="column">
              <WrapText>{text}</WrapText>
            </Box>
          </Box>,
        ).lastFrame()!,
      ).split("\n");
    expect(view(0)).toEqual(["aaaaa bbbb cccc dddd", "eeee ffff gggg hhhh"]);
    expect(view(1)).toEqual(["eeee ffff gggg hhhh", "iiii"]);
    // Indentation of a text that starts with spaces is kept on its first row.
    const indented = stripAnsi(render(<Box width={20}><WrapText>{"  aaaa bbbb cccc ddd eeee"}</WrapText></Box>).lastFrame()!).split("\n");
    expect(indented[0]).toBe("  aaaa bbbb cccc ddd");
    expect(indented[1]).toBe("eeee");
  });
});
