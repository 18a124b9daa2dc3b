/**
 * LineInput: draws the text being edited with its cursor (an inverse cell), or the placeholder
 * when empty. Display only — the keys are handled by the Prompt with the line editor. A draft of
 * several rows is drawn row by row (hard-wrapped at `width`); one taller than `maxRows` (a pasted
 * log) shows only the rows around the cursor, so the input box never pushes the screen past the
 * terminal's height.
 */
import { Box, Text } from "ink";
import { useCaretMark } from "../terminal/caret.js";

export interface LineInputProps {
  /** The text (may hold line breaks). */
  value: string;
  /** Cursor index into `value`. */
  cursor: number;
  /** Shown dimmed when `value` is empty. */
  placeholder: string;
  /** Whether the cursor is drawn. */
  showCursor: boolean;
  /** Columns available to the text (default 80). */
  width?: number;
  /** Most rows shown (default 6). */
  maxRows?: number;
}

/** One screen row of the draft: `value.slice(start, end)`. */
interface Row {
  start: number;
  end: number;
}

/** The screen rows of `value` at `width` columns (hard-wrapped: an estimate of what the terminal shows). */
export function draftRows(value: string, width: number): Row[] {
  const w = Math.max(1, width);
  const rows: Row[] = [];
  let start = 0;
  for (const line of value.split("\n")) {
    for (let at = 0; at < line.length || at === 0; at += w) rows.push({ start: start + at, end: start + Math.min(line.length, at + w) });
    start += line.length + 1;
  }
  return rows;
}

/** `text` with the cursor drawn at `at` (0..text.length; at the end: a blank cell). */
function WithCursor({ text, at }: { text: string; at: number }) {
  const mark = useCaretMark();
  const code = text.codePointAt(at);
  const char = code === undefined ? "" : String.fromCodePoint(code);
  const onBreak = char === "" || char === "\n";
  return (
    <Text>
      {text.slice(0, at)}
      {mark || null}
      <Text inverse>{onBreak ? " " : char}</Text>
      {onBreak ? text.slice(at) : text.slice(at + char.length)}
    </Text>
  );
}

/** The text and cursor. */
export function LineInput({ value, cursor, placeholder, showCursor, width = 80, maxRows = 6 }: LineInputProps) {
  const mark = useCaretMark();
  if (value === "") {
    if (!showCursor || placeholder === "")
      return showCursor ? (
        <Text>
          {mark || null}
          <Text inverse> </Text>
        </Text>
      ) : (
        <Text dimColor>{placeholder}</Text>
      );
    return (
      <Text>
        {mark || null}
        <Text inverse dimColor>
          {placeholder[0]}
        </Text>
        <Text dimColor>{placeholder.slice(1)}</Text>
      </Text>
    );
  }
  const at = Math.max(0, Math.min(cursor, value.length));
  const rows = draftRows(value, width);
  if (rows.length === 1) return showCursor ? <WithCursor text={value} at={at} /> : <Text>{value}</Text>;
  // Several rows are drawn one by one (so they are exactly the rows counted); a tall draft shows
  // the window of rows around the cursor's row, with how much is above and below.
  const here = Math.max(0, rows.findIndex((r, i) => at >= r.start && (at < r.end || (at === r.end && (i === rows.length - 1 || rows[i + 1]!.start > at)))));
  const tall = rows.length > maxRows;
  const shown = tall ? Math.max(1, maxRows - 2) : rows.length;
  const first = tall ? Math.max(0, Math.min(here - Math.floor(shown / 2), rows.length - shown)) : 0;
  const window = rows.slice(first, first + shown);
  const below = rows.length - first - window.length;
  return (
    <Box flexDirection="column">
      {tall ? <Text dimColor>{first > 0 ? `↑ ${first} more row${first === 1 ? "" : "s"}` : " "}</Text> : null}
      {window.map((r, i) => (
        <Text key={first + i} wrap="truncate-end">
          {showCursor && first + i === here ? <WithCursor text={value.slice(r.start, r.end)} at={at - r.start} /> : value.slice(r.start, r.end) || " "}
        </Text>
      ))}
      {tall ? <Text dimColor>{below > 0 ? `↓ ${below} more row${below === 1 ? "" : "s"}` : " "}</Text> : null}
    </Box>
  );
}
