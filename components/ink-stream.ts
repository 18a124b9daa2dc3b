/**
 * The stream Ink draws to. Two guards sit between Ink and the terminal:
 *
 * Height. Ink clears the whole terminal — screen and scrollback, ESC[2J ESC[3J — whenever a frame
 * is as tall as the terminal. Our frames are budgeted one row shorter, but right after a resize
 * that shrinks the terminal Ink redraws the frame laid out for the old size. So Ink is told the
 * terminal is unboundedly tall; the UI reads the real height from `terminalRows`.
 *
 * Width, inline mode. Terminals (tmux, VTE, iTerm2) reflow on resize: a frame
 * line wider than the new width wraps onto more rows, while Ink erases as many rows as its frame
 * had lines — the top of the old frame is left behind as a broken copy above the new one. Clearing
 * the whole screen and scrollback would fix it at the cost of the person's history, so instead the
 * stream given to Ink remembers the last frame it wrote, and on a narrower width (before Ink's own
 * resize handler runs) the rows that frame now covers are erased and the cursor is put where Ink's
 * erase expects it. Nothing above the frame is touched.
 *
 * Bytes. Ink (its standard renderer) erases its whole frame and writes the next one, every row,
 * even when only a spinner glyph changed. With `frames`, the stream keeps the frame on screen and
 * turns each such erase-and-write into only the changed cells (components/frame-diff.ts): inline,
 * with cursor moves relative to the frame; full-screen, with absolute moves from the screen's top
 * row and, with `scroll`, the terminal's scroll region when the transcript moved up. Inline, with
 * `scroll`, a band that moved up is moved by deleting and inserting lines instead (a region scroll
 * on the normal screen would copy live rows into tmux's scrollback). The cursor
 * ends where Ink's own erase expects it, so every other write of Ink's (its erase before static
 * output or a console message, a resize redraw) works as before. Anything the stream cannot vouch
 * for — the first frame after a resize, a frame as tall as the terminal, a frame with a row wider
 * than the terminal (laid out for the width before a shrink: it wraps), a write it does not
 * recognise, Ink's erase before static output — goes to the terminal whole: inline as Ink wrote it
 * (after erasing the rows a wrapped frame spilled onto), full-screen from the screen's top-left
 * corner (Ink's erase, relative to a cursor that a wrapped frame or a console line moved, made a
 * wipe; a frame as tall as the screen without the line feed that would scroll it). Each update
 * then drops the colour resets that the next run of cells re-opens (components/sgr-peephole.ts).
 */
import stringWidth from "string-width";
import { cachedCells, fullscreenUpdate, inlineUpdate } from "./frame-diff.js";
import { compactSgr } from "./sgr-peephole.js";

