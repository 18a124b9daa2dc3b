/**
 * Frame diffing: the bytes that turn the frame on the terminal into the next one, writing only
 * what changed. Ink's frames are rows of text with SGR colour codes; a row is compared cell by
 * cell (character and the colours in force) and only the runs of changed cells are written, at
 * their columns — a spinner tick is its glyph, a streamed token the characters it added.
 *
 * Full-screen (the frame drawn from the top-left corner of the alternate screen) may also let the
 * terminal scroll: when the rows of a band moved up k rows (the transcript while an answer
 * streams), a scroll region over the band (DECSTBM `CSI top;bottom r`) scrolled by `CSI k S` moves
 * them without a byte of their text, and then the rows are patched as usual — the k new rows at
 * the band's foot, and anything fixed beside the transcript that the full-width scroll moved too
 * (the sidebar: its rows are written back at its columns). Left/right margins (DECSLRM) would
 * spare that, but tmux, kitty and Windows Terminal do not have them; the fix-up works everywhere.
 * A scroll is used only when it writes fewer bytes than patching the rows in place; several bands
 * may move in one frame (each row of side-by-side panes whose bodies moved up a row).
 *
 * Only rows of plain characters that are one column wide to every terminal (ASCII, Latin-1, box
 * drawing, arrows, braille, …) are patched cell by cell; any other row is rewritten whole from its
 * first column, so a terminal that counts a wide character differently cannot shift the patch.
 */
import stringWidth from "string-width";
import { BoundedCache } from "./bounded-cache.js";
import { scrollPlans, scrolled } from "./scroll-plan.js";
import { applySgr } from "./sgr-state.js";

const CSI = "\u001b[";
const RESET = `${CSI}0m`;

/** One-column characters we patch by column (see the module note); each is also checked with string-width. */
const NARROW_RANGES = /^[\u00a1-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf\u2800-\u28ff]$/;
const narrowCache = new BoundedCache<string, boolean>(1000);
/** Characters whose narrowness is held now (both generations); for tests. */
export const heldNarrowChecks = () => narrowCache.size;
const isNarrow = (ch: string): boolean => narrowCache.get(ch, (c) => NARROW_RANGES.test(c) && stringWidth(c) === 1);

/**
 * A row as cells: `text` holds one UTF-16 unit per cell (surrogate pairs are refused), `styles` the
 * SGR codes in force for each cell (open codes, in order; "" for none), or null when the row has none.
 */
export interface Cells {
  text: string;
  styles: string[] | null;
}

const SGR = /\u001b\[([0-9;]*)m/y;
/** Printable ASCII only: its own cells. */
const PLAIN = /^[\x20-\x7e]*$/;

/** The row `line` as cells, or undefined when it holds anything but one-column characters and SGR codes. */
export function cellsOf(line: string): Cells | undefined {
  if (PLAIN.test(line)) return { text: line, styles: null };
  let text = "";
  const styles: string[] = [];
  let open: string[] = [];
  let style = "";
  let from = 0; // start of the characters not yet added to `text`
  for (let i = 0; i < line.length; ) {
    const code = line.charCodeAt(i);
    if (code === 0x1b) {
      SGR.lastIndex = i;
      const m = SGR.exec(line);
      if (!m) return undefined;
      text += line.slice(from, i);
      i = from = SGR.lastIndex;
      open = applySgr(open, m[1]!);
      style = open.length ? open.map((c) => `${CSI}${c}m`).join("") : "";
      continue;
    }
    if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff)) return undefined;
    if (code > 0x7f && !isNarrow(line[i]!)) return undefined;
    styles.push(style);
    i++;
  }
  text += line.slice(from);
  return { text, styles };
}

/** Whether cell `i` of `a` and of `b` (both within their rows) are the same. */
const sameCell = (a: Cells, b: Cells, i: number) => a.text.charCodeAt(i) === b.text.charCodeAt(i) && (a.styles?.[i] ?? "") === (b.styles?.[i] ?? "");

/** Gaps of unchanged cells up to this long are rewritten rather than jumped over (a jump costs ~5 bytes). */
const MERGE_GAP = 5;

/**
 * cellsOf, remembered for the rows of the last few frames: at most 2,000 rows and 100,000
 * characters of rows a generation (a frame's rows twice over even at 200×60 or for an `--inline`
 * live area taller than the terminal; held by count alone, the soak kept ~5 MB here).
 */
const cellCache = new BoundedCache<string, Cells | null>(2000, { weigh: (line) => line.length, budget: 100_000 });

/** Characters of rows whose cells are held now (both generations); for tests. */
export const heldCellChars = () => cellCache.weight;
export function cachedCells(line: string): Cells | undefined {
  return cellCache.get(line, (l) => cellsOf(l) ?? null) ?? undefined;
}

