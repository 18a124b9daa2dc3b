/**
 * Full-screen frames from rows of cells (components/terminal/tree-rows.ts) to terminal bytes: the
 * first frame (and the first after `invalidate`, e.g. a resize) drawn whole from the screen's
 * top-left corner, every later one as the cells that changed (components/terminal/frame-diff.ts, with the
 * terminal's scroll region when a band moved up), its SGR compacted. The rows' cells go to the diff
 * as they are (primeCells): nothing is parsed back from bytes. Rows are cut to the terminal's width
 * and the frame to its height. A frame the same as the one shown writes nothing.
 */
import stringWidth from "string-width";
import { fullscreenUpdate, inlineGrow, primeCells, type Cells } from "./frame-diff.js";
import { compactSgr } from "./sgr-peephole.js";
import type { CaretAt } from "./caret.js";
import type { FrameClock } from "./frame-phases.js";
import { rowLine, type CellRow } from "./tree-rows.js";

const ESC = "\u001b";
const CSI = "\u001b[";
/** Bytes that put nothing on screen: CSI and OSC sequences and bells. */
const CONTROLS_ONLY = /^(?:\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\))|\u0007)*$/;
/** Characters frame-diff patches by column (one UTF-16 unit, one column everywhere): see frame-diff's module note. */
const NARROW = /^[\x20-\x7e\u00a1-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf\u2800-\u28ff]$/;

/** `row` as frame-diff's Cells, or undefined when a cell is not a narrow one-unit character (the row is then rewritten whole). */
export function diffCells(row: CellRow): Cells | undefined {
  let end = row.chars.length;
  while (end > 0 && row.chars[end - 1] === " " && !row.styles[end - 1]) end--;
  let text = "";
  let styled = false;
  for (let i = 0; i < end; i++) {
    const ch = row.chars[i]!;
    if (!NARROW.test(ch)) return undefined;
    text += ch;
    if (row.styles[i]) styled = true;
  }
  return { text, styles: styled ? row.styles.slice(0, end) : null };
}

/**
 * Cuts `row` to `columns` cells (a wide character cut in half is dropped). When the cells cut off
 * held something (not only blanks), the last cell left is `…`: nothing is drawn wider than the
 * terminal, and a row that had to be cut says so.
 */
export function cut(row: CellRow, columns: number): CellRow {
  if (row.chars.length <= columns) return row;
  const w = Math.max(0, columns);
  const chars = row.chars.slice(0, w);
  if (row.chars[w] === "" && w > 0) chars[w - 1] = " ";
  if (w > 0 && row.chars.slice(w).some((ch) => ch !== " " && ch !== "")) {
    if (chars[w - 1] === "" && w > 1) chars[w - 2] = " "; // the … would split a wide character
    chars[w - 1] = "…";
  }
  return { chars, styles: row.styles.slice(0, w) };
}

export class TreeFrameWriter {
  private shown: string[] | undefined;
  /** Where the last frame left the cursor: the caret's cell ("row;col"), or "" for below the frame. */
  private parked = "";

  /** `clock`, when given, is told where each frame's time goes (frame-phases.ts): the cells, the diff, the write. */
  constructor(
    private readonly write: (bytes: string) => void,
    private readonly scroll: boolean,
    private readonly clock?: FrameClock,
  ) {}

  /** The bytes of a frame out: what was done since the last mark was the diff, then the write. */
  private emit(bytes: string): void {
    this.clock?.mark("diff");
    this.write(bytes);
    this.clock?.mark("write");
  }

  /** The screen no longer shows the last frame (a resize, a write beside the frames): the next is drawn whole. */
  invalidate(): void {
    this.shown = undefined;
  }

