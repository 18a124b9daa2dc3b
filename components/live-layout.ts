/**
 * liveLayout: how big the redrawn (live) part of the screen may be. Ink redraws the whole
 * screen when the live part is taller than the terminal, so panes and streaming text are sized
 * to fit: panes side by side when the terminal is wide enough, fewer lines each when many run.
 */

/** Narrowest pane worth showing side by side. */
export const MIN_PANE_WIDTH = 44;
/** Rows of a pane that are not its body: borders, two header rows and the prompt. */
export const PANE_CHROME_ROWS = 5;
/** Rows kept for the prompt box, hint line and status bar. */
export const RESERVED_ROWS = 8;

/** Sizes for the live area. */
export interface LiveLayout {
  /** Panes per row. */
  perRow: number;
  /** Width of each pane. */
  paneWidth: number;
  /** Streamed-text lines per pane. */
  textLines: number;
  /** Tool-call lines per pane. */
  toolLines: number;
  /** Lines of the live (still streaming) assistant text. */
  assistantTail: number;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** The layout for `panes` running children and `otherItems` other live items in a terminal of columns × rows. */
export function liveLayout(opts: { columns: number; rows: number; panes: number; otherItems: number }): LiveLayout {
  const columns = Math.max(20, opts.columns);
  const liveRows = Math.max(8, opts.rows - RESERVED_ROWS);
  const others = opts.otherItems * 2;
  if (opts.panes === 0) return { perRow: 1, paneWidth: columns, textLines: 4, toolLines: 3, assistantTail: Math.max(3, liveRows - others) };
  const perRow = clamp(Math.floor(columns / MIN_PANE_WIDTH), 1, opts.panes);
  const paneRows = Math.ceil(opts.panes / perRow);
  const paneHeight = Math.floor(Math.max(0, liveRows - others - 3) / paneRows);
  // A pane is 2 border rows + 2 header rows + prompt + body.
  const body = Math.max(2, paneHeight - PANE_CHROME_ROWS);
  const toolLines = clamp(Math.floor(body / 2), 1, 3);
  const textLines = clamp(body - toolLines, 1, 6);
  const used = paneRows * (PANE_CHROME_ROWS + textLines + toolLines);
  return { perRow, paneWidth: Math.floor(columns / perRow), textLines, toolLines, assistantTail: Math.max(3, liveRows - others - used) };
}

/** First index to show of a list of `count` rows in `height` rows so that `selected` is visible (kept near the middle). */
export function listWindow(selected: number, count: number, height: number): number {
  const h = Math.max(1, height);
  if (count <= h) return 0;
  return clamp(selected - Math.floor(h / 2), 0, count - h);
}
