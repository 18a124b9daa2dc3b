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
 */
import stringWidth from "string-width";

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

/**
 * The stream for Ink over `stdout`: never taller than Ink can fill (so Ink never clears the
 * scrollback), and with `reflow` (inline mode) the frame kept intact when the terminal narrows.
 */
export function inkStream(stdout: NodeJS.WriteStream, { reflow }: { reflow: boolean }): NodeJS.WriteStream {
  let frame = "";
  let columns = stdout.columns ?? 80;
  // Registered before Ink subscribes to the same emitter, so it runs first.
  if (reflow) stdout.on("resize", () => {
    const now = stdout.columns ?? columns;
    if (now < columns && frame) {
      const fix = reflowErase(frame, now);
      if (fix) stdout.write(fix);
    }
    columns = now;
  });
  const write = (chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && !MODES_ONLY.test(chunk)) {
      // Ink's last write (besides mode switches) is always its frame: static output and app writes are followed by one.
      const erase = ERASE_PREFIX.exec(chunk);
      frame = erase ? chunk.slice(erase[0].length) : chunk;
    }
    return (stdout.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  };
  return new Proxy(stdout, {
    get(target, prop) {
      if (prop === "write") return reflow ? write : (stdout.write.bind(stdout) as typeof write);
      if (prop === "rows") return UNBOUNDED_ROWS;
      if (prop === "terminalRows") return target.rows;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
