/**
 * MainScreen: one session's screen. The transcript history (<Static>, written once; redrawn from
 * scratch only when the terminal's width changes or a tall view — overlay, sidebar, picker —
 * closes), then either
 * the live items with the child-session sidebar beside (or above) them, or a child's transcript
 * overlay; the /resume picker, the approval question, the prompt (or the resume line) and the
 * status bar. Ctrl-C: a typed draft is cleared first; then, while work runs it aborts it (the
 * core relays to every child); when idle the first press arms "press again to exit". Navigation
 * keys: see useScreenKeys.
 */
import { Box, useApp, useInput } from "ink";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { ApprovalModal } from "./ApprovalModal.js";
import { childCounts, runningChildIds } from "./hooks/agent-stream-reducer.js";
import { keyHints } from "./hooks/key-hints.js";
import { runSlashCommand } from "./hooks/slash-commands.js";
import { INITIAL_UI, overlayOffset, reduceUi, selectedIndex, withRunningPanes } from "./hooks/ui-reducer.js";
import { useAgentStream } from "./hooks/use-agent-stream.js";
import { useApprovalRequest } from "./hooks/use-approval-request.js";
import { useChildOverlay } from "./hooks/use-child-overlay.js";
import { useChildSessions } from "./hooks/use-child-sessions.js";
import { useExitGuard } from "./hooks/use-exit-guard.js";
import { useNow } from "./hooks/use-now.js";
import { CLEAR_SCREEN, useScreenRefresh } from "./hooks/use-screen-refresh.js";
import { useScreenKeys } from "./hooks/use-screen-keys.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";
import { Prompt } from "./Prompt.js";
import { BUSY, savedMainSessions, screenKeyHandlers } from "./screen-actions.js";
import { SessionPicker } from "./SessionPicker.js";
import { Sidebar } from "./Sidebar.js";
import { StatusBar } from "./StatusBar.js";
import type { AppProps } from "./App.js";
import { LiveItems, TranscriptHistory } from "./Transcript.js";
import { overlayHeight, TranscriptOverlay } from "./TranscriptOverlay.js";

export { CLEAR_SCREEN };

/** The App's props for one session, plus the switch that /resume calls. */
export type MainScreenProps = Omit<AppProps, "openSession" | "onSessionChange"> & {
  /** Switches to saved main session `id`; returns an error message when it cannot. Absent: /resume is unavailable. */
  onResumeSession?: (id: string) => string | undefined;
};

