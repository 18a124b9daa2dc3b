/**
 * MainScreen: one session's screen, laid out every frame by screenLayout against the terminal's
 * real size so the frame Ink redraws is never taller than the terminal. Full-screen mode (the
 * alternate screen): a fixed-height frame holding the scrolled transcript (HistoryWindow, PgUp/PgDn,
 * Home/End on an empty prompt, Ctrl-F search), the live items, the child-session sidebar beside it
 * in a wide terminal (Ctrl-S toggles), then the approval question, the prompt and the status bar.
 * Inline mode: finished history goes to the terminal's scrollback (<Static>, written once) and the
 * rest is the same, clamped to the terminal's height. Ctrl-C: a typed draft is cleared first;
 * then, while work runs it aborts it (the core relays to every child); when idle the first press
 * arms "press again to exit". Navigation keys: see useScreenKeys and useFullscreenKeys; the screen's state lives in one store (useScreenState).
 */
import { Box, useApp, useInput } from "ink";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { ApprovalModal, approvalModalRows } from "./views/ApprovalModal.js";
import { StopChildrenConfirm, STOP_CONFIRM_ROWS } from "./views/StopChildrenConfirm.js";
import { useChildStops } from "./hooks/use-child-stops.js";
import { DEFAULT_APPROVAL_TIMING } from "./state/approval-keys.js";
import { childCounts, runningChildIds } from "./state/agent-stream-reducer.js";
import { keyHints, QUESTION_KEYS, TOOL_OVERLAY_KEYS } from "./state/key-hints.js";
import { menuCommands, runSlashCommand } from "./state/slash-commands.js";
import { applySlashOutcome, CLEAR_SCREEN, switchPermissionMode } from "./slash-actions.js";
import { rewindListing } from "../src/checkpoints/rewind.js";
import { useMentionFiles } from "./hooks/use-mention-files.js";
import { overlayOffset, selectedIndex, withRunningPanes } from "./state/ui-reducer.js";
import { EXITING_HINT } from "./state/screen-state.js";
import { useScreenState } from "./hooks/use-screen-state.js";
import { useAgentStream } from "./hooks/use-agent-stream.js";
import { useApprovalQueueLength, useApprovalRequest, useApprovalWaiting, useApprovalWaitingCalls } from "./hooks/use-approval-request.js";
import { useChildOverlay } from "./hooks/use-child-overlay.js";
import { useToolOutputOverlay } from "./hooks/use-tool-output.js";
import { useChildSessions } from "./hooks/use-child-sessions.js";
import { useExitGuard } from "./hooks/use-exit-guard.js";
import { useRenderClock } from "./hooks/use-render-clock.js";
import { useTranscriptScroll } from "./hooks/use-transcript-scroll.js";
import { useHistoryRows } from "./hooks/use-history-rows.js";
import { useTerminalWrite } from "./terminal/terminal-write.js";
import { useWarmHeights } from "./hooks/use-warm-heights.js";
import { queryRow } from "./layout/item-lines.js";
import { useTranscriptSearch } from "./hooks/use-transcript-search.js";
import { useScreenKeys } from "./hooks/use-screen-keys.js";
import { useFullscreenKeys } from "./hooks/use-fullscreen-keys.js";
import { PANE_CLOSED_HINT, usePaneClosedGrace } from "./hooks/use-pane-closed-grace.js";
import { usePromptQueue } from "./hooks/use-prompt-queue.js";
import type { ItemTone } from "./state/transcript-types.js";
import { QueuedPrompts, queuedRows } from "./views/QueuedPrompts.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";
import { Prompt } from "./views/Prompt.js";
import { BUSY, childBoxHandlers, savedMainSessions, screenKeyHandlers } from "./screen-actions.js";
import { SessionPicker } from "./views/SessionPicker.js";
import { StatusBar } from "./views/StatusBar.js";
import { BudgetQuestion, budgetQuestionRows } from "./views/BudgetQuestion.js";
import { useBudgetQuestion } from "./hooks/use-budget.js";
import { useSession } from "./hooks/use-session.js";
import type { ApprovalBroker } from "./state/approval-broker.js";
import type { ApprovalTiming } from "./state/approval-keys.js";
import type { NotifyMode } from "./terminal/terminal-notify.js";
import type { TranscriptItem } from "./state/transcript-types.js";
import { TranscriptHistory } from "./views/Transcript.js";
import { ScrollbackLog } from "./layout/scrollback-log.js";
import { copyOut, itemCopyText } from "./state/copy-answer.js";
import { screenLayout, SIDEBAR_COLUMN_MIN } from "./layout/screen-layout.js";
import type { ScreenMode } from "./state/ui-reducer.js";
import { ScreenBody } from "./views/ScreenBody.js";
import { SearchLine } from "./views/SearchLine.js";
import { useTerminalNotify } from "./hooks/use-terminal-notify.js";
import { useResizeWipe } from "./hooks/use-resize-wipe.js";
import { useBoxRestore } from "./hooks/use-box-restore.js";


