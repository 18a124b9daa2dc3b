/**
 * MainScreen: one session's screen. The transcript history (<Static>, never redrawn), then
 * either the live items with the child-session sidebar beside (or above) them, or a child's
 * transcript overlay; the /resume picker, the approval question, the prompt (or the resume line)
 * and the status bar. Ctrl-C: while work runs it aborts it (the core relays to every child); when
 * idle the first press arms "press again to exit". Navigation keys: see useScreenKeys.
 */
import { Box, useApp, useInput, useStdout } from "ink";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { ApprovalModal } from "./ApprovalModal.js";
import { firstLine } from "./format.js";
import { childCounts, runningChildIds } from "./hooks/agent-stream-reducer.js";
import { childLabel, childOverlay } from "./hooks/child-transcript.js";
import { keyHints } from "./hooks/key-hints.js";
import { runSlashCommand } from "./hooks/slash-commands.js";
import { INITIAL_UI, reduceUi, withRunningPanes, type PickerRow } from "./hooks/ui-reducer.js";
import { useAgentStream } from "./hooks/use-agent-stream.js";
import { useApprovalRequest } from "./hooks/use-approval-request.js";
import { useChildSessions } from "./hooks/use-child-sessions.js";
import { useExitGuard } from "./hooks/use-exit-guard.js";
import { useNow } from "./hooks/use-now.js";
import { useScreenKeys } from "./hooks/use-screen-keys.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";
import { Prompt } from "./Prompt.js";
import { SessionPicker } from "./SessionPicker.js";
import { Sidebar } from "./Sidebar.js";
import { StatusBar } from "./StatusBar.js";
import type { AppProps } from "./App.js";
import { LiveItems, TranscriptHistory } from "./Transcript.js";
import { overlayHeight, TranscriptOverlay } from "./TranscriptOverlay.js";

/** Clears the screen and the scrollback, cursor home (used by /clear and when switching sessions). */
export const CLEAR_SCREEN = "\u001b[2J\u001b[3J\u001b[H";

/** The App's props for one session, plus the switch that /resume calls. */
export type MainScreenProps = Omit<AppProps, "openSession" | "onSessionChange"> & {
  /** Switches to saved main session `id`; returns an error message when it cannot. Absent: /resume is unavailable. */
  onResumeSession?: (id: string) => string | undefined;
};

const BUSY = "a run is in progress — wait for it to finish, or press Ctrl-C to stop it";

