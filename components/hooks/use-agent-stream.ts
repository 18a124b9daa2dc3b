/**
 * useAgentStream: the ONE place that subscribes to a session's events. A "run" is one piece of
 * work at a time — a prompt to the main agent, a child resumed by the person (the session's task
 * tool called directly, its events fed to the same reducer so the child shows as a live pane), or
 * a /compact — with one AbortController. Events are queued and folded into UI state with
 * `reduceStream` at most once per `flushMs` (so many streaming children stay smooth).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { TuiSession } from "../../src/host/tui-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { initialStreamState, reduceAll, type StreamAction } from "../state/agent-stream-reducer.js";
import type { ItemTone, StreamState } from "../state/transcript-types.js";
import { errorMessage } from "../../src/protocol/error-message.js";
import { REFUSED } from "../../src/core/tool-runner.js";
import { eventNote } from "../state/event-notes.js";
import { mergeNotice } from "../../src/merge/merge-queue.js";

/** Tuning for tests and the TUI. */
export interface AgentStreamOptions {
  /** Longest time events wait before they are drawn (default 50 ms). */
  flushMs?: number;
  /** Clock (default Date.now). */
  now?: () => number;
}

/** What the hook gives the UI. */
export interface AgentStream {
  state: StreamState;
  /** Starts a run with `text`; false (and nothing happens) when a run is in progress. */
  submit(text: string): boolean;
  /** Runs the command file the person typed (`typed`, naming `command`) as the session does for every front end (the `run_command` op). */
  runCommandFile(typed: string, command: string): boolean;
  /** Resumes child session `childId` with `prompt` through the task tool; false when a run is in progress. */
  resumeChild(childId: string, label: string, prompt: string): boolean;
  /** Hands the conflict `/merge` stopped at to its branch's child, then goes on merging (the `merge_hand` op); false when a run is in progress. */
  handMergeConflict(label: string): boolean;
  /** Runs `command` (typed after `!`) through the session's bash tool and approval; false when a run is in progress. */
  shell(command: string): boolean;
  /** Summarises older history now and reports the outcome; false when a run is in progress. */
  compact(): boolean;
  /** Stops one running child alone; false when it is not running. */
  stopChild(childId: string): boolean;
  /** A paused child tries again now; false when it is not paused. */
  wakeChild(childId: string): boolean;
  /** Sends the person's message to running child `childId` (read at its next step); false when it is not running. */
  messageChild(childId: string, text: string): boolean;
  /** True while a run is in progress (up to date even before the next render). */
  isRunning(): boolean;
  /**
   * Aborts the current run; the core relays the abort to every child still in the foreground.
   * `note`: the one line the stop leaves (instead of `⏹ interrupted — the run was stopped`).
   */
  abortAll(note?: { text: string; tone: ItemTone }): void;
  /** Moves running foreground child `childId` (all, without one) to the background; ids moved. */
  moveToBackground(childId?: string): string[];
  /** Adds an informational line to the transcript (saved in the session, so a resumed one shows it too). */
  notice(text: string, tone?: ItemTone): void;
  /** Forgets the visible transcript (the session's history is kept). */
  clear(): void;
  /** Resolves when no run is in progress. */
  whenIdle(): Promise<void>;
  /** The last prompt whose request failed for good and was withdrawn (offered back in the input box); `seq` changes each time. */
  restore?: { text: string; seq: number };
}

/** Header facts of a session shown at start-up. */
function headerOf(session: TuiSession) {
  const { cwd, model, provider, notices } = session.facts();
  return { cwd, model, provider, notices: [...notices] };
}

type RunBody = (signal: AbortSignal, emit: (event: AgentEvent) => void) => Promise<unknown>;

/** The session file that holds the session's tool results, when it is being written (long results are read back from it). */
const savedFile = (session: TuiSession): string | undefined => session.facts().resultsFile;

/** The saved conversation and spend a screen starts from. */
function initialState(session: TuiSession): StreamState {
  const history = session.submit({ type: "get_history" });
  const taskRecords = session.submit({ type: "list_task_records" });
  const view = session.submit({ type: "get_view" });
  return initialStreamState(headerOf(session), history, taskRecords, savedFile(session), view, session.facts().spend);
}

