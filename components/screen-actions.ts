/**
 * What the screen's navigation keys do (the handlers useScreenKeys calls), built from the
 * screen's current state, and the /resume picker's rows. Kept apart from MainScreen so the screen
 * is layout and wiring.
 */
import type { Dispatch } from "react";
import type { TuiSession } from "../src/host/tui-session.js";
import { firstLine } from "./state/format.js";
import { childLabel, PROMPT_LABEL_TITLE_MAX, promptChildLabel } from "./state/child-transcript.js";
import type { ScreenKeyHandlers } from "./hooks/use-screen-keys.js";
import type { SidebarRow } from "./state/sidebar-rows.js";
import type { PickerRow, UiAction, UiState } from "./state/ui-reducer.js";
import type { AgentStream } from "./hooks/use-agent-stream.js";
import type { TranscriptItem } from "./state/transcript-types.js";

/** The screen state the key handlers act on. */
export interface ScreenContext {
  ui: UiState;
  dispatch: Dispatch<UiAction>;
  /** Running children's ids (Tab stops). */
  panes: readonly string[];
  childRows: readonly SidebarRow[];
  /** The transcript's items, read when a key needs them (a running child not yet in the sidebar is named from its row there). */
  items: () => readonly TranscriptItem[];
  /** Index of the selected sidebar row. */
  selected: number;
  /** Last first-line of the overlay's scroll range. */
  maxOffset: number;
  /** Lines the overlay shows at once. */
  pageRows: number;
  stream: AgentStream;
  setHint: (hint: string | undefined) => void;
  /** Whether the session saves children's transcripts (false with --no-session-persistence or a session kept in memory). */
  saves?: boolean;
  onResumeSession?: (id: string) => string | undefined;
}

/** The hint when something needs the run to be over first. */
export const BUSY = "a run is in progress — wait for it to finish, or press Ctrl-C to stop it";
const NO_RESUME = "/resume is not available in this UI (no session factory was given)";

/** The other saved main sessions of the session's directory, newest first, as picker rows. */
export function savedMainSessions(session: TuiSession): PickerRow[] {
  if (!session.store) return [];
  const { cwd, sessionId } = session.facts();
  return session.store
    .list({ cwd, kind: "main" })
    .filter((s) => s.id !== sessionId)
    .map((s) => ({ id: s.id, at: s.mtimeMs, prompt: firstLine(s.prompt ?? "") }));
}

/** The handlers for the keys of the focused area. */
export function screenKeyHandlers(ctx: ScreenContext): ScreenKeyHandlers {
  const { ui, dispatch, stream, setHint } = ctx;
  return {
    tab: (backwards) => dispatch({ type: "tab", backwards, panes: ctx.panes }),
    escape: () => dispatch({ type: "escape" }),
    toolOutput: () => dispatch(ui.overlay?.kind === "tools" ? { type: "focus_prompt" } : { type: "tools_open" }),
    stopPane: () => {
      if (!ui.paneId) return;
      if (!stream.stopChild(ui.paneId)) return setHint("that child is not running any more");
      const label = promptChildLabel(ui.paneId, ctx.childRows, ctx.items());
      stream.notice(ctx.saves === false ? `⏹ stopped ${label}: this run saves no sessions, so it cannot be resumed; what it did so far goes to the main agent in its result` : `⏹ stopped ${label}: its work so far is saved and it stays resumable — Tab to the sidebar, Enter on it, then r`, "warn");
    },
    wakePane: () => {
      if (ui.paneId && !stream.wakeChild(ui.paneId)) setHint("that child is not paused");
    },
    move: (delta) => {
      if (ui.focus === "overlay") dispatch({ type: "overlay_scroll", delta, maxOffset: ctx.maxOffset });
      else if (ui.focus === "picker") dispatch({ type: "picker_move", delta });
      else dispatch({ type: "sidebar_move", delta, ids: ctx.childRows.map((r) => r.id) });
    },
    page: (delta) => dispatch({ type: "overlay_scroll", delta: delta * Math.max(1, ctx.pageRows - 1), maxOffset: ctx.maxOffset }),
    edge: (end) => dispatch({ type: "overlay_scroll", delta: end ? Infinity : -Infinity, maxOffset: ctx.maxOffset }),
    open: () => {
      if (ui.focus === "picker") {
        const row = ui.picker?.rows[ui.picker.index];
        if (!row) return dispatch({ type: "escape" });
        const error = ctx.onResumeSession ? ctx.onResumeSession(row.id) : NO_RESUME;
        if (error !== undefined) {
          dispatch({ type: "focus_prompt" });
          stream.notice(error, "error");
        }
        return;
      }
      if (ui.focus === "pane") {
        // The sidebar's rows may not be listed yet; a running pane's child is in the stream.
        if (ui.paneId) dispatch({ type: "overlay_open", childId: ui.paneId, label: childLabel(ctx.childRows.find((r) => r.id === ui.paneId) ?? { id: ui.paneId }, PROMPT_LABEL_TITLE_MAX), follow: true });
        return;
      }
      const row = ctx.childRows[ctx.selected];
      // A running child's transcript follows its live end.
      if (row) dispatch({ type: "overlay_open", childId: row.id, label: childLabel(row, PROMPT_LABEL_TITLE_MAX), follow: row.status === "running" });
    },
    resume: () => {
      const overlay = ui.overlay;
      if (ui.focus !== "overlay" || !overlay || overlay.kind === "tools") return;
      const status = ctx.childRows.find((r) => r.id === overlay.childId)?.status ?? "unknown";
      // A running child cannot be resumed, but it reads a message at its next step: r writes it one.
      if (status === "running") return dispatch({ type: "message_ask", childId: overlay.childId, label: promptChildLabel(overlay.childId, ctx.childRows, ctx.items()), fromOverlay: true });
      if (stream.isRunning()) return setHint(BUSY);
      dispatch({ type: "resume_ask", childId: overlay.childId, label: overlay.label });
    },
  };
}

/**
 * The second input box and typing away from the prompt: `submitResume` sends the box's text —
 * a message for a running child (its pane focused again) or a finished child's new prompt;
 * `typeWhileAway` hands typing on the sidebar to the prompt; `typeToChild` turns typing on a
 * focused running pane (every letter, `x` too) into a message for that child. `asking`: an approval is open.
 */
export function childBoxHandlers(ctx: ScreenContext, asking: boolean) {
  const { ui, dispatch, stream, setHint } = ctx;
  return {
    submitResume: (text: string): boolean => {
      const target = ui.resume;
      if (!target || text.trim() === "") return false;
      if (target.message) {
        if (!stream.messageChild(target.childId, text.trim())) {
          setHint(`${target.label} is not running any more — open it in the sidebar and press r to resume it with this`);
          return false;
        }
        dispatch({ type: "escape" }); // back to its pane, to watch it read the message
        stream.notice(`✉ to ${target.label}: ${text.trim()} — queued; it reads it at its next step`, "dim");
        return true;
      }
      if (!stream.resumeChild(target.childId, target.label, text.trim())) {
        setHint(BUSY);
        return false;
      }
      dispatch({ type: "focus_prompt" });
      return true;
    },
    typeWhileAway: (_raw: string): boolean => {
      if (asking || ui.focus !== "sidebar") return false;
      dispatch({ type: "focus_prompt" });
      return true;
    },
    typeToChild: (raw: string): boolean => {
      if (asking || ui.focus !== "pane" || ui.paneId === undefined) return false;
      dispatch({ type: "message_ask", childId: ui.paneId, label: promptChildLabel(ui.paneId, ctx.childRows, ctx.items()) });
      return true;
    },
  };
}