const ESC = "\u001b[";
/** Ink's erase of its previous frame: ESC[2K (ESC[1A ESC[2K)* ESC[G, at the start of a frame write. */
const ERASE_PREFIX = /^(?:\u001b\[2K(?:\u001b\[1A)?)+\u001b\[G/;
/** Writes that are only mode switches (synchronized-output begin/end, cursor show/hide): not a frame. */
const MODES_ONLY = /^(?:\u001b\[\?\d+[hl])+$/;

/** Rows the frame `text` (ending in "\n") covers once reflowed to `columns`. */
export function reflowedRows(text: string, columns: number): number {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let rows = 0;
  for (const line of lines) rows += Math.max(1, Math.ceil(stringWidth(line) / Math.max(1, columns)));
  return rows;
}

/**
 * The escape sequence that, with the cursor just below a reflowed `frame`, erases every row it
 * covers at `columns` and leaves the cursor where Ink's erase of its `lines` lines then lands on
 * the frame's first row. Empty when nothing wrapped.
 */
export function reflowErase(frame: string, columns: number): string {
  const lines = frame.split("\n");
  const visible = frame.endsWith("\n") ? lines.length - 1 : lines.length;
  const rows = reflowedRows(frame, columns);
  if (rows <= visible) return "";
  return `${ESC}${rows}A\r${ESC}J${visible > 0 ? `${ESC}${visible}B` : ""}`;
}

/** Rows Ink is told the terminal has (see the module note). */
const UNBOUNDED_ROWS = 100_000;

/** The real terminal height of a stream made by inkStream (else its own `rows`). */
export function terminalRows(stdout: NodeJS.WriteStream): number | undefined {
  return (stdout as NodeJS.WriteStream & { terminalRows?: number }).terminalRows ?? stdout.rows;
}

/** Whether every row of `rows` (as Ink writes them) fits in `columns`: a wider row wraps onto more terminal rows than the frame has. */
export function rowsFit(rows: readonly string[], columns: number): boolean {
  for (const row of rows) {
    if (2 * row.length <= columns) continue; // no character is wider than two columns per UTF-16 unit
    const cells = cachedCells(row);
    if ((cells ? cells.text.length : stringWidth(row)) > columns) return false;
  }
  return true;
}

/** Rows of a frame as Ink writes it (ending in "\n"). */
const rowsOf = (frame: string) => frame.slice(0, -1).split("\n");

/**
 * Whether full-screen frames may scroll with the terminal's scroll region (DECSTBM + SU): from
 * `INK_SCROLL_REGION` (on, off or auto; anything else is reported through `warn` and taken as
 * auto), else from `TERM` — the xterm family, tmux, screen, kitty, alacritty, foot, wezterm, rxvt
 * and Windows Terminal (WT_SESSION) have it; the Linux console, `dumb` and unknown terminals get
 * row repaints.
 */
export function scrollRegionSupport(env: NodeJS.ProcessEnv, warn: (message: string) => void = () => {}): boolean {
  const setting = env.INK_SCROLL_REGION?.trim().toLowerCase();
  if (setting === "on") return true;
  if (setting === "off") return false;
  if (setting && setting !== "auto") warn(`INK_SCROLL_REGION=${env.INK_SCROLL_REGION} is not one of on, off, auto; using auto (set it to on or off to choose)`);
  if (env.WT_SESSION) return true;
  return /^(xterm|tmux|screen|kitty|xterm-kitty|alacritty|foot|wezterm|rxvt|vte|gnome|konsole|st-|iterm)/.test(env.TERM ?? "");
}

/**
 * Whether frames are written as only their changed cells (the default) or as Ink writes them
 * (`INK_FRAME_DIFF=off`: the fallback if a terminal ever shows a frame garbled).
 */
export function frameDiffEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.INK_FRAME_DIFF?.trim().toLowerCase() !== "off";
}

export interface InkStreamOptions {
  /** Inline mode: keep the frame intact when the terminal narrows (see the module note). */
  reflow: boolean;
  /** Rewrite only what changed between frames: "inline" (relative moves) or "fullscreen" (the frame at the screen's top); absent: Ink's writes as they are. */
  frames?: "inline" | "fullscreen";
  /** Let the terminal move a band of rows that moved up (scrollRegionSupport): full-screen by a scroll region, inline by deleting and inserting lines. */
  scroll?: boolean;
}

/**
 * The stream for Ink over `stdout`: never taller than Ink can fill (so Ink never clears the
 * scrollback), with `reflow` (inline mode) the frame kept intact when the terminal narrows, and
 * with `frames` only the changed cells of each frame written.
 */
export function inkStream(stdout: NodeJS.WriteStream, { reflow, frames, scroll = false }: InkStreamOptions): NodeJS.WriteStream {
  let frame = "";
  /** Whether `frame` is what the screen shows, where the cursor says (false after a resize, until Ink redraws). */
  let known = true;
  /** Whether every row of `frame` fit the terminal's width when it was written. */
  let fits = true;
  let columns = stdout.columns ?? 80;
  // Registered before Ink subscribes to the same emitter, so it runs first.
  stdout.on("resize", () => {
    const now = stdout.columns ?? columns;
    if (reflow && now < columns && frame) {
      const fix = reflowErase(frame, now);
      if (fix) stdout.write(fix);
      fits = true; // its wrapped rows are erased: Ink's erase now reaches the frame's top
    }
    columns = now;
    known = false;
  });
  const passOn = (chunk: unknown, rest: unknown[]) => (stdout.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (typeof chunk !== "string" || MODES_ONLY.test(chunk)) return passOn(chunk, rest);
    // Ink's last write (besides mode switches) is always its frame: static output and app writes are followed by one.
    const erase = ERASE_PREFIX.exec(chunk);
    const text = erase ? chunk.slice(erase[0].length) : chunk;
    const previous = frame;
    const wasKnown = known;
    const previousFits = fits;
    const after = text.endsWith("\n") ? rowsOf(text) : undefined;
    frame = text;
    // A row wider than the terminal (a frame laid out for the width before a resize) wraps onto
    // more rows than the frame has: the screen is not the frame, so nothing is diffed against it.
    fits = after === undefined || rowsFit(after, columns);
    known = fits;
    const matches = erase && wasKnown && previous && erasedRows(erase[0]) === previous.split("\n").length;
    const height = stdout.rows ?? 24;
    if (frames && matches && after && fits) {
      const before = rowsOf(previous);
      if (before.length < height && after.length < height) {
        return passOn(compactSgr(frames === "fullscreen" ? fullscreenUpdate(before, after, columns, scroll) : inlineUpdate(before, after, columns, scroll)), rest);
      }
    }
    if (frames === "fullscreen") {
      // Full-screen, a frame is drawn from the screen's top-left corner whatever the screen shows
      // and wherever the cursor is (a frame that wrapped, a line written beside the stream, a
      // resize): Ink's erase, which goes up from the cursor as many rows as its last frame had
      // lines, is made a wipe from the top, and so is the start of a frame Ink writes without one
      // (after its clear for a line of output: that line, with no scrollback here, is wiped too).
      // A frame as tall as the screen is shown whole: its last line feed would scroll it.
      if (erase || after) return passOn(`${ESC}H${ESC}J${after && after.length === height ? text.slice(0, -1) : text}`, rest);
      known = false; // a write it does not know (a BEL, an app's escape sequence): the next frame is drawn whole
    }
    // Inline, a frame that wrapped covers more rows than Ink erases: they are erased first.
    if (reflow && erase && !previousFits && previous) return passOn(reflowErase(previous, columns) + chunk, rest);
    return passOn(chunk, rest);
  };
  return new Proxy(stdout, {
    get(target, prop) {
      if (prop === "write") return reflow || frames ? write : (stdout.write.bind(stdout) as typeof write);
      if (prop === "rows") return UNBOUNDED_ROWS;
      if (prop === "terminalRows") return target.rows;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Rows Ink's erase prefix clears (one ESC[2K each). */
function erasedRows(prefix: string): number {
  return prefix.split("\u001b[2K").length - 1;
}
