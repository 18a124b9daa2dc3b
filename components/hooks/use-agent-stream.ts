/**
 * useAgentStream: the ONE place that subscribes to a session's events. It runs
 * `session.prompt` with one AbortController per run, queues every event and folds the queue into
 * UI state with `reduceStream` at most once per `flushMs` (so many streaming children stay
 * smooth), and exposes submit / abort / notice / clear.
 *
 * Stopping one child alone is not offered: the core has no per-child abort yet (only the run's
 * controller, which relays to every child).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AgentSession } from "../../src/agent-session.js";
import { initialStreamState, reduceAll, type StreamAction } from "./agent-stream-reducer.js";
import type { ItemTone, StreamState } from "./transcript-types.js";

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
  /** True while a run is in progress (up to date even before the next render). */
  isRunning(): boolean;
  /** Aborts the current run; the core relays the abort to every child. */
  abortAll(): void;
  /** Adds an informational line to the transcript. */
  notice(text: string, tone?: ItemTone): void;
  /** Forgets the visible transcript (the session's history is kept). */
  clear(): void;
  /** Resolves when no run is in progress. */
  whenIdle(): Promise<void>;
}

/** Header facts of a session shown at start-up. */
function headerOf(session: AgentSession) {
  return { cwd: session.cwd, model: session.model, provider: session.provider.name, notices: session.notices };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Subscribes to `session` runs and keeps the transcript state. */
export function useAgentStream(session: AgentSession, options: AgentStreamOptions = {}): AgentStream {
  const flushMs = options.flushMs ?? 50;
  const clock = options.now ?? Date.now;
  const [state, setState] = useState<StreamState>(() => initialStreamState(headerOf(session)));
  const queue = useRef<StreamAction[]>([]);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const controller = useRef<AbortController | undefined>(undefined);
  const current = useRef<Promise<void> | undefined>(undefined);
  const mounted = useRef(true);

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

  const submit = useCallback(
    (text: string): boolean => {
      if (current.current) return false;
      const ac = new AbortController();
      controller.current = ac;
      enqueue({ type: "run_start", text, at: clock() }, true);
      let run: Promise<unknown>;
      try {
        run = session.prompt(text, { signal: ac.signal, onEvent: (event) => enqueue({ type: "event", event, at: clock() }) });
      } catch (err) {
        run = Promise.reject(err);
      }
      current.current = run.then(
        () => enqueue({ type: "run_end", at: clock() }, true),
        (err: unknown) => enqueue({ type: "run_end", error: ac.signal.aborted ? undefined : errorText(err), at: clock() }, true),
      ).finally(() => {
        controller.current = undefined;
        current.current = undefined;
      });
      return true;
    },
    [session, enqueue, clock],
  );

  return useMemo(
    () => ({
      state,
      submit,
      isRunning: () => current.current !== undefined,
      abortAll: () => controller.current?.abort(),
      notice: (text: string, tone?: ItemTone) => enqueue({ type: "notice", text, tone }, true),
      clear: () => enqueue({ type: "clear" }, true),
      whenIdle: async () => {
        while (current.current) await current.current;
      },
    }),
    [state, submit, enqueue],
  );
}
