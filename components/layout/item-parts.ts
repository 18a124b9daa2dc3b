/**
 * A finished answer drawn in parts: its Markdown blocks (parsed when needed; the latest few kept) under the blank row
 * that starts it, each part's height in terminal rows (estimated from the block, replaced by the
 * height measured when it was drawn), per width. The history window draws only the parts of a tall
 * answer that touch the view, so a 20,000-token answer above a streaming one costs a screenful.
 */
import type { TranscriptItem } from "../state/transcript-types.js";
import { parseMarkdown, type MdBlock, type Span } from "../markdown/parse-markdown.js";
import { layoutTable } from "../markdown/table-layout.js";
import { rowCount } from "./measure.js";

/** A finished assistant item: the kind drawn in parts. */
export type PartedItem = Extract<TranscriptItem, { kind: "assistant" }>;

/** Whether `item` is drawn in parts (a finished answer); every other item is drawn whole. */
export function isParted(item: TranscriptItem): item is PartedItem {
  return item.kind === "assistant" && item.done;
}

/**
 * Finished answers whose parse is kept: the most recently drawn or measured. A parse is ~3× the
 * answer's text and every answer of a long session is finished, so keeping each one's (as a
 * WeakMap on the item did) grew the heap with the session; an older answer is parsed again when it
 * is drawn or measured at a new width (its heights are kept apart, below).
 */
export const PARSES_KEPT = 24;
/** Insertion order is recency: the first key is the least recently used. */
const blocksOf = new Map<PartedItem, MdBlock[]>();
let lastAsked: PartedItem | undefined;

/** The Markdown blocks of a finished answer, parsed when asked for and kept for the PARSES_KEPT answers asked for last. Do not modify. */
export function partBlocks(item: PartedItem): MdBlock[] {
  let blocks = blocksOf.get(item);
  if (blocks) {
    if (lastAsked !== item) {
      blocksOf.delete(item);
      blocksOf.set(item, blocks);
      lastAsked = item;
    }
    return blocks;
  }
  blocks = parseMarkdown(item.text);
  blocksOf.set(item, blocks);
  lastAsked = item;
  if (blocksOf.size > PARSES_KEPT) blocksOf.delete(blocksOf.keys().next().value as PartedItem);
  return blocks;
}

/** How many answers' parses are kept now (at most PARSES_KEPT). */
export function parsedAnswers(): number {
  return blocksOf.size;
}

/** Rows above the first block: the blank row that starts an answer (TranscriptItemView's top margin). */
export const LEAD_ROWS = 1;

function spanText(spans: readonly Span[]): string {
  return spans.map((s) => (s.link ? `${s.text} (${s.link})` : s.text)).join("");
}

/** Rows `block` takes drawn by Markdown at `width` columns (an estimate where Ink's wrapping of styled text differs). */
export function blockRows(block: MdBlock, width: number): number {
  const w = Math.max(1, width);
  switch (block.type) {
    case "heading":
    case "para":
      return rowCount(spanText(block.spans), w);
    case "bullet": {
      const marker = /^\d/.test(block.marker) ? block.marker.length + 1 : 2;
      return rowCount(spanText(block.spans), Math.max(1, w - block.indent * 2 - marker));
    }
    case "quote":
      return rowCount(spanText(block.spans), Math.max(1, w - 2));
    case "code":
      return block.lines.reduce((n, line) => n + rowCount(line === "" ? " " : line, Math.max(1, w - 2)), 0);
    case "table": {
      const t = layoutTable(block, w);
      return 3 + t.header.length + t.body.length;
    }
    case "rule":
    case "blank":
      return 1;
  }
}

/** One width's part heights: `rows[0]` is the lead row, `rows[i + 1]` block i; `total` their sum. */
interface PartHeights {
  width: number;
  rows: number[];
  total: number;
}

const heightsOf = new WeakMap<PartedItem, PartHeights[]>();
/** Widths whose heights are kept per item (resizing through many keeps the latest few). */
const KEPT_WIDTHS = 4;

function heightsAt(item: PartedItem, width: number): PartHeights {
  let list = heightsOf.get(item);
  const hit = list?.find((h) => h.width === width);
  if (hit) return hit;
  const rows = [LEAD_ROWS, ...partBlocks(item).map((b) => blockRows(b, width))];
  const made = { width, rows, total: rows.reduce((a, b) => a + b, 0) };
  if (!list) heightsOf.set(item, (list = []));
  if (list.length >= KEPT_WIDTHS) list.shift();
  list.push(made);
  return made;
}

/** Heights of the parts of `item` at `width` (index 0: the lead row; i + 1: block i), measured where drawn, else estimated. Do not modify. */
export function partRows(item: PartedItem, width: number): readonly number[] {
  return heightsAt(item, width).rows;
}

/** Rows of the whole of `item` at `width`: the sum of its parts' heights. */
export function partedRows(item: PartedItem, width: number): number {
  return heightsAt(item, width).total;
}

/** Records the drawn height of part `index` of `item` at `width`; true when it differs from what was assumed. */
export function recordPartRows(item: PartedItem, width: number, index: number, rows: number): boolean {
  const h = heightsAt(item, width);
  const before = h.rows[index];
  if (before === undefined || before === rows) return false;
  h.rows[index] = rows;
  h.total += rows - before;
  return true;
}

function blockText(block: MdBlock): string {
  switch (block.type) {
    case "code":
      return block.lines.join("\n");
    case "table":
      return [block.header, ...block.rows].map((r) => r.join(" ")).join("\n");
    case "rule":
    case "blank":
      return "";
    default:
      return spanText(block.spans);
  }
}

/**
 * The row of `item` at `width` where the first block holding `query` (case-insensitive) starts —
 * where a search hit inside a long answer is put at the top of the view; 0 for an item drawn whole
 * or when no block holds it as drawn (the query crossed inline markup).
 */
export function queryRow(item: TranscriptItem, query: string, width: number): number {
  const q = query.toLowerCase();
  if (!isParted(item) || q === "") return 0;
  const blocks = partBlocks(item);
  const rows = partRows(item, width);
  let row = rows[0]!;
  for (let i = 0; i < blocks.length; i++) {
    if (blockText(blocks[i]!).toLowerCase().includes(q)) return row;
    row += rows[i + 1]!;
  }
  return 0;
}

/** The parts to draw: indexes `[first, end)` of `heights` covering rows `[top, bottom)` of the item, and the rows they start and end at. */
export function partsCovering(heights: readonly number[], top: number, bottom: number): { first: number; end: number; from: number; to: number } {
  let first = 0;
  let from = 0;
  while (first < heights.length - 1 && from + heights[first]! <= top) from += heights[first++]!;
  let end = first;
  let to = from;
  while (end < heights.length && to < bottom) to += heights[end++]!;
  return { first, end, from, to };
}