/** The screen of one session. */
export function MainScreen({ session, approvals, initialPrompt, openResumePicker, onExit, flushMs, exitWindowMs, onResumeSession }: MainScreenProps) {
  const stream = useAgentStream(session, { flushMs });
  const { state } = stream;
  const request = useApprovalRequest(approvals);
  const { columns, rows } = useTerminalSize();
  const screen = useScreenRefresh(columns);
  const now = useNow(state.running);
  const guard = useExitGuard(exitWindowMs);
  const [history, setHistory] = useState<string[]>([]);
  const [hint, setHint] = useState<string | undefined>();
  const [rawUi, dispatch] = useReducer(reduceUi, INITIAL_UI);
  const panes = useMemo(() => runningChildIds(state), [state]);
  const ui = withRunningPanes(rawUi, panes);
  const sidebarShown = ui.focus === "sidebar" || ui.focus === "overlay" || ui.focus === "resume";
  const childRows = useChildSessions(session, state, sidebarShown);
  const rowIds = useMemo(() => childRows.map((r) => r.id), [childRows]);
  const selected = selectedIndex(ui, rowIds);
  const { exit } = useApp();
  const leaving = useRef(false);
  // Rows the layout budgets must leave free: a draft of several rows, an approval question.
  const [draftRowsShown, setDraftRows] = useState({ main: 1, resume: 1 });
  const promptExtra = (ui.focus === "resume" ? draftRowsShown.resume : draftRowsShown.main) - 1;
  const taken = promptExtra + (request ? 4 : 0);
  const pageRows = overlayHeight(rows - taken);
  const draftMaxRows = Math.max(3, Math.min(10, Math.floor(rows / 4)));
  const overlayView = useChildOverlay(session.store, state, ui.overlay, childRows, Math.max(20, columns - 4), now);

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

  /** Ctrl-C with nothing typed: stop the run, or arm / confirm exit. */
  const interrupt = () => {
    if (stream.isRunning()) {
      approvals.cancelAll("the user stopped the run (Ctrl-C)");
      stream.abortAll();
      setHint("stopping… every running agent is being aborted");
      return;
    }
    if (guard.press()) leave();
  };
  // While an input box has the keyboard, Ctrl-C is its own (it clears a draft first).
  const promptHasKeys = request === undefined && (ui.focus === "prompt" || ui.focus === "resume");
  const ctrlC = useRef({ promptHasKeys, interrupt });
  ctrlC.current = { promptHasKeys, interrupt };
  useInput((input, key) => {
    if (key.ctrl && input === "c" && !ctrlC.current.promptHasKeys) ctrlC.current.interrupt();
  });

  useEffect(() => {
    if (!state.running) setHint(undefined);
  }, [state.running]);
  useEffect(() => setHint((h) => (h === "exiting…" ? h : undefined)), [ui.focus]);

  // When a tall view closes (overlay → sidebar → nothing; the picker) the live area shrinks and the
  // terminal would stay scrolled down to blank rows under the prompt: redraw the screen instead.
  const showOverlay = ui.overlay !== undefined && overlayView !== undefined && (ui.focus === "overlay" || ui.focus === "resume");
  const tallView = showOverlay ? 3 : sidebarShown ? 2 : ui.picker ? 1 : 0;
  const lastTallView = useRef(tallView);
  useEffect(() => {
    if (tallView < lastTallView.current) screen.refresh();
    lastTallView.current = tallView;
  }, [tallView, screen]);

  const openPicker = (atStart = false) => {
    if (!session.store) return stream.notice("/resume: this run does not save sessions.", "warn");
    const saved = savedMainSessions(session);
    if (atStart && saved.length === 0) return stream.notice("There are no earlier saved sessions in this directory to resume — type a prompt to start.", "warn");
    dispatch({ type: "picker_open", rows: saved });
  };

  const handleSubmit = (text: string): boolean => {
    const input = text.trim();
    if (input === "") return false;
    const outcome = runSlashCommand(input, { profiles: session.profiles.profiles, notices: session.notices, alwaysAllowed: approvals.alwaysAllowed(), sessionLines: (c) => session.commandLines(c) });
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
      screen.refresh();
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

  /** Plain typing on the sidebar or a pane (not its `x`) goes to the prompt, which takes the keyboard. */
  const typeWhileAway = (raw: string): boolean => {
    if (request !== undefined || !(ui.focus === "sidebar" || (ui.focus === "pane" && raw.toLowerCase() !== "x"))) return false;
    dispatch({ type: "focus_prompt" });
    return true;
  };

  const maxOffset = overlayView ? overlayView.lines.length - pageRows : 0;
  const handlers = screenKeyHandlers({ ui, dispatch, panes, childRows, selected, maxOffset, pageRows, stream, setHint, onResumeSession });
  useScreenKeys(ui.focus, handlers, request === undefined);

  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (openResumePicker) openPicker(true);
    else if (initialPrompt) handleSubmit(initialPrompt);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const sideBySide = sidebarShown && columns >= 100;
  const sidebarWidth = sideBySide ? Math.min(60, Math.floor(columns * 0.4)) : columns;
  const liveWidth = sideBySide ? columns - sidebarWidth : columns;
  const sidebarHeight = Math.max(3, Math.min(14, rows - 12 - taken));
  // Stacked under the live items, the sidebar takes rows from them: the live output must stay shorter than the terminal.
  const liveRows = (sidebarShown && !sideBySide ? Math.max(8, rows - sidebarHeight - 7) : rows) - taken;
  const counts = childCounts(state);
  return (
    <Box flexDirection="column">
      <TranscriptHistory finished={state.finished} epoch={`${state.epoch}:${screen.epoch}`} columns={columns} />
      {showOverlay ? (
        <TranscriptOverlay title={overlayView!.title} lines={overlayView!.lines} offset={overlayOffset(ui.overlay!, maxOffset)} height={pageRows} width={columns} />
      ) : (
        <Box flexDirection={sideBySide ? "row" : "column"}>
          <Box flexDirection="column" width={liveWidth} flexShrink={0}>
            <LiveItems live={state.live} now={now} columns={liveWidth} rows={liveRows} focusedChildId={ui.focus === "pane" ? ui.paneId : undefined} />
          </Box>
          {sidebarShown ? <Sidebar rows={childRows} selected={selected} now={Date.now()} width={sidebarWidth} height={sidebarHeight} focused={ui.focus === "sidebar"} /> : null}
        </Box>
      )}
      {ui.picker ? <SessionPicker rows={ui.picker.rows} selected={ui.picker.index} now={Date.now()} width={columns} height={Math.max(3, Math.min(12, rows - 10))} /> : null}
      {request ? <ApprovalModal request={request} onAnswer={(id, answer) => approvals.answer(id, answer)} width={columns} /> : null}
      {/* Both input boxes stay mounted (their key handlers subscribed); only one is shown and takes keys. */}
      <Box display={ui.focus === "resume" ? "flex" : "none"} flexDirection="column">
        <Prompt onSubmit={submitResume} history={[]} focus={request === undefined && ui.focus === "resume"} busy={false} label={`↻ resume ${ui.resume?.label ?? ""}`} placeholder="the child's new prompt (Enter runs it, Esc cancels)" clearOnBlur onInterrupt={interrupt} width={columns} maxRows={draftMaxRows} onRowsChange={(n) => setDraftRows((d) => ({ ...d, resume: n }))} />
      </Box>
      <Box display={ui.focus === "resume" ? "none" : "flex"} flexDirection="column">
        <Prompt onSubmit={handleSubmit} history={history} focus={request === undefined && ui.focus === "prompt"} busy={state.running} restore={stream.restore} onInterrupt={interrupt} onTypeWhileAway={typeWhileAway} width={columns} maxRows={draftMaxRows} onRowsChange={(n) => setDraftRows((d) => ({ ...d, main: n }))} />
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