/** How soon a second Esc on an empty, idle prompt counts as Esc Esc. */
const ESC_ESC_MS = 1500;
export { CLEAR_SCREEN };
const NO_ITEMS: readonly TranscriptItem[] = [];

/** What the App passes on to each session's screen as it was given. */
export interface ScreenOptions {
  /** The approval bridge whose `ask` the session was created with. */
  approvals: ApprovalBroker;
  /** Sent as the first prompt when the app starts. */
  initialPrompt?: string;
  /** Open the /resume picker at start (`ink --resume` without an id); with no saved session, a notice says so. */
  openResumePicker?: boolean;
  /** Called once with the exit code when the person leaves, just before the app unmounts. */
  onExit?: (code: number) => void;
  /** Longest wait before streamed events are drawn (ms, default 50). */
  flushMs?: number;
  /** Time allowed for the second Ctrl-C (ms, default 2000). */
  exitWindowMs?: number;
  /** Full-screen (the alternate screen, own scrolling) or inline in the scrollback (default: inline). */
  screenMode?: ScreenMode;
  /** When keys may answer an approval question (default: state/approval-keys.ts DEFAULT_APPROVAL_TIMING). */
  approvalTiming?: ApprovalTiming;
  /** Terminal notifications (settings `notify`; default bell). */
  notify?: NotifyMode;
  /** Keys typed before the app started (at the trust question) that answered nothing: they start the prompt's draft. */
  typeAhead?: string;
}

/** The screen's props (its session comes from useSession): the App's options, plus the switches /resume and /clear call. */
export type MainScreenProps = ScreenOptions & {
  /** Counts the history items the full-screen window rendered (tests). */
  onHistoryRendered?: (count: number) => void;
  /** Switches to saved main session `id`; returns an error message when it cannot. Absent: /resume is unavailable. */
  onResumeSession?: (id: string) => string | undefined;
  /** /clear: switches to a new conversation; returns an error message when it cannot. Absent: /clear only clears the screen. */
  onNewConversation?: () => string | undefined;
  /** Shown first in the transcript (e.g. where the previous conversation was saved). */
  startNotice?: string;
};

