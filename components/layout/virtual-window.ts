/**
 * The virtual transcript's arithmetic, pure: items have heights in terminal rows (measured once
 * per item and width, cached), the view is `height` rows scrolled `offset` rows up from the
 * bottom, and only the items that touch the view are rendered. The cost of a frame depends on the
 * view, not on how long the transcript is.
 */
import type { TranscriptItem } from "../hooks/transcript-types.js";
import { itemRows } from "./item-rows.js";

/** The slice of items to render and how far to shift it down (rows of its last item below the view). */
export interface WindowSlice {
  /** First item index rendered. */
  start: number;
  /** One past the last item index rendered. */
  end: number;
  /** Rows of the rendered block that lie below the view (it is drawn shifted down by this much). */
  shift: number;
}

/**
 * The items of `count` (heights from `heightOf`) that cover a view of `height` rows whose bottom
 * edge is `offset` rows above the end of the transcript.
 */
export function windowSlice(count: number, heightOf: (i: number) => number, height: number, offset: number): WindowSlice {
  let below = 0;
  let end = count;
  // Skip the items wholly below the view.
  while (end > 0 && below + heightOf(end - 1) <= offset) {
    below += heightOf(end - 1);
    end--;
  }
  const shift = Math.max(0, offset - below);
  let start = end;
  let covered = 0;
  while (start > 0 && covered < height + shift) {
    covered += heightOf(start - 1);
    start--;
  }
  return { start, end, shift };
}

/** Per item, its heights as [key, rows, key, rows, …] (one width, two with details open: a Map each cost more than the lookup). */
const measured = new WeakMap<TranscriptItem, number[]>();
const KEPT_HEIGHTS = 4;

/**
 * Rows of finished `item` at `width`: a measurement when one was recorded, else the estimate.
 * `key` tells apart drawings of the same width (e.g. with details open); default: the width.
 */
export function finishedRows(item: TranscriptItem, width: number, key = width): number {
  const heights = measured.get(item);
  if (heights) {
    for (let i = 0; i < heights.length; i += 2) if (heights[i] === key) return heights[i + 1]!;
  }
  const rows = itemRows(item, width);
  if (!heights) measured.set(item, [key, rows]);
  else {
    if (heights.length >= 2 * KEPT_HEIGHTS) heights.splice(0, 2); // resizing through many widths keeps the latest few
    heights.push(key, rows);
  }
  return rows;
}

/** Records the real height of `item` drawn at `width` (under `key`); true when it differs from what was assumed. */
export function recordRows(item: TranscriptItem, width: number, rows: number, key = width): boolean {
  const before = finishedRows(item, width, key);
  if (before === rows) return false;
  const heights = measured.get(item)!;
  for (let i = 0; i < heights.length; i += 2) if (heights[i] === key) heights[i + 1] = rows;
  return true;
}

/** Total rows of `items` at `width`. */
export function totalRows(items: readonly TranscriptItem[], width: number): number {
  let n = 0;
  for (const item of items) n += finishedRows(item, width);
  return n;
}