  /**
   * Draws `rows` on a `columns`×`height` screen and leaves the (hidden) cursor on `caret`, the
   * prompt's caret, when there is one on screen (every move in a frame is absolute, so the next
   * frame does not care where it was left).
   */
  draw(rows: readonly CellRow[], columns: number, height: number, caret?: CaretAt): void {
    const lines = fittedLines(rows.slice(0, height), columns);
    this.clock?.mark("cells");
    const shown = this.shown;
    this.shown = lines;
    const at = caret && caret.y < lines.length && caret.x < columns ? `${caret.y + 1};${caret.x + 1}` : "";
    const park = at ? `${CSI}${at}H` : "";
    if (shown && shown.length === lines.length && shown.every((l, i) => l === lines[i])) {
      // nothing changed: nothing written, unless the caret moved
      if (at && at !== this.parked) this.emit(park);
      this.parked = at;
      return;
    }
    const was = this.parked;
    this.parked = at;
    if (!shown) {
      this.emit(`${CSI}H${CSI}J${lines.join("\r\n")}${park || (lines.length < height ? `${CSI}${lines.length + 1};1H` : "")}`);
      return;
    }
    const patch = compactSgr(fullscreenUpdate(shown, lines, columns, this.scroll, !park));
    // The caret where the last frame left the cursor: saved before the patch and restored after it
    // (DECSC/DECRC, 4 bytes) when that is shorter than moving back to it (a spinner's step: 7–8).
    // Frames end in the default pen, which is also what DECSC saves.
    const stay = at && at === was ? `${ESC}7${patch}${ESC}8` : undefined;
    this.emit(stay && stay.length < patch.length + park.length ? stay : patch + park);
  }
}

/** `rows` cut to `columns` as the lines a terminal is sent, their cells handed to the diff. */
function fittedLines(rows: readonly CellRow[], columns: number): string[] {
  return rows.map((row) => {
    const fitted = cut(row, columns);
    const line = rowLine(fitted);
    primeCells(line, () => diffCells(fitted));
    return line;
  });
}

/**
 * Inline frames (the normal screen, the scrollback kept) from rows of cells: the live frame sits
 * at the foot of what the terminal shows, the cursor at the start of the row below it between
 * frames. Each frame is written as the cells that changed (frame-diff's inlineUpdate: relative
 * moves, with `scroll` a band that moved up moved by deleting and inserting lines); rows that
 * leave the live area for good (<Static>'s new items) are written once above it, into the
 * scrollback, and the frame whole again below them. A frame as tall as the terminal, or the first
 * after `invalidate`, is written whole, after erasing the one shown. Rows are cut to the
 * terminal's width, so a frame never wraps, and a frame to the terminal's height less one (the
 * cursor's row below it), its top rows first, so it never scrolls itself off the screen.
 */
export class InlineFrameWriter {
  /** The live frame's lines as on screen, the cursor at the start of the row below (or on the caret: `parked`). */
  private shown: string[] = [];
  private whole = false;
  /** Where the cursor was left: on the prompt's caret, `up` rows above the row below the frame; undefined: at the start of that row. */
  private parked: { up: number; x: number } | undefined;

  /** `clock`, when given, is told where each frame's time goes (frame-phases.ts): the cells, the diff, the write. */
  constructor(
    private readonly write: (bytes: string) => void,
    private readonly scroll: boolean,
    private readonly clock?: FrameClock,
  ) {}

  /** The bytes of a frame out: what was done since the last mark was the diff, then the write. */
  private emit(bytes: string): void {
    this.clock?.mark("diff");
    this.write(bytes);
    this.clock?.mark("write");
  }

  /** The screen may not show the last frame as it was drawn: the next is erased and written whole. */
  invalidate(): void {
    this.whole = true;
  }

  /**
   * The terminal narrowed to `columns`: it rewrapped the frame's rows wider than that onto more
   * rows. Every row the frame now covers is erased (nothing above it is touched); the next frame
   * is written from there.
   */
  narrowed(columns: number): void {
    const width = Math.max(1, columns);
    const covers = (line: string) => Math.max(1, Math.ceil(stringWidth(line) / width));
    let rows = 0;
    for (const line of this.shown) rows += covers(line);
    const parked = this.parked;
    this.parked = undefined;
    if (rows > 0 && !parked) this.write(eraseUp(rows));
    else if (rows > 0 && parked) {
      // The cursor was on the caret: its row moved with the rewrapped rows above it and its own.
      const y = this.shown.length - parked.up;
      let above = Math.floor(parked.x / width);
      for (const line of this.shown.slice(0, y)) above += covers(line);
      this.write(`${above > 0 ? `${CSI}${above}A` : ""}\r${CSI}2K${`${CSI}1B${CSI}2K`.repeat(rows - 1)}${rows > 1 ? `${CSI}${rows - 1}A` : ""}`);
    }
    this.shown = [];
    this.whole = false;
  }

  /** The cursor back at the start of the row below the frame (drawing stops: what follows is written there). */
  release(): void {
    const back = this.back();
    if (back) this.write(back);
  }

