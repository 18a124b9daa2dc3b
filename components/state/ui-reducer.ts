
/** Draw in the alternate screen with our own scrolling, or inline in the terminal's scrollback. */
export type ScreenMode = "fullscreen" | "inline";
/**
 * The screen's navigation state, pure: which area has the keyboard — the prompt, a running
 * child's pane, the sidebar of child sessions, a child's transcript overlay, the line asking for a
 * resumed child's new prompt (or a message for a running one), or the /resume session picker — plus the sidebar selection (by child
 * id, so it stays on its child when rows are added), the overlay's scroll position and the
 * picker's rows. The overlay's lines are not kept here: the screen derives them (live for a
 * running child).
 */

/** Who gets the keys. */
export type UiFocus = "prompt" | "pane" | "sidebar" | "overlay" | "resume" | "picker";

/** One row of the transcript overlay (already wrapped to the overlay's width). */
export interface OverlayLine {
  text: string;
  /** None: the transcript's Markdown styles; `plain`: the text as it is (a tool's output). */
  tone?: "user" | "tool" | "dim" | "error" | "heading" | "plain";
}

/** A child's transcript (or, `kind: "tools"`, the latest tool calls' whole output) shown over the live area. */
export interface Overlay {
  /** Absent: a child's transcript. */
  kind?: "tools";
  childId: string;
  /** `general [ab12cd]`: names the child in titles and the resume line. */
  label: string;
  /** First visible line (see overlayOffset). */
  offset: number;
  /** Stay on the last line as the transcript grows (a running child's live view). */
  follow: boolean;
}

/** A saved main session offered by /resume. */
export interface PickerRow {
  id: string;
  /** Last activity (ms since the epoch). */
  at: number;
  /** First line of its first prompt. */
  prompt: string;
}

export interface UiState {
  focus: UiFocus;
  /** The focused pane's child id (focus "pane"). */
  paneId?: string;
  /** The selected sidebar row's child id (undefined: the first row). */
  sidebarId?: string;
  overlay?: Overlay;
  /** The child a new prompt is being typed for (focus "resume"); `message`: a running child's, read at its next step. */
  resume?: { childId: string; label: string; message?: boolean; fromOverlay?: boolean };
  picker?: { rows: PickerRow[]; index: number };
}

export type UiAction =
  /** Tab / Shift-Tab: prompt → each running pane → sidebar → prompt. */
  | { type: "tab"; backwards?: boolean; panes: readonly string[] }
  | { type: "escape" }
  /** ↑/↓ in the sidebar; `ids` are the rows' child ids in display order. */
  | { type: "sidebar_move"; delta: number; ids: readonly string[] }
  /** Opens a child's transcript at the top, or following its end (`follow`). */
  | { type: "overlay_open"; childId: string; label: string; follow?: boolean }
  /** Opens the whole output of the latest tool calls (Ctrl-T). */
  | { type: "tools_open" }
  /** Scrolls by `delta` lines (±Infinity for the ends), within 0..maxOffset. */
  | { type: "overlay_scroll"; delta: number; maxOffset: number }
  | { type: "resume_ask"; childId: string; label: string }
  /** Typing on a focused running pane: a message for that child. */
  | { type: "message_ask"; childId: string; label: string; fromOverlay?: boolean }
  | { type: "picker_open"; rows: PickerRow[] }
  | { type: "picker_move"; delta: number }
  /** Back to the prompt, closing everything (after a resume was sent, a session was chosen, …). */
  | { type: "focus_prompt" };

export const INITIAL_UI: UiState = { focus: "prompt" };

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** The Tab order: the prompt, the running panes, the sidebar. */
type Stop = { focus: "prompt" } | { focus: "pane"; paneId: string } | { focus: "sidebar" };

function tabStops(panes: readonly string[]): Stop[] {
  return [{ focus: "prompt" }, ...panes.map((paneId) => ({ focus: "pane" as const, paneId })), { focus: "sidebar" }];
}

