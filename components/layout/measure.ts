/**
 * Measuring text in terminal rows the way Ink draws it: Ink wraps a <Text> with wrap-ansi
 * (`hard: true, trim: false`) and measures cells with string-width, so these helpers do the same.
 * Results are cached per text and width (components/terminal/bounded-cache.js), so re-measuring an unchanged item is cheap
 * and a resize simply measures at the new width.
 */
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";
import { BoundedCache } from "../terminal/bounded-cache.js";
import { asciiRows } from "./ascii-rows.js";

const cache = new BoundedCache<string, string[]>(2000);

/** The rows `text` occupies at `width` columns, as Ink wraps it (each source line at least one row). */
export function wrapRows(text: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  const key = `${w}\u0000${text}`;
  return cache.get(key, () => {
    const rows: string[] = [];
    for (const line of text.split("\n")) {
      if (line === "") rows.push("");
      else rows.push(...wrapAnsi(line, w, { hard: true, trim: false }).split("\n"));
    }
    return rows;
  });
}

const ASCII_LINES = /^[\x20-\x7e\n]*$/;

/** Number of terminal rows `text` takes at `width` columns (printable ASCII counted without wrapping it). */
export function rowCount(text: string, width: number): number {
  if (!ASCII_LINES.test(text)) return wrapRows(text, width).length;
  const w = Math.max(1, Math.floor(width));
  let rows = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    rows += asciiRows(text.slice(start, end), w);
    start = end + 1;
  }
  return rows;
}

/** Display width of `text` in terminal cells. */
export function cellWidth(text: string): number {
  return stringWidth(text);
}

/**
 * The end of `text` that fits in `maxRows` rows at `width`, cut at a source-line boundary when
 * possible (else mid-line, at a wrapped-row boundary), so the newest words are always shown.
 */
export function tailToRows(text: string, width: number, maxRows: number): string {
  const budget = Math.max(1, Math.floor(maxRows));
  const lines = text.split("\n");
  let used = 0;
  let start = lines.length;
  while (start > 0) {
    const n = rowCount(lines[start - 1]!, width);
    if (used + n > budget) break;
    used += n;
    start--;
  }
  const whole = lines.slice(start);
  if (start === 0 || used === budget) return whole.join("\n");
  // Part of the line before: its last wrapped rows.
  const partial = wrapRows(lines[start - 1]!, width).slice(-(budget - used)).join("");
  return [partial.trimStart(), ...whole].join("\n");
}

/** The start of plain `text` that fits in `w` terminal cells. */
export function cutToCells(text: string, w: number): string {
  let out = "";
  let used = 0;
  for (const ch of text) {
    const n = stringWidth(ch);
    if (used + n > w) break;
    out += ch;
    used += n;
  }
  return out;
}

/**
 * The hanging indent of an indented listing line (`  /cost  what it shows…`, `  key  meaning`): the
 * column its text goes on from after the first gap of two spaces (when that gap ends in the row's
 * left half); else, for a table row (`  name  $0.01  12k tokens (in …)`, /cost), the column of its last
 * field (after its last gap of two spaces) when 20 columns are left from there; else its leading
 * spaces; 0 for a line that does not start with a space. Continuation rows of the line start at
 * this column instead of column 0 (WrapLines `hanging`).
 */
export function hangOf(line: string, width: number): number {
  const lead = /^ +/.exec(line)?.[0].length ?? 0;
  if (lead === 0) return 0;
  const gap = /^ +[\x21-\x7e]+(?: [\x21-\x7e]+)?? {2,}(?=\S)/.exec(line);
  if (gap && gap[0].length <= Math.floor(width / 2)) return gap[0].length <= width - 20 ? gap[0].length : 0;
  const last = [...line.matchAll(/\S {2,}(?=\S)/g)].map((m) => m.index + m[0].length).filter((at) => at <= width - 20).pop();
  if (last !== undefined && cellWidth(line) > width) return last;
  return lead <= width - 20 ? lead : 0;
}

/** Rows of `text` at `width` with each indented line's continuation rows hung at hangOf (WrapLines `hanging`). */
export function hangingRowCount(text: string, width: number): number {
  let rows = 0;
  for (const line of text.split("\n")) {
    const hang = hangOf(line, width);
    rows += hang === 0 ? rowCount(line, width) : rowCount(line.slice(hang), width - hang);
  }
  return rows;
}
