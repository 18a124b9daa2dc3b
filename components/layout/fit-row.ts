/**
 * fitRow: one row of parts fitted into `width` terminal cells by an explicit order of giving way,
 * so what is cut first is what matters least and nothing is ever wider than the row (issue #39
 * item 5, #41 item 3). Every view that draws a child on one row (its compact row, its pane's
 * header and figures, its summary line in the transcript, its sidebar row) and the status bar
 * lists its parts with their priorities here instead of doing its own arithmetic.
 *
 * A long filler part may first be cut to its `shrinkFirst` cells. Then, lowest priority first, parts give way one by one (equal priorities from the row's
 * end) — a part with `min` is first cut (ending in `…`) to no fewer than `min` cells, and dropped
 * only when that is not enough; one without `min` is dropped whole. Parts marked `keep` (a child's
 * description and short id, the glyph) never drop: once every other part has given way, a keep
 * part with `min` is cut down to it; and should even that not fit, the row itself is cut at the
 * width with `…`. Widths are terminal cells (string-width), so wide characters count twice.
 */
import stringWidth from "string-width";
import { cutToCells } from "./measure.js";

/** Priorities shared by the views, lowest (cut first) to highest. */
export const GIVE_WAY = {
  /** The model name a child or the session runs on, the provider. */
  model: 0,
  /** Token counts. */
  tokens: 1,
  /** Cost detail. */
  cost: 2,
  /** A report's first line, a running child's latest activity: cut to fill what is left, dropped below its `min`. */
  preview: 3,
  /** Turns, elapsed time, age, hints and other small figures. */
  figures: 4,
  /** A child's state in words when it needs attention (retrying, waiting for approval, failed). */
  alert: 5,
  /** The profile name beside the description. */
  profile: 6,
  /** Kept: a child's description (cut last of all, down to its `min`). */
  description: 8,
  /** Kept: the short id, the glyph. */
  id: 9,
} as const;

export interface RowPart {
  /** The part's text, its separator from the part before included (` · 1.2k tok`). */
  text: string;
  /** Order of giving way: lower gives way first (see GIVE_WAY). */
  priority: number;
  /** Fewest cells the part may be cut to (with `…`) before it is dropped (`keep`: before the row is cut). Omitted: never cut, only dropped. */
  min?: number;
  /** Never dropped; cut only after every other part has given way. */
  keep?: boolean;
  /** Cells a long filler (a report line, an activity) is cut to before any other part gives way. */
  shrinkFirst?: number;
}

/** `text` cut to at most `cells` terminal cells, ending in `…` when cut. */
export function cutCells(text: string, cells: number): string {
  if (cells <= 0) return "";
  return stringWidth(text) <= cells ? text : `${cutToCells(text, cells - 1)}…`;
}

/**
 * The parts fitted into `width` cells, in their order, each with its (possibly cut or emptied)
 * text; the other fields are kept, so a view draws each part with its own style. A dropped part's
 * text is "".
 */
export function fitRow<P extends RowPart>(parts: readonly P[], width: number): P[] {
  const w = Math.max(0, Math.floor(width));
  const out = parts.map((p) => ({ ...p }));
  const widths = out.map((p) => stringWidth(p.text));
  let over = widths.reduce((a, b) => a + b, 0) - w;
  if (over <= 0) return out;
  const order = (keep: boolean) =>
    out
      .map((p, i) => ({ p, i }))
      .filter(({ p }) => Boolean(p.keep) === keep)
      .sort((a, b) => a.p.priority - b.p.priority || b.i - a.i)
      .map(({ i }) => i);
  // Part i cut to `cells`, its width and what is still over the row counted once.
  const cutTo = (i: number, cells: number) => {
    out[i]!.text = cutCells(out[i]!.text, cells);
    const n = stringWidth(out[i]!.text);
    over -= widths[i]! - n;
    widths[i] = n;
  };
  // Shorten part i by `over` cells if it may be cut that far; else (unless kept) drop it.
  const giveWay = (i: number, drop: boolean) => {
    const part = out[i]!;
    const has = widths[i]!;
    if (has === 0) return;
    const min = part.min;
    if (min !== undefined && has > min && has - over >= Math.max(1, min)) {
      cutTo(i, has - over);
      return;
    }
    if (drop) {
      part.text = "";
      over -= has;
      widths[i] = 0;
    } else if (min !== undefined && has > min) {
      cutTo(i, min);
    }
  };
  for (let i = 0; i < out.length && over > 0; i++) {
    const first = out[i]!.shrinkFirst;
    if (first === undefined || widths[i]! <= first) continue;
    cutTo(i, Math.max(first, widths[i]! - over));
  }
  for (const i of order(false)) {
    if (over <= 0) return out;
    giveWay(i, true);
  }
  for (const i of order(true)) {
    if (over <= 0) return out;
    giveWay(i, false);
  }
  if (over <= 0) return out;
  // Even the kept parts do not fit: the row is cut at the width.
  let room = w;
  for (let i = 0; i < out.length; i++) {
    const has = widths[i]!;
    if (has <= room) {
      room -= has;
      continue;
    }
    out[i]!.text = cutCells(out[i]!.text, room);
    room = 0;
  }
  return out;
}

/** The fitted parts' texts joined: the row as plain text. */
export function fitRowText(parts: readonly RowPart[], width: number): string {
  return fitRow(parts, width)
    .map((p) => p.text)
    .join("");
}
