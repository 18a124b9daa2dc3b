/**
 * ItemRows: rows drawn by layout/item-lines.ts, each one <Text> Ink does not wrap (an empty row a one-row box, no cells
 * written). A row is keyed by its text (and, for a text seen earlier in the same rows, how many times it was), not by
 * its place: when the rows slide — a streaming answer's tail once the area is full, the history window scrolled — each
 * row that stays keeps its node, and the memoised row renders nothing again. Keyed by place, every row's text node was
 * updated (and its Yoga node marked dirty and measured again) for each row the window moved.
 */
import { Box, Text } from "ink";
import { memo } from "react";

/** One row. */
const Row = memo(function Row({ row }: { row: string }) {
  return row === "" ? (
    <Box height={1} flexShrink={0} />
  ) : (
    <Text wrap="truncate-end">{row}</Text>
  );
});

/** The rows' keys: each row's text, and its occurrence when the same text came earlier. */
export function rowKeys(rows: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const n = seen.get(row) ?? 0;
    seen.set(row, n + 1);
    return n === 0 ? row : `${row}\u0000${n}`;
  });
}

/** The rows, top to bottom. */
export function ItemRows({ rows }: { rows: readonly string[] }) {
  const keys = rowKeys(rows);
  return (
    <>
      {rows.map((row, i) => (
        <Row key={keys[i]} row={row} />
      ))}
    </>
  );
}
