/**
 * WrapText: a <Text> for one source line whose wrapped rows never start with the space they broke
 * at. Ink wraps with wrap-ansi `trim: false`, which puts the space after a word that exactly
 * fills a row at the start of the next row; a transform drops that one space (after any colour
 * codes) from every row but the first. The row count is unchanged, so measure.ts stays exact.
 */
import { Box, Text, Transform, type TextProps } from "ink";
import { isValidElement, type ReactNode } from "react";
import { hangOf } from "../layout/measure.js";

import { dropBreakSpace } from "../layout/text-rows.js";

export { dropBreakSpace };

/** Whether the text of `children` (a string, or elements and strings in order) starts with a space. */
function startsWithSpace(children: ReactNode): boolean {
  if (typeof children === "string") return children.startsWith(" ");
  if (Array.isArray(children)) return children.length > 0 && startsWithSpace(children[0] as ReactNode);
  if (isValidElement(children)) return startsWithSpace((children.props as { children?: ReactNode }).children);
  return false;
}

/**
 * For a text that does not start with a space: the leading space dropped from every row (its first
 * row has none to drop). Not by `index`: Ink numbers the rows of a clipped text from its first
 * visible one, so the top row of an item scrolled half out of view is index 0 while it is a
 * continuation row. (A text that starts with spaces keeps them on its first row: dropBreakSpace.)
 */
const dropEveryBreakSpace = (row: string, index: number) => dropBreakSpace(row, index + 1);

/** The text, wrapped without a leading space on its continuation rows; for text without "\n". */
export function WrapText(props: TextProps) {
  return (
    <Transform transform={startsWithSpace(props.children) ? dropBreakSpace : dropEveryBreakSpace}>
      <Text {...props} />
    </Transform>
  );
}

/**
 * WrapLines: text of several lines, each source line a WrapText (its indentation kept), in a column.
 * `hanging` (the width of the column): an indented line's continuation rows start at its hangOf
 * column (a listing's text column), not at column 0 (drawn to rows by item-lines.ts `lines`).
 */
export function WrapLines({ text, hanging, ...props }: Omit<TextProps, "children"> & { text: string; hanging?: number }) {
  return (
    <Box flexDirection="column">
      {text.split("\n").map((line, i) => {
        const hang = hanging === undefined ? 0 : hangOf(line, hanging);
        if (hang > 0) {
          return (
            <Box key={i} flexDirection="row" width={hanging}>
              <Text {...props}>{line.slice(0, hang)}</Text>
              <Box width={hanging! - hang}>
                <WrapText {...props}>{line.slice(hang)}</WrapText>
              </Box>
            </Box>
          );
        }
        return (
          <WrapText key={i} {...props}>
            {line === "" ? " " : line}
          </WrapText>
        );
      })}
    </Box>
  );
}
