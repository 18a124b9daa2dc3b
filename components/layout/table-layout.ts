/**
 * Table layout: a Markdown table's cells drawn as box-ruled rows of aligned columns that never
 * exceed a given width; at a narrow width the widest columns give up room first and their cells
 * wrap over several rows. Pure: returns the text rows.
 */
import stringWidth from "string-width";
import type { CellAlign, TableData } from "../markdown/parse-markdown.js";
import { cutToCells, wrapRows } from "./measure.js";

export type { CellAlign, TableData };

/** The narrowest a column is squeezed to before the table is simply cut. */
const MIN_COLUMN = 3;

/** The widest word (run without spaces) of any cell of column `c`: the column's unbreakable width. */
function longestWord(table: TableData, c: number): number {
  let widest = 1;
  for (const row of [table.header, ...table.rows]) for (const word of (row[c] ?? "").split(/\s+/)) widest = Math.max(widest, stringWidth(word));
  return widest;
}

/**
 * columnWidths: column content widths for `table` within `width` columns (borders and padding
 * included). A table too wide takes one column at a time from the widest column that can give
 * without breaking a word; only when none can do columns give up room mid-word (widest first).
 */
export function columnWidths(table: TableData, width: number): number[] {
  const n = Math.max(1, table.header.length);
  const natural = Array.from({ length: n }, (_, c) => Math.max(1, ...[table.header, ...table.rows].map((r) => stringWidth(r[c] ?? ""))));
  const words = Array.from({ length: n }, (_, c) => Math.min(natural[c]!, longestWord(table, c)));
  const room = Math.max(n * MIN_COLUMN, Math.floor(width) - (3 * n + 1));
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0);
  /** The widest column whose width is above `floor(c)`, or -1. */
  const widestAbove = (floor: (c: number) => number): number => {
    let widest = -1;
    for (let c = 0; c < n; c++) if (widths[c]! > floor(c) && (widest < 0 || widths[c]! > widths[widest]!)) widest = c;
    return widest;
  };
  while (total > room) {
    let c = widestAbove((i) => Math.max(MIN_COLUMN, words[i]!));
    if (c < 0) c = widestAbove(() => MIN_COLUMN);
    if (c < 0) break;
    widths[c]!--;
    total--;
  }
  return widths;
}

function pad(text: string, w: number, align: CellAlign): string {
  const gap = Math.max(0, w - stringWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(Math.ceil(gap / 2));
  return text + " ".repeat(gap);
}

function rule(widths: number[], left: string, mid: string, right: string): string {
  return left + widths.map((w) => "─".repeat(w + 2)).join(mid) + right;
}

function rowLines(cells: string[], widths: number[], align: CellAlign[]): string[] {
  const wrapped = widths.map((w, c) => wrapRows((cells[c] ?? "").trim(), w).map((l) => l.trim()));
  const height = Math.max(1, ...wrapped.map((w) => w.length));
  return Array.from({ length: height }, (_, i) => `│ ${widths.map((w, c) => pad(wrapped[c]![i] ?? "", w, align[c] ?? "left")).join(" │ ")} │`);
}

/**
 * The table's rows: top rule, header, a rule under it, the body rows, bottom rule. When even the
 * narrowest columns do not fit, each row is cut at `width` (the table is never wider).
 */
export function layoutTable(table: TableData, width: number): { header: string[]; body: string[]; rules: { top: string; mid: string; bottom: string } } {
  const widths = columnWidths(table, width);
  const w = Math.max(1, Math.floor(width));
  const cut = (line: string) => (stringWidth(line) > w ? cutToCells(line, w) : line);
  return {
    rules: { top: cut(rule(widths, "┌", "┬", "┐")), mid: cut(rule(widths, "├", "┼", "┤")), bottom: cut(rule(widths, "└", "┴", "┘")) },
    header: rowLines(table.header, widths, table.align).map(cut),
    body: table.rows.flatMap((r) => rowLines(r, widths, table.align)).map(cut),
  };
}