/** The screen of one session. */
export function MainScreen({ approvals, initialPrompt, openResumePicker, onExit, flushMs, exitWindowMs, onResumeSession, onNewConversation, startNotice, screenMode = "inline", onHistoryRendered, approvalTiming = DEFAULT_APPROVAL_TIMING, notify, typeAhead }: MainScreenProps) {
  const mode: ScreenMode = screenMode;
  const { session, facts } = useSession();
  // The screen's own state, in one store (state/screen-state.ts): navigation, the standing sidebar's
  // preference ("auto" stands it while it lists something; Ctrl-S makes it "shown" or "hidden"),
  // details, the hint, the prompt's history, rows and queue, scrolling, search, the open stop question.
  const [screen, store] = useScreenState();
  const stream = useAgentStream(session, { flushMs });
  const { state } = stream;
  const request = useApprovalRequest(approvals);
  const stops = useChildStops(store, screen.stopAsk, session, stream, (why, note) => stopRun(why, note));
  // A question is open (an approval, or "stop the children?"): it has the keys.
  // A reached budget asks here (extend or stop); headless runs have no asker and stop instead.
  const budget = useBudgetQuestion(session, facts.treeSpent);
  const treeBudget = facts.treeBudget;
  const budgetShown = budget.request !== undefined && request === undefined && stops.confirm === undefined;
  const noModal = request === undefined && stops.confirm === undefined && !budgetShown;
  const waiting = useApprovalWaiting(approvals);
  const waitingCalls = useApprovalWaitingCalls(approvals);
  const liveWaiting = useMemo(() => ({ children: waiting, calls: waitingCalls }), [waiting, waitingCalls]);
  const queuedApprovals = useApprovalQueueLength(approvals);
  const { columns, rows } = useTerminalSize();
  const write = useTerminalWrite();
  useResizeWipe(mode, columns, rows, write);
  const { dispatch } = store;
  const { epoch, sidebarPref, history, hint, detail, painted, draftRows: draftRowsShown } = screen;
  // Inline: what goes into the scrollback, the streaming answer's settled rows as they settle (written once).
  const log = useRef<ScrollbackLog | undefined>(undefined);
  const scrollback = mode === "inline" ? (log.current ??= new ScrollbackLog()).update(state.finished, state.live, columns, epoch) : undefined;
  const rawUi = screen.ui;
  const setHint = useCallback((text: string | undefined) => dispatch({ type: "hint", text }), [dispatch]);
  const guard = useExitGuard(store, exitWindowMs);
  const panes = useMemo(() => runningChildIds(state), [state]);
  // The clock ticks while anything works: a run, or background children beside an idle main agent.
  // It rides on the stream's frames (a streaming answer's flushes carry the spinner) and ticks on
  // its own only when nothing else has drawn for 250 ms.
  const now = useRenderClock(state.running || panes.length > 0);
  useTerminalNotify(notify, state, waiting);
  const ui = withRunningPanes(rawUi, panes);
  const paneClosed = usePaneClosedGrace(rawUi.focus === "pane" && ui.focus === "prompt", approvalTiming.now);
  const sidebarShown = ui.focus === "sidebar" || ui.focus === "overlay" || ui.focus === "resume";
  // The standing sidebar (full-screen, wide) lists the project's child sessions only after the
  // first frame is on screen: start-up never waits for a scan of saved sessions.
  useEffect(() => {
    const t = setTimeout(() => dispatch({ type: "painted" }), 0);
    return () => clearTimeout(t);
  }, []);
  const standing = mode === "fullscreen" && sidebarPref !== "hidden" && columns >= SIDEBAR_COLUMN_MIN;
  const saved = useMemo(() => ({ store: session.store, cwd: facts.cwd, sessionId: facts.sessionId }), [session, facts.cwd, facts.sessionId]);
  const childRows = useChildSessions(saved, state, sidebarShown || (standing && painted));
  const rowIds = useMemo(() => childRows.map((r) => r.id), [childRows]);
  const selected = selectedIndex(ui, rowIds);
  // Prompts typed during a run wait in order; a failed request holds them (they go back to the box).
  const failed = !state.running && facts.lastFailure !== undefined && !facts.lastFailure.stopped;
  const queue = usePromptQueue(store, screen.queued, state.running, (text) => !stream.isRunning() && stream.submit(text), failed);
  // What goes back into the input box when a run ends: the stopped or failed prompt, then the
  // prompts that were waiting behind it (the person stopped the run, or it failed).
  const { held } = useBoxRestore(store, state.running, stream.restore, failed, queue.takeAll);
  const { exit } = useApp();
  const leaving = useRef(false);
  // The prompt's `/` and `@` menu; the file list is read the first time an `@` is typed.
  const mentionFiles = useMentionFiles(facts.cwd);
  const completionSources = useMemo(() => ({ commands: menuCommands([...facts.invocableCommands]), files: mentionFiles.files }), [mentionFiles.files, facts.invocableCommands]);
  const menuOpen = useRef(false);
  const draftEmpty = useRef(true);
  /** When Esc was last pressed on an empty, idle prompt (a second one soon after lists the turns to rewind, as Claude Code's Esc Esc). */
  const idleEscAt = useRef(0);
  // When the person last typed in the prompt (an approval that appears then takes no keys for a while),
  // and the way type-ahead reaches the prompt while an approval is open.
  const typedAt = useRef(0);
  const feedPrompt = useRef<((raw: string) => void) | undefined>(undefined);
  const showOverlayWanted = ui.overlay !== undefined && (ui.focus === "overlay" || ui.focus === "resume");
  const layout = screenLayout({
    mode,
    columns,
    rows,
    promptRows: ui.focus === "resume" ? draftRowsShown.resume : draftRowsShown.main + queuedRows(queue.items.length),
    approvalRows: stops.confirm !== undefined ? STOP_CONFIRM_ROWS : budgetShown ? budgetQuestionRows(budget.request, columns) : approvalModalRows(request, columns, rows),
    picker: ui.picker !== undefined,
    sidebar: sidebarShown,
    sidebarHidden: sidebarPref === "hidden",
    sidebarEmpty: childRows.length === 0 && sidebarPref !== "shown",
    overlay: showOverlayWanted,
  });
  // The region's width on the other side of the standing sidebar (it stands once it lists a child):
  // the history is measured there ahead, in idle turns, so the frame the sidebar comes or goes in is not slow.
  const otherSide = mode === "fullscreen" ? screenLayout({ mode, columns, rows, promptRows: 1, approvalRows: 0, picker: false, sidebar: false, sidebarHidden: false, sidebarEmpty: layout.sidebar.placement === "column", overlay: false }).regionColumns : undefined;
  useWarmHeights(mode === "fullscreen" ? state.finished : NO_ITEMS, otherSide, layout.regionColumns, detail);
  const pageRows = layout.overlayRows;
  const draftMaxRows = Math.max(3, Math.min(10, Math.floor(rows / 4)));
  const toolsOpen = ui.overlay?.kind === "tools";
  const toolView = useToolOutputOverlay(toolsOpen, state, Math.max(20, layout.regionColumns - 4), facts.unsaved);
  const childView = useChildOverlay(session.store, state, toolsOpen ? undefined : ui.overlay, childRows, Math.max(20, layout.regionColumns - 4), now);
  const overlayView = toolView ?? childView;
  /** The open transcript's child runs: r writes it a message (a running child is not resumed). */
  const overlayChildRuns = !toolsOpen && ui.overlay !== undefined && childRows.find((r) => r.id === ui.overlay!.childId)?.status === "running";
  // The history's rows as drawn: one source for the window, the scroll range and the search.
  const historyRows = useHistoryRows(mode === "fullscreen" ? state.finished : NO_ITEMS, layout.regionColumns, detail);
  // Scrolled up, the history shows above the one-row "↓ new lines" hint (and a stacked sidebar).
  const scroll = useTranscriptScroll(store, screen.scroll, historyRows, Math.max(1, layout.liveRows - 1), mode === "fullscreen" && state.live.length > 0);
  const search = useTranscriptSearch(store, screen.search, state.finished, (i, query) => scroll.showItem(i, queryRow(state.finished[i]!, query, layout.regionColumns, detail)), (item) => {
    const text = itemCopyText(item);
    if (text.trim() === "") stream.notice("That item has no text to copy.", "warn");
    else stream.notice(copyOut(text, `the ${item.kind === "tool" ? (item.child ? "child's report" : `${item.name} result`) : item.kind === "user" ? "prompt" : item.kind === "assistant" ? "answer" : item.kind} of the current hit`, facts.sessionId, write), "info");
  });

  const leave = useCallback(() => {
    if (leaving.current) return;
    leaving.current = true;
    setHint(EXITING_HINT);
    approvals.cancelAll("Ink is exiting");
    stream.abortAll();
    void stream.whenIdle().then(() => {
      onExit?.(0);
      exit();
    });
  }, [approvals, stream, onExit, exit, setHint]);

  /** Stops the main run (queued prompts are held back, open approvals cancelled); `note`: the line the stop leaves, when not the usual one. */
  function stopRun(why: string, note?: { text: string; tone: ItemTone }) {
    held.current.push(...queue.takeAll()); // nothing queued runs unasked after a stop
    approvals.cancelAll(why);
    stream.abortAll(note);
  }
  /** Ctrl-C with nothing typed: with children running, ask first; else stop the run, or arm / confirm exit. */
  const interrupt = () => {
    if (stops.askBeforeStopping()) return;
    if (stream.isRunning()) {
      stopRun("the user stopped the run (Ctrl-C)");
      setHint("stopping… the main agent's run is being aborted");
      return;
    }
    if (guard.press()) leave();
  };
  // While an input box has the keyboard, Ctrl-C is its own (it clears a draft first).
  const promptHasKeys = noModal && (ui.focus === "prompt" || ui.focus === "resume");
  const ctrlC = useRef({ promptHasKeys, interrupt });
  ctrlC.current = { promptHasKeys, interrupt };
  useInput((input, key) => {
    if (key.ctrl && input === "c" && !ctrlC.current.promptHasKeys) ctrlC.current.interrupt();
    // Esc on the prompt during a run stops it like Ctrl-C. Anywhere else — a pane, the sidebar, a
    // transcript or overlay, the picker, search, an open menu, the approval — Esc only leaves that place.
    else if (key.escape && noModal && !search.open && ui.focus === "prompt" && !menuOpen.current && stream.isRunning()) (paneClosed.escapeMeantForPane() ? setHint(PANE_CLOSED_HINT) : stops.escape());
    // Esc Esc on an empty prompt while idle: the turns /rewind can take back.
    else if (key.escape && noModal && !search.open && ui.focus === "prompt" && !menuOpen.current && draftEmpty.current) {
      const now = approvalTiming.now();
      if (now - idleEscAt.current > ESC_ESC_MS) {
        idleEscAt.current = now;
        setHint("Esc again lists the turns /rewind can take back");
      } else {
        idleEscAt.current = 0;
        setHint(undefined);
        void session.submit({ type: "list_turns" }).then((turns) => stream.notice(rewindListing(turns, facts.checkpointBound).join("\n"), "info"));
      }
    }
    // Ctrl-B: the focused running child (or every foreground child) to the background.
    else if (key.ctrl && input === "b" && noModal) stops.background(ui.focus === "pane" ? ui.paneId : undefined);
    // Alt-M: the next permission mode (default → accept-edits → plan).
    else if (key.meta && input === "m" && noModal) switchPermissionMode(session, stream);
  });

  useEffect(() => {
    if (!state.running) setHint(undefined);
  }, [state.running]);
  useEffect(() => dispatch({ type: "hint_clear_unless_exiting" }), [ui.focus]);

  const showOverlay = showOverlayWanted && overlayView !== undefined;

  const openPicker = (atStart = false) => {
    if (!session.store) return stream.notice("/resume: this run does not save sessions.", "warn");
    const saved = savedMainSessions(session);
    // Nothing to choose: say so and leave the keyboard on the prompt (an empty picker would swallow typing).
    if (saved.length === 0) return stream.notice(atStart ? "There are no earlier saved sessions in this directory to resume — type a prompt to start." : "/resume: no other saved sessions for this directory.", "warn");
    dispatch({ type: "picker_open", rows: saved });
  };

  const handleSubmit = (text: string): boolean => {
    const input = text.trim();
    if (input === "") return false;
    const outcome = runSlashCommand(input, { profiles: facts.profiles.profiles, notices: [...facts.notices], profileWarnings: facts.profiles.warnings, alwaysAllowed: approvals.alwaysAllowed(), sessionLines: (c) => session.submit({ type: "report", command: c }), fileCommands: [...facts.invocableCommands] });
    const needsIdle = outcome !== undefined && (outcome.kind === "compact" || outcome.kind === "resume" || outcome.kind === "rewind" || outcome.kind === "merge" || (outcome.kind === "clear" && onNewConversation !== undefined) || outcome.kind === "file-command");
    // `!command`: the person's own shell command, through the bash tool; no approval question, only deny rules refuse it.
    if (input.startsWith("!")) {
      const command = input.slice(1).trim();
      if (command === "") {
        stream.notice("Type a shell command after ! (e.g. !git status); its output goes to the model with your next message.", "warn");
        return true;
      }
      if (stream.isRunning()) {
        setHint(BUSY);
        return false;
      }
      dispatch({ type: "history_add", text: input });
      return stream.shell(command);
    }
    if (needsIdle && stream.isRunning()) {
      setHint(BUSY);
      return false;
    }
    dispatch({ type: "history_add", text: input });
    setHint(undefined);
    if (outcome === undefined && stream.isRunning()) {
      queue.add(input);
      return true;
    }
    if (outcome === undefined) return stream.submit(input);
    applySlashOutcome(outcome, {
      session,
      stream,
      inline: mode === "inline",
      write,
      onNewConversation,
      openPicker: () => openPicker(),
      leave: () => stops.exitAsking(leave),
      stopChildrenThen: stops.stopChildrenThen,
      clearView: () => {
        dispatch({ type: "view_clear", count: historyRows.count });
        stream.clear();
      },
    });
    return true;
  };

  const maxOffset = overlayView ? overlayView.lines.length - pageRows : 0;
  const screenCtx = { ui, dispatch, panes, childRows, items: () => [...state.finished, ...state.live], selected, maxOffset, pageRows, stream, setHint, onResumeSession, saves: session.store !== undefined };
  const keyHandlers = screenKeyHandlers(screenCtx);
  const { submitResume: sendResume, typeWhileAway, typeToChild } = childBoxHandlers(screenCtx, !noModal);
  // A child resumed while the view is scrolled up: the view follows it (back to the end, where it runs).
  const submitResume = (text: string): boolean => {
    const resuming = ui.resume !== undefined && !ui.resume.message;
    const sent = sendResume(text);
    if (sent && resuming) scroll.edge("bottom");
    return sent;
  };
  // While the prompt's menu is open, Tab takes its choice instead of moving the keyboard.
  const handlers = { ...keyHandlers, tab: (back: boolean) => (menuOpen.current && ui.focus === "prompt" ? undefined : keyHandlers.tab(back)) };
  useScreenKeys(ui.focus, handlers, noModal && !search.open);
  useFullscreenKeys({
    mode,
    active: noModal && !search.open,
    focus: ui.focus,
    regionRows: layout.regionRows,
    scroll,
    draftEmpty: () => draftEmpty.current,
    startSearch: search.start,
    toggleSidebar: () => dispatch({ type: "sidebar_pref", pref: layout.sidebar.placement === "column" ? "hidden" : "shown" }),
    toggleDetail: () => dispatch({ type: "detail_toggle" }),
    hint: setHint,
  });

  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (startNotice) stream.notice(startNotice, "dim");
    if (typeAhead) feedPrompt.current?.(typeAhead);
    if (openResumePicker) openPicker(true);
    else if (initialPrompt) handleSubmit(initialPrompt);
    // Once, at mount: the first prompt, the picker and the type-ahead are start-up inputs.
  }, []);

  const counts = childCounts(state);
  const promptFocus = noModal && !search.open;
  const bottom = (
    <>
      {ui.picker ? (
        <Box height={layout.pickerRows + 4} overflow="hidden" flexShrink={0} flexDirection="column">
          <SessionPicker rows={ui.picker.rows} selected={ui.picker.index} now={Date.now()} width={columns} height={layout.pickerRows} />
        </Box>
      ) : null}
      {request ? <ApprovalModal key={request.id} request={request} onAnswer={(id, answer, reason) => {
        // A rule that could not be saved ("s") still allowed the call: say why it was not kept.
        const before = approvals.saveProblems().length;
        approvals.answer(id, answer, reason);
        for (const problem of approvals.saveProblems().slice(before)) stream.notice(problem, "warn");
      }} width={columns} maxRows={layout.approvalRows} waiting={queuedApprovals} timing={approvalTiming} typedAt={typedAt.current} onTypeAhead={(raw) => feedPrompt.current?.(raw)} /> : null}
      {stops.confirm !== undefined && request === undefined ? <StopChildrenConfirm count={stops.confirm} then={stops.confirmThen} onAnswer={stops.answer} width={columns} timing={approvalTiming} typedAt={typedAt.current} onTypeAhead={(raw) => feedPrompt.current?.(raw)} /> : null}
      {budgetShown ? <BudgetQuestion key={budget.request!.id} request={budget.request!} onAnswer={(id, answer) => session.submit({ type: "answer_budget", requestId: id, answer })} width={columns} maxRows={layout.approvalRows} timing={approvalTiming} typedAt={typedAt.current} onTypeAhead={(raw) => feedPrompt.current?.(raw)} /> : null}
      {search.open ? <SearchLine query={search.query} hits={search.hits.length} index={search.index} width={columns} /> : null}
      {/* Both input boxes stay mounted (their key handlers subscribed); only one is shown and takes keys. */}
      <Box display={ui.focus === "resume" && !search.open ? "flex" : "none"} flexDirection="column">
        <Prompt onSubmit={submitResume} history={[]} focus={promptFocus && ui.focus === "resume"} busy={false} label={ui.resume?.message ? `✉ message ${ui.resume.label}` : `↻ resume ${ui.resume?.label ?? ""}`} placeholder={ui.resume?.message ? "a message for this child: it reads it at its next step (Enter sends, Esc cancels)" : "the child's new prompt (Enter runs it, Esc cancels)"} clearOnBlur onInterrupt={interrupt} onTypeWhileAway={typeToChild} width={columns} maxRows={draftMaxRows} onRowsChange={(n) => dispatch({ type: "draft_rows", box: "resume", rows: n })} />
      </Box>
      <Box display={ui.focus === "resume" || search.open ? "none" : "flex"} flexDirection="column">
        <QueuedPrompts items={queue.items} width={columns} />
        <Prompt onSubmit={handleSubmit} history={history} focus={promptFocus && ui.focus === "prompt"} busy={state.running} restore={screen.boxRestore} onRecallQueued={queue.takeLast} onInterrupt={interrupt} onTypeWhileAway={typeWhileAway} width={columns} maxRows={draftMaxRows} onRowsChange={(n) => dispatch({ type: "draft_rows", box: "main", rows: n })} feed={feedPrompt} onDraftChange={(t) => {
          draftEmpty.current = t === "";
          typedAt.current = approvalTiming.now();
          if (t.includes("@")) mentionFiles.want();
        }} completion={completionSources} onCompletionOpen={(open) => (menuOpen.current = open)} />
      </Box>
      <StatusBar
        model={facts.model}
        width={columns}
        permissionMode={facts.permissionMode}
        provider={facts.provider}
        contextTokens={state.contextTokens}
        contextWindow={facts.contextWindow}
        usage={state.usage}
        cost={state.cost}
        budget={treeBudget}
        runningChildren={counts.running}
        queuedChildren={counts.queued}
        compacting={state.compacting}
        unsaved={facts.unsaved}
        running={state.running}
        now={now}
        keys={noModal ? keyHints(ui.focus, state.running, mode, toolsOpen, ui.resume?.message, overlayChildRuns) : QUESTION_KEYS}
        hint={screen.exitArmed ? "Press Ctrl-C again to exit" : hint}
      />
    </>
  );
  const body = (
    <ScreenBody
      mode={mode}
      layout={layout}
      state={state}
      now={now}
      focusedChildId={ui.focus === "pane" ? ui.paneId : undefined}
      scroll={scroll}
      overlay={showOverlay ? { title: overlayView!.title, lines: overlayView!.lines, offset: overlayOffset(ui.overlay!, maxOffset), ...(toolsOpen ? { keys: TOOL_OVERLAY_KEYS } : overlayChildRuns ? { keys: "r write it a message · Esc close" } : {}) } : undefined}
      sidebar={{ rows: childRows, selected, focused: ui.focus === "sidebar" }}
      running={counts.running}
      onHistoryRendered={onHistoryRendered}
      detail={detail}
      waiting={liveWaiting}
      written={scrollback?.written}
    />
  );
  if (mode === "fullscreen") {
    return (
      <Box flexDirection="column" height={layout.frameRows} width={columns} overflow="hidden">
        {body}
        <Box flexDirection="column" flexShrink={0}>
          {bottom}
        </Box>
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <TranscriptHistory entries={scrollback!.entries} epoch={epoch} columns={columns} />
      <Box flexDirection="column" flexShrink={0}>
        {body}
        {bottom}
      </Box>
    </Box>
  );
}