/** Subscribes to `session` runs and keeps the transcript state (starting with its saved history). */
export function useAgentStream(session: TuiSession, options: AgentStreamOptions = {}): AgentStream {
  const flushMs = options.flushMs ?? 50;
  const clock = options.now ?? Date.now;
  const [state, setState] = useState<StreamState>(() => initialState(session));
  const queue = useRef<StreamAction[]>([]);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const controller = useRef<AbortController | undefined>(undefined);
  const current = useRef<Promise<void> | undefined>(undefined);
  const mounted = useRef(true);
  const resumes = useRef(0);
  /** The line the stop asked for (abortAll's `note`) until the run's end leaves it. */
  const stopNote = useRef<{ text: string; tone: ItemTone } | undefined>(undefined);
  /** Starts a main turn for waiting background reports (set below; startRun calls it when a run ends). */
  const deliverRef = useRef<() => void>(() => undefined);
  const [restore, setRestore] = useState<{ text: string; seq: number } | undefined>();

  const flushNow = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = undefined;
    const batch = queue.current.splice(0);
    if (batch.length > 0 && mounted.current) setState((s) => reduceAll(s, batch));
  }, []);

  const enqueue = useCallback(
    (action: StreamAction, immediate = false) => {
      queue.current.push(action);
      if (immediate) flushNow();
      else if (!timer.current) timer.current = setTimeout(flushNow, flushMs);
    },
    [flushMs, flushNow],
  );

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      controller.current?.abort();
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  /** A line the person sees in the transcript and a resumed session shows again. */
  const note = useCallback(
    (text: string, tone: ItemTone = "info") => {
      session.submit({ type: "note", text, tone });
      enqueue({ type: "notice", text, tone }, true);
    },
    [session, enqueue],
  );

  // The session's usage ledger is the one source of every token and cost figure: each addition (any agent, any run) is shown.
  useEffect(() => {
    let shown = session.facts().spend;
    return session.onFacts(() => {
      const rows = session.facts().spend;
      if (rows !== shown) enqueue({ type: "spend", rows: (shown = rows) });
    });
  }, [session, enqueue]);

  // Problems that arise after the first frame (an MCP server that failed or crashed) appear as they happen.
  useEffect(() => session.onNotice((text) => enqueue({ type: "notice", text, tone: "warn" }, true)), [session, enqueue]);

  /** Starts `body` as the run, opened by `begin`; false when a run is in progress. */
  const startRun = useCallback(
    (begin: StreamAction, body: RunBody, saves = false): boolean => {
      if (current.current) return false;
      const ac = new AbortController();
      controller.current = ac;
      enqueue(begin, true);
      let run: Promise<unknown>;
      try {
        // A prompt's tool results are saved in the session file as they come (a `!` command's or a resumed child's are not).
        run = body(ac.signal, (event) => {
          // Saved as the event comes, so the note stands at its place among the messages.
          const stopped = event.type === "agent_end" && event.reason === "aborted" ? stopNote.current : undefined;
          if (stopped) stopNote.current = undefined;
          const line = stopped ?? eventNote(event);
          if (line) session.submit({ type: "note", text: line.text, tone: line.tone });
          enqueue({ type: "event", event, at: clock(), ...(stopped ? { note: stopped } : {}), ...(saves && (event.type === "tool_end" || event.type === "message") ? { savedTo: savedFile(session) } : {}) });
        });
      } catch (err) {
        run = Promise.reject(err);
      }
      current.current = run
        .then(
          () => enqueue({ type: "run_end", at: clock() }, true),
          (err: unknown) => enqueue({ type: "run_end", error: ac.signal.aborted ? undefined : errorMessage(err), at: clock() }, true),
        )
        .finally(() => {
          controller.current = undefined;
          current.current = undefined;
          // The run ended before the stop reached it (or without an end event): the stop's line still stands.
          const unsaid = stopNote.current;
          stopNote.current = undefined;
          if (unsaid && mounted.current) {
            session.submit({ type: "note", text: unsaid.text, tone: unsaid.tone });
            enqueue({ type: "notice", ...unsaid }, true);
          }
          // A background report that came after the run's last turn boundary starts a turn of its own.
          if (mounted.current && session.facts().hasUndeliveredReports) deliverRef.current();
        });
      return true;
    },
    [enqueue, clock, session],
  );

  const submit = useCallback(
    (text: string) =>
      startRun({ type: "run_start", text, at: clock() }, (signal, emit) =>
        session.submit({ type: "prompt", text }, { signal, onEvent: emit }).then((result) => {
          // Stopped before any answer: the prompt was withdrawn; it goes back into the box.
          if (session.facts().lastFailure?.stopped && mounted.current) {
            enqueue({ type: "notice", text: "stopped before any answer — your prompt is back in the input box", tone: "dim" });
            setRestore((r) => ({ text, seq: (r?.seq ?? 0) + 1 }));
          }
          return result;
        }, (err: unknown) => {
          // The failed prompt was taken out of the history: say so and offer it back to edit.
          if (session.facts().lastFailure?.withdrawn && mounted.current) {
            enqueue({ type: "notice", text: "✗ that prompt failed and was not kept in the conversation — it is back in the input box to edit and send again", tone: "warn" });
            setRestore((r) => ({ text, seq: (r?.seq ?? 0) + 1 }));
          }
          throw err;
        }),
        true,
      ),
    [session, startRun, clock, enqueue],
  );

  const deliver = useCallback(() => {
    if (current.current || !session.facts().hasUndeliveredReports) return;
    startRun({ type: "run_start", at: clock() }, (signal, emit) => session.submit({ type: "deliver_background" }, { signal, onEvent: emit }), true);
  }, [session, startRun, clock]);
  deliverRef.current = deliver;

  // Background children's events and deliveries come on the session's channel, run or no run; a
  // report that arrives while the main agent is idle starts its turn (also one left by an earlier run of a resumed session).
  useEffect(() => {
    const off = session.subscribe((event) => {
      enqueue({ type: "event", event, at: clock() });
      if (event.type === "background_ready" && event.mainIdle) setTimeout(() => mounted.current && deliverRef.current(), 0);
    });
    if (session.facts().hasUndeliveredReports) setTimeout(() => mounted.current && deliverRef.current(), 0);
    return off;
  }, [session, enqueue, clock]);

  const resumeChild = useCallback(
    (childId: string, label: string, prompt: string): boolean => {
      if (current.current) return false;
      const toolCallId = `ui-resume-${++resumes.current}`;
      return startRun({ type: "run_start", text: prompt, target: label, at: clock() }, async (signal, emit) => {
        await session.submit({ type: "resume_child", child: childId, text: prompt }, { signal, onEvent: emit, toolCallId });
        if (session.facts().pendingChildReports.some((n) => n.childId === childId)) note(`↪ ${label}'s report goes to the main agent with your next message`, "dim");
      });
    },
    [session, startRun, note, clock],
  );

  const handMergeConflict = useCallback(
    (label: string): boolean =>
      startRun({ type: "run_start", text: "/merge hand", target: label, at: clock() }, async (signal, emit) => {
        const { outcome } = await session.submit({ type: "merge_hand" }, { signal, onEvent: emit, toolCallId: `ui-merge-hand-${++resumes.current}` });
        note(`/merge: ${mergeNotice(outcome)}`, outcome.ok ? "info" : "warn");
      }),
    [session, startRun, note, clock],
  );

  const runCommandFile = useCallback(
    (typed: string, command: string): boolean => {
      if (current.current) return false;
      const toolCallId = `ui-command-${++resumes.current}`;
      return startRun({ type: "run_start", text: typed, at: clock() }, async (signal, emit) => {
        const ran = await session.submit({ type: "run_command", text: typed }, { signal, onEvent: emit, toolCallId });
        if (ran.kind === "prompt") return;
        if (session.facts().pendingChildReports.some((n) => n.command === command)) note(`↪ ${command}'s report goes to the main agent with your next message`, "dim");
        else if (ran.result.isError) note(`✗ ${command}: ${ran.result.content.split("\n")[0]}`, "error");
      }, true);
    },
    [session, startRun, note, clock],
  );

  const shell = useCallback(
    (command: string) =>
      startRun({ type: "run_start", text: `!${command}`, at: clock() }, async (signal, emit) => {
        const result = await session.submit({ type: "shell", command }, { signal, onEvent: emit });
        // A refusal (a deny rule) is said in full: the tool line's one-line result may cut the rule's file.
        const refused = result.isError && result.content.startsWith(REFUSED) ? result.content.slice(REFUSED.length) : undefined;
        if (refused !== undefined) note(`✗ not run: ${refused.replace(/; your own command is not run$/, "")}`, "error");
        note(refused === undefined ? "↪ its output goes to the model with your next message" : "↪ the refusal goes to the model with your next message", "dim");
      }),
    [session, startRun, note, clock],
  );

  const compact = useCallback(
    () =>
      startRun({ type: "run_start", at: clock() }, async (signal, emit) => {
        const before = session.facts().historyLength;
        const done = await session.submit({ type: "compact" }, { signal, onEvent: emit });
        // The compaction replaced the first `cut` messages by one summary message.
        const replaced = before - session.facts().historyLength + 1;
        note(done ? `compacted: ${replaced} messages summarised` : "nothing to compact — the conversation is still short", "dim");
      }),
    [session, startRun, note, clock],
  );

  const stopChild = useCallback(
    (childId: string): boolean => {
      if (!session.submit({ type: "abort", child: childId })) return false;
      enqueue({ type: "child_stop", childId }, true);
      return true;
    },
    [session, enqueue],
  );

  return useMemo(
    () => ({
      state,
      submit,
      resumeChild,
      handMergeConflict,
      runCommandFile,
      shell,
      compact,
      stopChild,
      messageChild: (childId: string, text: string) => session.submit({ type: "steer", child: childId, text }),
      wakeChild: (childId: string) => session.submit({ type: "wake_child", child: childId }),
      isRunning: () => current.current !== undefined,
      abortAll: (note?: { text: string; tone: ItemTone }) => {
        if (!controller.current) return;
        if (note) stopNote.current = note;
        controller.current.abort();
      },
      moveToBackground: (childId?: string) => session.submit({ type: "background", ...(childId !== undefined ? { child: childId } : {}) }),
      notice: note,
      clear: () => enqueue({ type: "clear" }, true),
      whenIdle: async () => {
        while (current.current) await current.current;
      },
      restore,
    }),
    [state, submit, resumeChild, handMergeConflict, runCommandFile, shell, compact, stopChild, note, enqueue, restore, session],
  );
}
