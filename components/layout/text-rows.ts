/**
 * Ink's <Text> drawn to rows without Ink: the styles its Text applies (in its order), its wrapping
 * and truncating (ink-seam's wrapForLayout, the functions Ink's layout uses) and WrapText's
 * dropping of the space a continuation row broke at. The pure item renderer (item-lines.ts) builds
 * every row of a finished item from these, so a row is what the <Text> would have drawn.
 */
import chalk from "chalk";
import stringWidth from "string-width";
import { colorize, wrapForLayout } from "../terminal/ink-seam.js";

/** A <Text>'s style props. */
export interface TextStyle {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
}

/** `text` styled as Ink's Text styles its children (dim, colour, bold, italic, underline, in that order). */
export function paint(text: string, style: TextStyle | undefined): string {
  if (!style || text === "") return text;
  let out = text;
  if (style.dimColor) out = chalk.dim(out);
  if (style.color) out = colorize(out, style.color, "foreground");
  if (style.bold) out = chalk.bold(out);
  if (style.italic) out = chalk.italic(out);
  if (style.underline) out = chalk.underline(out);
  return out;
}

/** The widest line of `text` in cells. */
function widest(text: string): number {
  let w = 0;
  for (const line of text.split("\n")) w = Math.max(w, stringWidth(line));
  return w;
}

/** A <Text style> (wrap="wrap") of already styled children `text`, in a box `width` cells wide: its rows. */
export function textRows(text: string, width: number, style?: TextStyle): string[] {
  const w = Math.max(1, Math.floor(width));
  const fitted = widest(text) > w ? wrapForLayout(text, w, "wrap") : text;
  return fitted.split("\n").map((row) => paint(row, style));
}

/** A <Text style wrap="truncate-end"> of already styled children `text`: its one row, cut with … at `width`. */
export function truncRow(text: string, width: number, style?: TextStyle): string {
  const w = Math.max(1, Math.floor(width));
  return paint(stringWidth(text) > w ? wrapForLayout(text, w, "truncate-end") : text, style);
}

/** A row's leading space, after the escape codes that open its styles. */
const LEADING_SPACE = /^((?:\u001b\[[\d;]*m)*) /;

/** `row` without the space it starts with when it is a continuation row (index > 0): the space a wrapped line broke at. */
export function dropBreakSpace(row: string, index: number): string {
  return index > 0 ? row.replace(LEADING_SPACE, "$1") : row;
}

/**
 * A WrapText (views/WrapText.tsx) of one source line: `text` (children already styled) styled whole,
 * wrapped at `width`, without the space a row broke at on each continuation row (a text starting
 * with a space keeps it on its first row).
 */
export function wrapTextRows(text: string, width: number, style: TextStyle | undefined, startsWithSpace: boolean): string[] {
  const w = Math.max(1, Math.floor(width));
  const styled = paint(text, style);
  const rows = widest(styled) > w ? wrapForLayout(styled, w, "wrap").split("\n") : styled.split("\n");
  return rows.map((row, i) => (i > 0 || !startsWithSpace ? row.replace(LEADING_SPACE, "$1") : row));
}
