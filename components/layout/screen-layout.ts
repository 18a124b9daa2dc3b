/**
 * screenLayout: the one place the screen's rows and columns are shared out, every frame, against
 * the terminal's real size. The frame Ink redraws is kept at most `rows - 1` tall: at `rows` Ink
 * switches to clearing the whole screen (and the scrollback) on every frame. The bottom — approval
 * question, session picker, prompt, status bar — is sized first; the transcript region (live items,
 * and in full-screen mode the scrolled history) gets the rest. The child-session sidebar stands
 * beside the region in a wide full-screen terminal when it lists something, and is stacked under
 * the live items otherwise.
 */
import type { ScreenMode } from "../state/ui-reducer.js";

/** Terminal width from which the sidebar stands beside the transcript (full-screen mode). */
export const SIDEBAR_COLUMN_MIN = 120;
/** Inline mode: terminal width from which the sidebar, when opened, goes beside the live items. */
export const INLINE_BESIDE_MIN = 100;
/** Rows of the status bar. */
export const STATUS_ROWS = 2;
/** Rows of the prompt box besides its text rows (the border). */
export const PROMPT_CHROME_ROWS = 2;
/** Rows of the sidebar besides its session rows: border, title, two group headings, two "more" lines. */
export const SIDEBAR_CHROME_ROWS = 7;
/** Rows a question needs at least: its border and two lines kept to one row each (the budget question's fallback). */
export const QUESTION_MIN_ROWS = 4;
/** Rows of the transcript overlay besides its text rows: border, title, position line. */
export const OVERLAY_CHROME_ROWS = 4;

export interface ScreenLayoutInput {
  mode: ScreenMode;
  columns: number;
  rows: number;
  /** Text rows the prompt shows now (its draft, menus). */
  promptRows: number;
  /** Rows of the approval question (0 when none). */
  approvalRows: number;
  /** The session picker is open. */
  picker: boolean;
  /** The sidebar is asked for: it has the keyboard, or (full-screen) it is toggled on to stand. */
  sidebar: boolean;
  /** Full-screen: the person toggled the standing sidebar off. */
  sidebarHidden?: boolean;
  /** The sidebar lists no child session: it does not stand (it still opens when asked for). */
  sidebarEmpty?: boolean;
  /** A child's transcript overlay replaces the live items. */
  overlay: boolean;
}

export interface ScreenLayout {
  /** Height of the frame Ink draws (full-screen: always this; inline: at most this). */
  frameRows: number;
  /** Rows under the transcript region: approval, picker, prompt, status bar. */
  bottomRows: number;
  /** Rows of the transcript region (history window and live items, or the overlay); none only while a question needs them. */
  regionRows: number;
  /** Columns of the transcript region. */
  regionColumns: number;
  /** Rows of the live items (inline: the region less the stacked sidebar). */
  liveRows: number;
  /** Rows the approval question may take (the input's, capped to fit the frame). */
  approvalRows: number;
  /** Rows of the session picker's list (0 when closed). */
  pickerRows: number;
  /** Text rows of the transcript overlay. */
  overlayRows: number;
  /** Where the sidebar goes and its size (session rows shown = `listRows`). */
  sidebar: { placement: "column" | "stacked" | "none"; columns: number; rows: number; listRows: number };
}

/** The layout for one frame. */
export function screenLayout(input: ScreenLayoutInput): ScreenLayout {
  const columns = Math.max(20, Math.floor(input.columns));
  const frameRows = Math.max(6, Math.floor(input.rows) - 1);
  const promptRows = PROMPT_CHROME_ROWS + Math.max(1, input.promptRows);
  const pickerRows = input.picker ? Math.max(3, Math.min(12, frameRows - promptRows - STATUS_ROWS - 6)) : 0;
  const pickerBox = input.picker ? pickerRows + 4 : 0;
  // The approval question may take what is left but a few rows of the region — and at least the
  // rows of its one-row-per-line fallback, taken from the region (down to none) on a short terminal.
  const room = Math.max(0, frameRows - promptRows - STATUS_ROWS - pickerBox);
  const approval = Math.min(input.approvalRows, Math.max(Math.min(QUESTION_MIN_ROWS, room), room - 3));
  const bottomRows = approval + pickerBox + promptRows + STATUS_ROWS;
  const regionRows = Math.max(approval > 0 ? 0 : 1, frameRows - bottomRows);
  const standing = input.mode === "fullscreen" && columns >= SIDEBAR_COLUMN_MIN && !input.sidebarHidden && !input.sidebarEmpty;
  const beside = standing || (input.sidebar && !input.overlay && columns >= INLINE_BESIDE_MIN);
  let sidebar: ScreenLayout["sidebar"] = { placement: "none", columns: 0, rows: 0, listRows: 0 };
  if (beside) {
    const width = Math.min(56, Math.floor(columns * (standing ? 0.32 : 0.4)));
    const rows = input.mode === "fullscreen" ? regionRows : Math.min(regionRows, 16);
    sidebar = { placement: "column", columns: width, rows, listRows: Math.max(1, rows - SIDEBAR_CHROME_ROWS) };
  } else if (input.sidebar && !input.overlay) {
    const rows = Math.max(1, Math.min(regionRows - 2, Math.max(SIDEBAR_CHROME_ROWS + 1, Math.min(16, Math.floor(regionRows / 2)))));
    sidebar = { placement: "stacked", columns, rows, listRows: Math.max(1, rows - SIDEBAR_CHROME_ROWS) };
  }
  const regionColumns = sidebar.placement === "column" ? columns - sidebar.columns : columns;
  const liveRows = Math.max(1, regionRows - (sidebar.placement === "stacked" ? sidebar.rows : 0));
  const overlayRows = Math.max(1, regionRows - OVERLAY_CHROME_ROWS);
  return { frameRows, bottomRows, regionRows, regionColumns, liveRows, approvalRows: approval, pickerRows, overlayRows, sidebar };
}