/**
 * Gives the diff the cells of `line` straight from the renderer that drew it (components/terminal/
 * tree-rows.ts), so the row is not parsed back from its text; `cells` gives them (undefined:
 * rewritten whole), called only for a line the diff does not hold yet.
 */
export function primeCells(line: string, cells: () => Cells | undefined): void {
  if (cellCache.peek(line) !== undefined) return;
  cellCache.set(line, cells() ?? null);
}

/** The text of cells `from`–`to` of `c`, styled, starting and ending in the default style. */
function cellText(c: Cells, from: number, to: number): string {
  let out = "";
  let style = "";
  for (let i = from; i < to; i++) {
    const s = c.styles?.[i] ?? "";
    if (s !== style) {
      out += s.startsWith(style) ? s.slice(style.length) : RESET + s;
      style = s;
    }
    out += c.text[i];
  }
  return style ? out + RESET : out;
}

/**
 * How to change a row: text pieces at 0-based columns (each `width` columns wide; an `erase` piece
 * blanks its `width` cells with ECH and writes no text), then the rest of the row erased from
 * column `eraseFrom` when set.
 */
export interface RowPatch {
  pieces: { col: number; text: string; width: number; erase?: true }[];
  eraseFrom?: number;
}

/**
 * Runs of this many blank cells (a space in the default style) or more are erased with ECH
 * (`CSI n X`: 4–5 bytes and a column move after it) instead of written as spaces — a pane whose
 * body paged, a row cut shorter in the middle of a box.
 */
const ERASE_MIN = 12;

/** Whether cell `i` of `c` is blank: a space in the default style. */
const blankCell = (c: Cells, i: number) => c.text.charCodeAt(i) === 0x20 && !c.styles?.[i];

/** Cells `from`–`to` of `b` as pieces: text, with each run of ERASE_MIN or more blank cells an erase piece. */
function runPieces(b: Cells, from: number, to: number): RowPatch["pieces"] {
  const out: RowPatch["pieces"] = [];
  let start = from;
  for (let i = from; i < to; ) {
    if (!blankCell(b, i)) {
      i++;
      continue;
    }
    let end = i;
    while (end < to && blankCell(b, end)) end++;
    if (end - i >= ERASE_MIN) {
      if (i > start) out.push({ col: start, text: cellText(b, start, i), width: i - start });
      out.push({ col: i, text: "", width: end - i, erase: true });
      start = end;
    }
    i = end;
  }
  if (to > start) out.push({ col: start, text: cellText(b, start, to), width: to - start });
  return out;
}

/**
 * The patch turning row `old` into row `next` (both as Ink writes them: trimmed, SGR-coloured) on a
 * terminal `columns` wide; undefined when they are the same. Rows that are not plain cells are
 * rewritten whole.
 */
export function rowPatch(old: string, next: string, columns: number): RowPatch | undefined {
  if (old === next) return undefined;
  const a = cachedCells(old);
  const b = cachedCells(next);
  if (!a || !b) {
    const width = stringWidth(next);
    return { pieces: next ? [{ col: 0, text: next, width }] : [], eraseFrom: width < columns ? width : undefined };
  }
  const pieces: RowPatch["pieces"] = [];
  let runStart = -1;
  let runEnd = -1;
  const flush = () => {
    if (runStart >= 0) pieces.push(...runPieces(b, runStart, runEnd));
  };
  for (let i = 0; i < b.text.length; i++) {
    if (i < a.text.length ? sameCell(a, b, i) : blankCell(b, i)) continue; // past the old row's end the screen is blank
    if (runStart >= 0 && i - runEnd <= MERGE_GAP) {
      runEnd = i + 1;
      continue;
    }
    flush();
    runStart = i;
    runEnd = i + 1;
  }
  flush();
  const eraseFrom = a.text.length > b.text.length ? b.text.length : undefined;
  if (pieces.length === 0 && eraseFrom === undefined) return undefined; // the same cells, written differently
  return { pieces, eraseFrom };
}

/** The bytes of `patch`; `first` moves the cursor to its row at a 0-based column. */
function patchBytes(patch: RowPatch, first: (col: number) => string): string {
  let out = "";
  let col = -1; // the cursor's column after the last piece; -1 before the first
  const move = (to: number) => (col < 0 ? first(to) : col === to ? "" : `${CSI}${to + 1}G`);
  for (const piece of patch.pieces) {
    if (piece.erase) {
      out += `${move(piece.col)}${CSI}${piece.width}X`; // ECH leaves the cursor where it is
      col = piece.col;
      continue;
    }
    out += move(piece.col) + piece.text;
    col = piece.col + piece.width;
  }
  if (patch.eraseFrom !== undefined) out += `${move(patch.eraseFrom)}${CSI}K`;
  return out;
}