/** Applies one action (pure). */
export function reduceUi(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "tab": {
      if (state.focus !== "prompt" && state.focus !== "pane" && state.focus !== "sidebar") return state;
      const stops = tabStops(action.panes);
      const here = stops.findIndex((s) => s.focus === state.focus && (s.focus !== "pane" || s.paneId === state.paneId));
      const next = stops[(Math.max(0, here) + (action.backwards ? -1 : 1) + stops.length) % stops.length]!;
      return { ...state, focus: next.focus, paneId: next.focus === "pane" ? next.paneId : undefined };
    }
    case "escape":
      switch (state.focus) {
        case "overlay":
          return { ...state, focus: state.overlay?.kind === "tools" ? "prompt" : "sidebar", overlay: undefined };
        case "resume":
          if (state.resume?.message && !(state.resume.fromOverlay && state.overlay)) return { ...state, focus: "pane", paneId: state.resume.childId, resume: undefined };
          return { ...state, focus: state.overlay ? "overlay" : "sidebar", resume: undefined };
        case "picker":
          return { ...state, focus: "prompt", picker: undefined };
        case "pane":
        case "sidebar":
          return { ...state, focus: "prompt", paneId: undefined };
        default:
          return state;
      }
    case "sidebar_move": {
      if (action.ids.length === 0) return state;
      const next = clamp(selectedIndex(state, action.ids) + action.delta, 0, action.ids.length - 1);
      return { ...state, sidebarId: action.ids[next] };
    }
    case "overlay_open":
      return { ...state, focus: "overlay", overlay: { childId: action.childId, label: action.label, offset: 0, follow: action.follow ?? false } };
    case "tools_open":
      return { ...state, focus: "overlay", paneId: undefined, overlay: { kind: "tools", childId: "", label: "tool output", offset: 0, follow: false } };
    case "overlay_scroll": {
      if (!state.overlay) return state;
      const max = Math.max(0, action.maxOffset);
      const offset = clamp(overlayOffset(state.overlay, max) + action.delta, 0, max);
      const follow = max > 0 && offset === max;
      return offset === state.overlay.offset && follow === state.overlay.follow ? state : { ...state, overlay: { ...state.overlay, offset, follow } };
    }
    case "resume_ask":
      return { ...state, focus: "resume", resume: { childId: action.childId, label: action.label } };
    case "message_ask":
      return { ...state, focus: "resume", paneId: undefined, resume: { childId: action.childId, label: action.label, message: true, ...(action.fromOverlay ? { fromOverlay: true } : {}) } };
    case "picker_open":
      return { ...state, focus: "picker", paneId: undefined, picker: { rows: action.rows, index: 0 } };
    case "picker_move":
      if (!state.picker) return state;
      return { ...state, picker: { ...state.picker, index: clamp(state.picker.index + action.delta, 0, Math.max(0, state.picker.rows.length - 1)) } };
    case "focus_prompt":
      return { ...state, focus: "prompt", paneId: undefined, overlay: undefined, resume: undefined, picker: undefined };
  }
}

/** Index of the selected sidebar row among `ids` (0 when nothing, or a row no longer listed, was selected). */
export function selectedIndex(state: UiState, ids: readonly string[]): number {
  const i = state.sidebarId === undefined ? -1 : ids.indexOf(state.sidebarId);
  return Math.max(0, i);
}

/** The overlay's first visible line for a transcript whose last window starts at `maxOffset`. */
export function overlayOffset(overlay: Overlay, maxOffset: number): number {
  const max = Math.max(0, maxOffset);
  return overlay.follow ? max : clamp(overlay.offset, 0, max);
}

/** `state` with a focused pane whose child no longer runs handed back to the prompt. */
export function withRunningPanes(state: UiState, panes: readonly string[]): UiState {
  if (state.focus !== "pane" || (state.paneId !== undefined && panes.includes(state.paneId))) return state;
  return { ...state, focus: "prompt", paneId: undefined };
}
