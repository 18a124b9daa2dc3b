/**
 * Text in terminal rows and cells, with the one wrapping that draws: a source line wider than the
 * width is wrapped as Ink's <Text> wraps it (ink-seam's wrapForLayout, which text-rows.ts draws
 * with too), so a count of rows is a count of drawn rows. Wrapped rows are kept per text and width
 * in the one bounded cache (components/terminal/bounded-cache.js), bounded by the characters it
 * holds as well: its keys are whole texts (a streaming answer is a new key at every length).
 */
import stringWidth from "string-width";
import { BoundedCache } from "../terminal/bounded-cache.js";
import { wrapForLayout } from "../terminal/ink-seam.js";

const cache = new BoundedCache<string, string[]>(2000, { weigh: (key, rows) => key.length + rows.reduce((n, r) => n + r.length, 0), budget: 200_000 });

/** Characters of the texts and rows held now (both generations); for tests. */
export const heldWrappedChars = () => cache.weight;

/** The rows `text` occupies at `width` columns, as Ink wraps it (each source line at least one row). */
export function wrapRows(text: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  const key = `${w}\u0000${text}`;
  return cache.get(key, () => {
    const rows: string[] = [];
    for (const line of text.split("\n")) {
      if (line === "") rows.push("");
      else rows.push(...(stringWidth(line) > w ? wrapForLayout(line, w, "wrap").split("\n") : [line]));
    }
    return rows;
  });
}

/** Display width of `text` in terminal cells. */
export function cellWidth(text: string): number {
  return stringWidth(text);
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
