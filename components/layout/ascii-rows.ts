/**
 * The number of rows wrap-ansi (9.x, `hard: true, trim: false`, as Ink wraps a <Text>) breaks a
 * line of printable ASCII into at `columns`, counted without building the rows: wrap-ansi copies
 * the text character by character, which made counting the rows of a long resumed transcript
 * (10,000 items wrapped once each) the largest part of its first frame. Every character is one
 * column, so the count follows wrap-ansi's own steps on word lengths alone;
 * components/layout/ascii-rows.test.ts compares it with wrap-ansi.
 */

/** Rows of `line` (printable ASCII only: no escape codes, tabs or newlines) at `columns` ≥ 1; an empty line is one row. */
export function asciiRows(line: string, columns: number): number {
  let rows = 1;
  let rowLength = 0;
  let start = 0;
  for (let index = 0; start <= line.length; index++) {
    let end = line.indexOf(" ", start);
    if (end === -1) end = line.length;
    const length = end - start;
    start = end + 1;
    if (index !== 0) {
      // A new word on a full row starts a new row; the space between words is always kept.
      if (rowLength >= columns) {
        rows++;
        rowLength = 0;
      }
      rowLength++;
    }
    if (length > columns) {
      // A word longer than a row is broken at the row's edge, on this row or from the next one.
      const breaksStartingThisLine = 1 + Math.floor((length - (columns - rowLength) - 1) / columns);
      const breaksStartingNextLine = Math.floor((length - 1) / columns);
      if (breaksStartingNextLine < breaksStartingThisLine) {
        rows++;
        rowLength = 0;
      }
      for (let i = 0; i < length; i++) {
        if (rowLength + 1 > columns) {
          rows++;
          rowLength = 0;
        }
        rowLength++;
        if (rowLength === columns && i < length - 1) {
          rows++;
          rowLength = 0;
        }
      }
      continue;
    }
    if (rowLength + length > columns && rowLength > 0 && length > 0) {
      rows++;
      rowLength = 0;
    }
    rowLength += length;
  }
  return rows;
}