/**
 * About the bytes of the patch from `old` to `next` (0 when the same), counted without building it:
 * what a scroll is weighed by.
 */
function patchCost(old: string, next: string): number {
  if (old === next) return 0;
  const a = cachedCells(old);
  const b = cachedCells(next);
  if (!a || !b) return next.length + 10;
  let cost = a.text.length > b.text.length ? 6 : 0;
  let runEnd = -1;
  for (let i = 0; i < b.text.length; i++) {
    if (i < a.text.length ? sameCell(a, b, i) : blankCell(b, i)) continue; // past the old row's end the screen is blank
    cost += runEnd >= 0 && i - runEnd <= MERGE_GAP ? i + 1 - runEnd : 8;
    runEnd = i + 1;
  }
  return cost;
}

/**
 * Inline: the bytes that turn frame `prev` (rows, the cursor at the start of the row below it) into
 * `next`, leaving the cursor at the start of the row below `next` (where the inline frame owner
 * keeps it between frames). Cursor moves are relative; rows added at the foot are written with line
 * feeds (the terminal scrolls at the bottom; the rows below a frame are blank), rows dropped are
 * erased to the end of the screen. With `scroll`, a band of rows that moved up (an answer taller
 * than the live area) is moved by the terminal: lines deleted at the band's top (DL) and as many
 * inserted where its new rows come in (IL), which leaves the rows below in place. No scroll region:
 * on the normal screen tmux copies the rows a region scroll pushes out into the scrollback.
 */
export function inlineUpdate(prev: readonly string[], next: readonly string[], columns: number, scroll = false): string {
  const plain = inlinePatch(prev, next, columns, prev.length);
  // Frames of different heights too (a live area whose foot grows or shrinks by a row or two while
  // its answer moves up): the band is looked for among the rows both have.
  if (!scroll) return plain;
  let best = plain;
  let moved = "";
  let row = prev.length; // the cursor's row
  let on = prev;
  for (const plan of scrollPlans(prev, next, patchCost)) {
    const { top, bottom, by } = plan;
    const at = bottom - by + 1;
    moved += `${moved ? "" : RESET}${row > top ? `${CSI}${row - top}A` : row < top ? `${CSI}${top - row}B` : ""}\r${CSI}${by}M${CSI}${at - top}B${CSI}${by}L`;
    row = at;
    on = scrolled(on, plan);
    const bytes = moved + inlinePatch(on, next, columns, row);
    if (bytes.length < best.length) best = bytes;
  }
  return best;
}

/**
 * Inline: inlineUpdate for a frame that grew (`next` taller than `prev`: rows written above the
 * live frame, or a live area that grew). The rows both end with (the prompt and status under a
 * streaming answer) are moved down by the terminal instead of written again, when that writes
 * fewer bytes: as many rows as the frame grew are made below it (the terminal scrolls the top ones
 * into the scrollback), blank lines are inserted above the shared foot, pushing it down onto them,
 * and the rest is patched. The cursor starts and ends at the start of the row below the frame.
 */
export function inlineGrow(prev: readonly string[], next: readonly string[], columns: number, scroll = false): string {
  const plain = inlineUpdate(prev, next, columns, scroll);
  const n = next.length - prev.length;
  if (n <= 0) return plain;
  let best = plain;
  // The foot: the last rows, as many as start with a row both have there (a spinner or a shimmer in
  // it changes a cell or two a frame: those are patched after the move).
  for (let foot = 1; foot <= Math.min(prev.length, MAX_FOOT); foot++) {
    if (prev[prev.length - foot] !== next[next.length - foot]) continue;
    const top = prev.length - foot;
    // The cursor is left on the first inserted row: the patch starts there.
    const moved = `${RESET}${"\n".repeat(n)}${CSI}${n + foot}A${CSI}${n}L`;
    const on = [...prev.slice(0, top), ...Array.from({ length: n }, () => ""), ...prev.slice(top)];
    const bytes = moved + inlinePatch(on, next, columns, top);
    if (bytes.length < best.length) best = bytes;
  }
  return best;
}

/** The most rows inlineGrow moves down as the frame's foot (the prompt box, the status and key rows under the live area). */
const MAX_FOOT = 12;