/** The screen of one session. */
export function MainScreen({ session, approvals, initialPrompt, onExit, flushMs, exitWindowMs, onResumeSession }: MainScreenProps) {
  const stream = useAgentStream(session, { flushMs });
  const { state } = stream;
  const request = useApprovalRequest(approvals);
  const { columns, rows } = useTerminalSize();
  const now = useNow(state.running);
  const guard = useExitGuard(exitWindowMs);
  const [history, setHistory] = useState<string[]>([]);
  const [hint, setHint] = useState<string | undefined>();
  const [rawUi, dispatch] = useReducer(reduceUi, INITIAL_UI);
  const panes = useMemo(() => runningChildIds(state), [state]);
  const ui = withRunningPanes(rawUi, panes);
  const sidebarShown = ui.focus === "sidebar" || ui.focus === "overlay" || ui.focus === "resume";
  const childRows = useChildSessions(session, state, sidebarShown);
  const selected = Math.min(ui.sidebarIndex, Math.max(0, childRows.length - 1));
  const { exit } = useApp();
  const { write } = useStdout();
  const leaving = useRef(false);
  const pageRows = overlayHeight(rows);

  const leave = useCallback(() => {
    if (leaving.current) return;
    leaving.current = true;
    setHint("exiting…");
    approvals.cancelAll("Ink is exiting");
    stream.abortAll();
    void stream.whenIdle().then(() => {
      onExit?.(0);
      exit();
    });
  }, [approvals, stream, onExit, exit]);

  useInput((input, key) => {
    if (!key.ctrl || input !== "c") return;
    if (stream.isRunning()) {
      approvals.cancelAll("the user stopped the run (Ctrl-C)");
      stream.abortAll();
      setHint("stopping… every running agent is being aborted");
      return;
    }
    if (guard.press()) leave();
  });

  useEffect(() => {
    if (!state.running) setHint(undefined);
  }, [state.running]);
  useEffect(() => setHint((h) => (h === "exiting…" ? h : undefined)), [ui.focus]);

  const openPicker = () => {
    if (!session.store) return stream.notice("/resume: this run does not save sessions.", "warn");
    const saved = session.store.list({ cwd: session.cwd, kind: "main" }).filter((s) => s.id !== session.sessionId);
    dispatch({ type: "picker_open", rows: saved.map((s): PickerRow => ({ id: s.id, at: s.mtimeMs, prompt: firstLine(s.prompt ?? "") })) });
  };

  const handleSubmit = (text: string): boolean => {
    const input = text.trim();
    if (input === "") return false;
    const outcome = runSlashCommand(input, { profiles: session.profiles.profiles, notices: session.notices, alwaysAllowed: approvals.alwaysAllowed() });
    const needsIdle = outcome === undefined || outcome.kind === "compact" || outcome.kind === "resume";
    if (needsIdle && stream.isRunning()) {
      setHint(BUSY);
      return false;
    }
    setHistory((h) => (h[h.length - 1] === input ? h : [...h, input]));
    setHint(undefined);
    if (outcome === undefined) return stream.submit(input);
    if (outcome.kind === "lines") stream.notice(outcome.lines.join("\n"), outcome.tone);
    else if (outcome.kind === "compact") stream.compact();
    else if (outcome.kind === "resume") openPicker();
    else if (outcome.kind === "clear") {
      write(CLEAR_SCREEN);
      stream.clear();
    } else leave();
    return true;
  };

  const submitResume = (text: string): boolean => {
    const target = ui.resume;
    if (!target || text.trim() === "") return false;
    if (!stream.resumeChild(target.childId, target.label, text.trim())) {
      setHint(BUSY);
      return false;
    }
    dispatch({ type: "focus_prompt" });
    return true;
  };

  /** The child `r` resumes: the overlay's, else the selected sidebar row. */
  const resumeTarget = (): { id: string; label: string; status: string } | undefined => {
    if (ui.focus === "overlay" && ui.overlay) {
      const row = childRows.find((r) => r.id === ui.overlay!.childId);
      return { id: ui.overlay.childId, label: ui.overlay.label, status: row?.status ?? "unknown" };
    }
    const row = childRows[selected];
    return row && { id: row.id, label: childLabel(row), status: row.status };
  };

  const maxOffset = ui.overlay ? ui.overlay.lines.length - pageRows : 0;
  useScreenKeys(
    ui.focus,
    {
      tab: (backwards) => dispatch({ type: "tab", backwards, panes }),
      escape: () => dispatch({ type: "escape" }),
      stopPane: () => {
        if (ui.paneId && !stream.stopChild(ui.paneId)) setHint("that child is not running any more");
      },
      move: (delta) => {
        if (ui.focus === "overlay") dispatch({ type: "overlay_scroll", delta, maxOffset });
        else if (ui.focus === "picker") dispatch({ type: "picker_move", delta });
        else dispatch({ type: "sidebar_move", delta, count: childRows.length });
      },
      page: (delta) => dispatch({ type: "overlay_scroll", delta: delta * Math.max(1, pageRows - 1), maxOffset }),
      edge: (end) => dispatch({ type: "overlay_scroll", delta: end ? Infinity : -Infinity, maxOffset }),
      open: () => {
        if (ui.focus === "picker") {
          const row = ui.picker?.rows[ui.picker.index];
          if (!row) return dispatch({ type: "escape" });
          const error = onResumeSession ? onResumeSession(row.id) : "/resume is not available in this UI (no session factory was given)";
          if (error !== undefined) {
            dispatch({ type: "focus_prompt" });
            stream.notice(error, "error");
          }
          return;
        }
        const row = childRows[selected];
        if (row) dispatch({ type: "overlay_open", overlay: childOverlay(session.store, row, Math.max(20, columns - 4), Date.now()) });
      },
      resume: () => {
        const target = resumeTarget();
        if (!target) return;
        if (stream.isRunning()) return setHint(BUSY);
        if (target.status === "running") return setHint("that child is still running — wait for it to end, or focus its pane (Tab) and press x to stop it");
        dispatch({ type: "resume_ask", childId: target.id, label: target.label });
      },
    },
    request === undefined,
  );

  const started = useRef(false);
  useEffect(() => {
    if (started.current || !initialPrompt) return;
    started.current = true;
    handleSubmit(initialPrompt);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const sideBySide = sidebarShown && columns >= 100;
  const sidebarWidth = sideBySide ? Math.min(60, Math.floor(columns * 0.4)) : columns;
  const liveWidth = sideBySide ? columns - sidebarWidth : columns;
  const counts = childCounts(state);
  const showOverlay = ui.overlay !== undefined && (ui.focus === "overlay" || ui.focus === "resume");
  return (
    <Box flexDirection="column">
      <TranscriptHistory finished={state.finished} epoch={state.epoch} columns={columns} />
      {showOverlay ? (
        <TranscriptOverlay overlay={ui.overlay!} height={pageRows} width={columns} />
      ) : (
        <Box flexDirection={sideBySide ? "row" : "column"}>
          <Box flexDirection="column" width={liveWidth} flexShrink={0}>
            <LiveItems live={state.live} now={now} columns={liveWidth} rows={rows} focusedChildId={ui.focus === "pane" ? ui.paneId : undefined} />
          </Box>
          {sidebarShown ? <Sidebar rows={childRows} selected={selected} now={Date.now()} width={sidebarWidth} height={Math.max(3, Math.min(14, rows - 12))} focused={ui.focus === "sidebar"} /> : null}
        </Box>
      )}
      {ui.picker ? <SessionPicker rows={ui.picker.rows} selected={ui.picker.index} now={Date.now()} width={columns} height={Math.max(3, Math.min(12, rows - 10))} /> : null}
      {request ? <ApprovalModal request={request} onAnswer={(id, answer) => approvals.answer(id, answer)} width={columns} /> : null}
      {/* Both input boxes stay mounted (their key handlers subscribed); only one is shown and takes keys. */}
      <Box display={ui.focus === "resume" ? "flex" : "none"} flexDirection="column">
        <Prompt onSubmit={submitResume} history={[]} focus={request === undefined && ui.focus === "resume"} busy={false} label={`↻ resume ${ui.resume?.label ?? ""}`} placeholder="the child's new prompt (Enter runs it, Esc cancels)" clearOnBlur />
      </Box>
      <Box display={ui.focus === "resume" ? "none" : "flex"} flexDirection="column">
        <Prompt onSubmit={handleSubmit} history={history} focus={request === undefined && ui.focus === "prompt"} busy={state.running} />
      </Box>
      <StatusBar
        model={session.model}
        provider={session.provider.name}
        contextTokens={state.contextTokens}
        contextWindow={session.provider.contextWindow(session.model)}
        usage={state.usage}
        runningChildren={counts.running}
        queuedChildren={counts.queued}
        compacting={state.compacting}
        running={state.running}
        now={now}
        keys={keyHints(ui.focus, state.running)}
        hint={guard.armed ? "Press Ctrl-C again to exit" : hint}
      />
    </Box>
  );
}
