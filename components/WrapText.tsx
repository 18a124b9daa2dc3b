/**
 * WrapText: a <Text> for one source line whose wrapped rows never start with the space they broke
 * at. Ink wraps with wrap-ansi `trim: false`, which puts the space after a word that exactly
 * fills a row at the start of the next row; a transform drops that one space (after any colour
 * codes) from every row but the first. The row count is unchanged, so measure.ts stays exact.
 */
import { Box, Text, Transform, type TextProps } from "ink";

/** A row's leading space, after the escape codes that open its styles. */
const LEADING_SPACE = /^((?:\u001b\[[\d;]*m)*) /;

/** dropBreakSpace: `row` without the space it starts with when it is a continuation row (index > 0). */
export function dropBreakSpace(row: string, index: number): string {
  return index > 0 ? row.replace(LEADING_SPACE, "$1") : row;
}

/** The text, wrapped without a leading space on its continuation rows; for text without "\n". */
export function WrapText(props: TextProps) {
  return (
    <Transform transform={dropBreakSpace}>
      <Text {...props} />
    </Transform>
  );
}

/** WrapLines: text of several lines, each source line a WrapText (its indentation kept), in a column. */
export function WrapLines({ text, ...props }: Omit<TextProps, "children"> & { text: string }) {
  return (
    <Box flexDirection="column">
      {text.split("\n").map((line, i) => (
        <WrapText key={i} {...props}>
          {line === "" ? " " : line}
        </WrapText>
      ))}
    </Box>
  );
}