/** inlineUpdate's patching of rows `prev` (on screen) into `next`, the cursor starting at the start of row `row`. */
function inlinePatch(prev: readonly string[], next: readonly string[], columns: number, row: number): string {
  let out = "";
  /**
   * The move from the cursor's row to `target` (relative). A row down is a line feed (one byte,
   * not four): every target is at most the row below the frame, on screen, so the row it leaves is
   * never the screen's last and nothing scrolls.
   */
  const goTo = (target: number) => {
    const move = target < row ? `${CSI}${row - target}A` : target === row + 1 ? "\n" : target > row ? `${CSI}${target - row}B` : "";
    row = target;
    return move;
  };
  const shared = Math.min(prev.length, next.length);
  for (let i = 0; i < shared; i++) {
    const patch = rowPatch(prev[i]!, next[i]!, columns);
    if (!patch) continue;
    // A row that got shorter is erased from its first column and written whole: a terminal that
    // reflows on a resize (tmux) keeps a row as wide as its last written cell until then (an erase
    // from a later column does not narrow it), and the frame would wrap onto rows the frame owner does
    // not know of — left behind above the next frame.
    if (patch.eraseFrom !== undefined && patch.eraseFrom > 0) out += `${goTo(i)}\r${CSI}2K${next[i]}`;
    else out += patchBytes(patch, (col) => goTo(i) + (col === 0 ? "\r" : `${CSI}${col + 1}G`));
  }
  if (next.length > prev.length) {
    out += goTo(prev.length);
    for (let i = prev.length; i < next.length; i++) out += `\r${next[i]}\n`;
    return `${out}\r`;
  }
  out += goTo(next.length);
  return `${out}\r${next.length < prev.length ? `${CSI}J` : ""}`;
}

/**
 * The bytes of patching rows `from` (on screen from its first row) into `to`. A row's first move is
 * the shorter of the absolute one (CUP) and one relative to where the previous row's patch left the
 * cursor (CUD, then CR, BS, CUB, CUF or CHA): the figures of rows one under the other (a column of
 * elapsed seconds) are a move of 4 bytes each instead of 8. Where the cursor is is known only after
 * a row of narrow cells whose patch ends left of the last column; else the move is absolute.
 */
function patchRows(from: readonly string[], to: readonly string[], columns: number): string {
  let out = "";
  /** The cursor after the last patch ([row, column], 0-based), when known. */
  let at: [number, number] | undefined;
  for (let i = 0; i < to.length; i++) {
    const patch = rowPatch(from[i] ?? "", to[i]!, columns);
    if (!patch) continue;
    const from_ = at;
    out += patchBytes(patch, (col) => cursorTo(i, col, from_));
    const end = patchEnd(patch);
    at = end !== undefined && end < columns && cachedCells(to[i]!) ? [i, end] : undefined;
  }
  for (let i = to.length; i < from.length; i++) if (from[i]) out += `${CSI}${i + 1};1H${CSI}K`;
  return out;
}

/** The column the cursor is left on by `patch`'s bytes (patchBytes), undefined when it writes nothing. */
function patchEnd(patch: RowPatch): number | undefined {
  if (patch.eraseFrom !== undefined) return patch.eraseFrom;
  const last = patch.pieces.at(-1);
  return last && (last.erase ? last.col : last.col + last.width);
}

/** The shortest move to row `row`, column `col` (0-based) from `at` (a row above it; unknown: absolute). */
function cursorTo(row: number, col: number, at: [number, number] | undefined): string {
  const absolute = `${CSI}${row + 1}${col > 0 ? `;${col + 1}` : ""}H`;
  if (!at || at[0] >= row) return absolute;
  const down = row - at[0] === 1 ? `${CSI}B` : `${CSI}${row - at[0]}B`;
  const back = at[1] - col;
  const across =
    back === 0 ? "" : col === 0 ? "\r" : back > 0 && back <= 2 ? "\b".repeat(back) : back > 0 ? `${CSI}${back}D` : `${CSI}${-back}C`;
  const alt = `${CSI}${col + 1}G`;
  const relative = down + (across.length <= alt.length ? across : alt);
  return relative.length < absolute.length ? relative : absolute;
}

/** The scroll region sequence: rows `top`–`bottom` (0-based, inclusive) scrolled up `by`, the region reset after. */
export function scrollBytes(top: number, bottom: number, by: number): string {
  return `${RESET}${CSI}${top + 1};${bottom + 1}r${CSI}${by}S${CSI}r`;
}

/**
 * Full-screen: the bytes that turn frame `prev` into `next`, both drawn from the screen's first row,
 * leaving the cursor at the start of the row below `next` (unless `below` is false: the caller puts
 * it elsewhere). With `scroll`, a band of rows that moved
 * up is scrolled by the terminal (DECSTBM + SU, see the module note) when that writes fewer bytes.
 */
export function fullscreenUpdate(prev: readonly string[], next: readonly string[], columns: number, scroll: boolean, below = true): string {
  let best = patchRows(prev, next, columns);
  if (scroll) {
    let moved = "";
    let on = prev;
    for (const plan of scrollPlans(prev, next, patchCost)) {
      moved += scrollBytes(plan.top, plan.bottom, plan.by);
      on = scrolled(on, plan);
      const bytes = moved + patchRows(on, next, columns);
      if (bytes.length < best.length) best = bytes;
    }
  }
  return below ? `${best}${CSI}${next.length + 1};1H` : best;
}
