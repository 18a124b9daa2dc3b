/**
 * HistoryWindow: the finished transcript in full-screen mode — a window of `height` rows over it,
 * scrolled `offset` rows up from the bottom. Every finished item is drawn to rows once per width
 * (layout/item-lines.ts) and its height is the number of rows it drew, so the window is exact: it
 * takes the rows in view from the items that touch it and draws each as one <Text> that Ink does
 * not wrap. A 20,000-token answer costs a screenful of <Text>s; 5,000 messages cost what 50 do.
 * Finished items never change: the window is memoised, and a frame in which only the live items
 * changed does not render it again.
 */
import { Box } from "ink";
import { memo } from "react";
import { ItemRows } from "./ItemRows.js";
import type { TranscriptItem } from "../state/transcript-types.js";
import { itemLines } from "../layout/item-lines.js";
import { finishedRows, windowSlice } from "../layout/virtual-window.js";

export interface HistoryWindowProps {
  /** Finished items, oldest first. */
  items: readonly TranscriptItem[];
  /** Columns of the window. */
  width: number;
  /** Rows of the window. */
  height: number;
  /** Rows scrolled up from the bottom (0 = following the end). */
  offset: number;
  /** Called with the number of items rendered (tests and the benchmark count them). */
  onRendered?: (count: number) => void;
  /** Details open (Ctrl-O): items drawn with their reports and whole results. */
  detail?: boolean;
}

/** The rows in view: of `items`, the `height` rows whose bottom is `offset` rows above the end (fewer when the transcript is shorter). */
export function windowRows(items: readonly TranscriptItem[], width: number, height: number, offset: number, detail: boolean): { rows: string[]; items: number } {
  const slice = windowSlice(items.length, (i) => finishedRows(items[i]!, width, detail), height, offset);
  const rows: string[] = [];
  // From the last item up, skipping the `shift` rows below the view, until the view is full.
  let skip = slice.shift;
  for (let i = slice.end - 1; i >= slice.start && rows.length < height; i--) {
    const lines = itemLines(items[i]!, width, detail);
    let r = lines.length - 1;
    for (; r >= 0 && skip > 0; r--) skip--;
    for (; r >= 0 && rows.length < height; r--) rows.push(lines[r]!);
  }
  return { rows: rows.reverse(), items: slice.end - slice.start };
}

/** The window. */
export const HistoryWindow = memo(function HistoryWindow({ items, width, height, offset, onRendered, detail = false }: HistoryWindowProps) {
  const view = windowRows(items, width, height, offset, detail);
  onRendered?.(view.items);
  return (
    <Box height={height} flexDirection="column" justifyContent="flex-end" overflow="hidden" flexShrink={0}>
      <ItemRows rows={view.rows} />
    </Box>
  );
});
