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
 * row and, with `scroll`, the terminal's scroll region when the transcript moved up. Never inline:
 * on the normal screen tmux (and others) move the rows a region scroll pushes out into the
 * scrollback, which would copy live rows there. The cursor
 * ends where Ink's own erase expects it, so every other write of Ink's (its erase before static
 * output or a console message, a resize redraw) works as before. Anything the stream cannot vouch
 * for — the first frame after a resize, a frame as tall as the terminal, a write it does not
 * recognise — goes to the terminal as Ink wrote it. Inline, Ink erases its frame to print finished
 * items above it (static output) and draws the frame again; the stream holds that erase and draws
 * the static rows and the frame over the old frame instead, so a finished paragraph moving from
 * the live area to the scrollback costs the rows that changed, not the whole live area again.
 */
import stringWidth from "string-width";
import { fullscreenUpdate, inlineUpdate } from "./frame-diff.js";

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

/** The inkStream's own flush of a held erase (see `inkStderr`). */
const FLUSH = Symbol("ink-stream flush");

/**
 * Ink's stderr beside `inkStdout` (an inkStream): Ink writes to it between erasing its frame and
 * drawing it again (console.error above the UI), so a held erase goes out first and the text lands
 * where Ink expects it.
 */
export function inkStderr(inkStdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream): NodeJS.WriteStream {
  const flush = (inkStdout as NodeJS.WriteStream & { [FLUSH]?: () => void })[FLUSH];
  if (!flush) return stderr;
  return new Proxy(stderr, {
    get(target, prop) {
      if (prop === "write") {
        return (...args: unknown[]) => {
          flush();
          return (target.write as (...a: unknown[]) => boolean)(...args);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
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

export interface InkStreamOptions {
  /** Inline mode: keep the frame intact when the terminal narrows (see the module note). */
  reflow: boolean;
  /** Rewrite only what changed between frames: "inline" (relative moves) or "fullscreen" (the frame at the screen's top); absent: Ink's writes as they are. */
  frames?: "inline" | "fullscreen";
  /** Full-screen frames: let the terminal scroll a band of rows that moved up (scrollRegionSupport). */
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
  let columns = stdout.columns ?? 80;
  // Registered before Ink subscribes to the same emitter, so it runs first.
  stdout.on("resize", () => {
    const now = stdout.columns ?? columns;
    if (reflow && now < columns && frame) {
      const fix = reflowErase(frame, now);
      if (fix) stdout.write(fix);
    }
    columns = now;
    known = false;
  });
  const passOn = (chunk: unknown, rest: unknown[]) => (stdout.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  /**
   * Inline: Ink's erase of the frame before static output (or an app's write), held with what
   * follows it in the same tick — the static text, then the frame — so the pair is drawn as one
   * frame over the old one (see `drawHeld`). Mode switches (synchronized output) keep their place.
   */
  let held: { erase: string; previous: string; chunks: string[]; texts: number } | undefined;
  const flushHeld = () => {
    const h = held;
    if (!h) return;
    held = undefined;
    const drawn = drawHeld(h.previous, h.chunks, columns, stdout.rows ?? 24);
    if (drawn !== undefined) {
      frame = drawn.frame;
      for (const chunk of drawn.chunks) passOn(chunk, []);
      return;
    }
    // Not what the stream knows how to draw: everything as Ink wrote it.
    passOn(h.erase, []);
    for (const chunk of h.chunks) write(chunk);
  };
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (held) {
      if (typeof chunk === "string" && rest.length === 0 && (MODES_ONLY.test(chunk) || !ERASE_PREFIX.test(chunk))) {
        held.chunks.push(chunk);
        if (!MODES_ONLY.test(chunk) && ++held.texts === 2) flushHeld();
        return true;
      }
      flushHeld();
    }
    if (typeof chunk !== "string" || MODES_ONLY.test(chunk)) return passOn(chunk, rest);
    // Ink's last write (besides mode switches) is always its frame: static output and app writes are followed by one.
    const erase = ERASE_PREFIX.exec(chunk);
    const text = erase ? chunk.slice(erase[0].length) : chunk;
    const previous = frame;
    const wasKnown = known;
    frame = text;
    known = true;
    const matches = erase && wasKnown && previous && erasedRows(erase[0]) === previous.split("\n").length;
    if (frames === "inline" && matches && text === "" && rest.length === 0) {
      held = { erase: chunk, previous, chunks: [], texts: 0 };
      queueMicrotask(flushHeld); // Ink writes the erase, the static text and the frame in one go
      return true;
    }
    if (frames && matches && text.endsWith("\n")) {
      const before = rowsOf(previous);
      const after = rowsOf(text);
      const height = stdout.rows ?? 24;
      if (before.length < height && after.length < height) {
        return passOn(frames === "fullscreen" ? fullscreenUpdate(before, after, columns, scroll) : inlineUpdate(before, after, columns), rest);
      }
    }
    return passOn(chunk, rest);
  };
  return new Proxy(stdout, {
    get(target, prop) {
      if (prop === FLUSH) return flushHeld;
      if (prop === "write") return reflow || frames ? write : (stdout.write.bind(stdout) as typeof write);
      if (prop === "rows") return UNBOUNDED_ROWS;
      if (prop === "terminalRows") return target.rows;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Escape sequences other than SGR colours: text holding one is not drawn over a frame. */
const NOT_SGR = /\u001b(?!\[[0-9;]*m)/;

/**
 * The held erase's sequel (`chunks`: mode switches and one or two texts — static output then the
 * frame, or the frame alone) drawn over the frame `previous` as one frame, the static rows first:
 * the chunks to write (mode switches in place) and the frame left on screen. Undefined when a text
 * is not plain rows that fit `columns`, or the frame would not fit the terminal.
 */
function drawHeld(previous: string, chunks: string[], columns: number, height: number): { chunks: string[]; frame: string } | undefined {
  const texts = chunks.filter((c) => !MODES_ONLY.test(c));
  if (texts.length === 0) return undefined;
  if (texts.some((t) => !t.endsWith("\n") || NOT_SGR.test(t))) return undefined;
  const next = texts.flatMap(rowsOf);
  const frame = texts.at(-1)!;
  if (rowsOf(frame).length >= height || next.some((row) => stringWidth(row) > columns)) return undefined;
  const bytes = inlineUpdate(rowsOf(previous), next, columns);
  const last = chunks.lastIndexOf(frame);
  return { chunks: chunks.flatMap((c, i) => (MODES_ONLY.test(c) ? [c] : i === last ? [bytes] : [])), frame };
}

/** Rows Ink's erase prefix clears (one ESC[2K each). */
function erasedRows(prefix: string): number {
  return prefix.split("\u001b[2K").length - 1;
}
