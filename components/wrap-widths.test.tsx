import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.js";
import { stripAnsi } from "./testing/wait-for-frame.js";
import { TranscriptItemView } from "./TranscriptItemView.js";
import { dropBreakSpace } from "./WrapText.js";

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