  /** The move from where the cursor was left back to the start of the row below the frame. */
  private back(): string {
    const parked = this.parked;
    this.parked = undefined;
    return parked ? `${CSI}${parked.up}B\r` : "";
  }

  /**
   * Writes `data` beside the frame. Escape sequences and bells alone (a notification) are written
   * as they are and leave the frame be; text goes where the frame was, erased first, and true is
   * returned: the frame is to be drawn again, below it.
   */
  beside(data: string): boolean {
    if (CONTROLS_ONLY.test(data)) {
      this.write(data);
      return false;
    }
    this.write(`${this.back()}${eraseUp(this.shown.length)}${data}`);
    this.shown = [];
    this.whole = false;
    return true;
  }

  /**
   * Draws the live `rows`, with `above` (rows leaving the live area) written once above them, on a
   * terminal `columns`×`height`, and leaves the (hidden) cursor on `caret`, the prompt's caret,
   * when there is one in the frame.
   */
  draw(rows: readonly CellRow[], columns: number, height: number, above: readonly CellRow[] = [], caret?: CaretAt): void {
    // Never taller than the terminal less the cursor's row below it: the oldest (top) rows are cut.
    const keep = Math.max(1, Math.floor(height) - 1);
    const cutRows = rows.length > keep ? rows.slice(rows.length - keep) : rows;
    const shift = rows.length - cutRows.length;
    if (caret && shift > 0) caret = caret.y >= shift ? { x: caret.x, y: caret.y - shift } : undefined;
    const lines = fittedLines(cutRows, columns);
    const aboveLines = above.length > 0 ? fittedLines(above, columns) : [];
    this.clock?.mark("cells");
    const shown = this.shown;
    this.shown = lines;
    const was = this.parked;
    const park = caret && caret.y < lines.length && caret.x < columns ? { up: lines.length - caret.y, x: caret.x } : undefined;
    const parkBytes = park ? `${CSI}${park.up}A${park.x > 0 ? `${CSI}${park.x + 1}G` : ""}` : "";
    if (above.length > 0) {
      // The rows above and the frame are written as one taller frame over the one shown: the rows
      // they share are patched, the rest written below, the terminal scrolling the top ones into
      // the scrollback. A streaming answer's rows that settled were mostly on screen already.
      const all = [...aboveLines, ...lines];
      const patch = !this.whole && shown.length < height;
      this.whole = false;
      this.emit(this.back() + (patch ? compactSgr(inlineGrow(shown, all, columns, this.scroll)) : over(shown.length, all)) + parkBytes);
    } else if (!this.whole && shown.length === lines.length && shown.every((l, i) => l === lines[i])) {
      // nothing changed (however tall the frame): nothing written, unless the caret moved
      if (was?.up === park?.up && was?.x === park?.x) return;
      this.emit(this.back() + parkBytes);
    } else if (this.whole || shown.length >= height || lines.length >= height) {
      // rows scrolled off the top cannot be reached to patch: a frame as tall as the terminal is written whole
      this.whole = false;
      this.emit(this.back() + over(shown.length, lines) + parkBytes);
    } else this.emit(this.back() + compactSgr(inlineGrow(shown, lines, columns, this.scroll)) + parkBytes);
    this.parked = park;
  }
}

/**
 * From the start of the row below a frame of `rows` rows: every row erased, bottom up, the cursor
 * left at the start of its first row. Row by row, not one erase to the end of the screen: tmux
 * moves the whole screen into the scrollback when that erase starts at its top-left corner.
 */
function eraseUp(rows: number): string {
  return rows > 0 ? `${`${CSI}1A${CSI}2K`.repeat(rows)}\r` : "";
}

/**
 * From the start of the row below a frame of `rows` rows: `lines` written from that frame's first
 * row, each row of the old frame erased just before it is written over (a row is erased before,
 * not after: an erase after a row as wide as the terminal would take its last cell), the rest of
 * the old frame erased below them; the cursor ends at the start of the row below `lines`.
 */
function over(rows: number, lines: readonly string[]): string {
  if (lines.length === 0) return eraseUp(rows);
  let out = rows > 0 ? `\r${CSI}${rows}A` : "";
  lines.forEach((line, i) => (out += `${i < rows ? `${CSI}2K` : ""}${line}\n`));
  return lines.length < rows ? `${out}${CSI}J` : out;
}
