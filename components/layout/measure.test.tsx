import { Box, renderToString, Text } from "ink";
import { describe, expect, it } from "vitest";
import { wrapRows } from "./measure.js";

/** The rows Ink draws `text` in at `width` columns (one <Text> in a box that wide). */
function inkRows(text: string, width: number): string[] {
  return renderToString(
    <Box width={width}>
      <Text>{text}</Text>
    </Box>,
    { columns: 400 },
  )
    .split("\n")
    .map((r) => r.trimEnd());
}

describe("wrapRows: the one wrapping, the one Ink draws with", () => {
  it("wraps as Ink wraps (hard wrap, blank lines count)", () => {
    expect(wrapRows("a".repeat(150), 80)).toHaveLength(2);
    expect(wrapRows("one\n\ntwo", 80)).toEqual(["one", "", "two"]);
    expect(wrapRows("x".repeat(200), 80)).toHaveLength(3);
    expect(wrapRows("hello world foo", 11)).toEqual(["hello world", " foo"]);
  });

  it("gives the rows Ink draws, at every width", () => {
    const texts = ["word ".repeat(40).trim(), `${"abcdefghi ".repeat(3)}abcdefghij next words`, "a-very-long-word-without-any-spaces-that-must-break-hard plus tail", "漢字の文字列 mixed with ascii words 漢字"];
    for (const text of texts) for (const width of [7, 12, 24, 40, 80]) expect(wrapRows(text, width).map((r) => r.trimEnd()), `${JSON.stringify(text)} at ${width}`).toEqual(inkRows(text, width));
  });
});
