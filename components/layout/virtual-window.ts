/**
 * The virtual transcript's arithmetic, pure: items have heights in terminal rows (the rows each
 * draws, counted once per item and width), the view is `height` rows scrolled `offset` rows up from the
 * bottom, and only the items that touch the view are rendered. The cost of a frame depends on the
 * view, not on how long the transcript is.
 */
import type { TranscriptItem } from "../state/transcript-types.js";
import { itemLines } from "./item-lines.js";

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
/** Heights are kept per width and per details state: one key for both. */
const DETAIL_KEY = 1_000_000;

/**
 * The one source of a finished item's height: the number of rows `item` draws at `width` with
 * details open (Ctrl-O) or not (itemLines). The history window, the scroll range and the search
 * all read it, so they agree on where every row is. Heights are kept apart from the rows (a few
 * widths an item), so summing a long history's heights does not keep every item's rows.
 */
export function finishedRows(item: TranscriptItem, width: number, detail = false): number {
  const key = width + (detail ? DETAIL_KEY : 0);
  const heights = measured.get(item);
  if (heights) {
    for (let i = 0; i < heights.length; i += 2) if (heights[i] === key) return heights[i + 1]!;
  }
  const rows = itemLines(item, width, detail).length;
  if (!heights) measured.set(item, [key, rows]);
  else {
    if (heights.length >= 2 * KEPT_HEIGHTS) heights.splice(0, 2); // resizing through many widths keeps the latest few
    heights.push(key, rows);
  }
  return rows;
}

/** Total rows of `items` at `width` (details open or not). */
export function totalRows(items: readonly TranscriptItem[], width: number, detail = false): number {
  let n = 0;
  for (const item of items) n += finishedRows(item, width, detail);
  return n;
}

/** A row of the transcript named by its item: `row` rows into item `item` (stays put while heights are measured or items arrive). */
export interface RowAnchor {
  item: number;
  row: number;
}

/** Rows from the transcript's top to `anchor`, items' heights from `heightOf`. */
export function rowsBefore(heightOf: (i: number) => number, anchor: RowAnchor): number {
  let n = anchor.row;
  for (let i = 0; i < anchor.item; i++) n += heightOf(i);
  return n;
}

/** The anchor of the row `top` rows from the top of `count` items (clamped to the first and last item). */
export function anchorAt(count: number, heightOf: (i: number) => number, top: number): RowAnchor {
  let left = Math.max(0, Math.round(top));
  for (let i = 0; i < count; i++) {
    const h = heightOf(i);
    if (left < h || i === count - 1) return { item: i, row: Math.min(left, Math.max(0, h - 1)) };
    left -= h;
  }
  return { item: 0, row: 0 };
}
