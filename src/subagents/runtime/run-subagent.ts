/**
 * runSubagent: runs one child agent in its own history with the same loop as the main agent.
 * One child AbortController is fed by the parent's signal and by the timeout; the listeners are
 * removed when the child ends. The outcome says how it ended and carries its final text.
 */
import type { AgentEvent, AgentInfo } from "../../protocol/events.js";
import { runAgentLoop, type LoopOptions, type SteerMessage } from "../../core/loop.js";
import { addUsage, emptyUsage, finalAssistantText, type AgentMessage, type Usage } from "../../protocol/messages.js";
import type { OnToolCall } from "../../core/tool-runner.js";
import type { Provider, ThinkingConfig } from "../../protocol/provider.js";
import type { AnyTool } from "../../protocol/tool.js";
import { errorMessage } from "../../protocol/error-message.js";
import { MAX_STOP_ROUNDS, stopFeedback, type SubagentHookCalls } from "../../hooks/session-hooks.js";
import { missingReport, reaskPrompt } from "./report-check.js";
import type { SubagentBudget } from "./budget.js";
import { estimateNextRequest } from "../../core/token-estimate.js";
import { DEFAULT_PAUSE_LIMIT_MS, pauseCause, pauseDelay, pauseSleep, type PauseOptions } from "./pause.js";

export type SubagentStatus = "ok" | "aborted" | "timeout" | "crash";

export interface SubagentOutcome {
  status: SubagentStatus;
  /** finalAssistantText of this run's messages ("" when none). */
  text: string;
  reason?: string;
  /** Turns whose model call answered (a request cut by a timeout or an error does not count). */
  turns: number;
  usage: Usage;
  sessionId?: string;
  historyPath?: string;
  durationMs: number;
  /** Health warnings raised during the run (e.g. the same tool call repeated). */
  warnings?: string[];
  /** Set when an "ok" child gave no report even when asked once more: its last text was empty or only a pointer ("see above"). */
  noReport?: "empty" | "pointer";
}

export interface SubagentOptions {
  provider: Provider;
  model: string;
  /** The child's complete system prompt (see childSystemPrompt). */
  system: string;
  /** The child's tools (see selectChildToolPool). */
  tools: readonly AnyTool[];
  prompt: string;
  /** Saved history of a resumed child; a new child starts from []. */
  initialHistory?: readonly AgentMessage[];
  cwd: string;
  agent: AgentInfo;
  signal?: AbortSignal;
  /** Stops this child alone (the person stopped its pane); the parent goes on. A string abort reason is reported as the reason. */
  stopSignal?: AbortSignal;
  timeoutMs?: number;
  maxTurns?: number;
  thinking?: ThinkingConfig;
  onToolCall?: OnToolCall;
  onBeforeTurn?: LoopOptions["onBeforeTurn"];
  onContextOverflow?: LoopOptions["onContextOverflow"];
  /** Every event of the child's loop. Contract: must not throw. */
  onEvent?: (event: AgentEvent) => void;
  /** Messages sent to the child while it runs (the person from its pane, the parent with task + resume). */
  takeMessages?: LoopOptions["takeMessages"];
  /** Every message the child appends (session persistence). Contract: must not throw. */
  onMessage?: (message: AgentMessage) => void;
  sessionId?: string;
  historyPath?: string;
  /** Pausing on transient failures (see pause.ts); by default a child pauses for up to 30 min in all. */
  pause?: PauseOptions;
  /** SubagentStart / SubagentStop hooks (src/hooks/session-hooks.ts). */
  hooks?: SubagentHookCalls;
  /** The child's budget (its own and the tree's): checked before each request; a stop ends it "aborted" with the budget as reason. */
  budget?: SubagentBudget;
}

/** Runs the child to its end; never throws — failures become a "crash" outcome. */
export async function runSubagent(options: SubagentOptions): Promise<SubagentOutcome> {
  const started = Date.now();
  const history: AgentMessage[] = options.initialHistory ? [...options.initialHistory] : [];
  const firstNew = history.length;
  const child = new AbortController();
  const clock = options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined;
  let timedOut = false;
  let stopped: string | undefined;
  const relay = () => child.abort();
  const onStop = () => {
    if (!child.signal.aborted) {
      const reason: unknown = options.stopSignal?.reason;
      stopped = typeof reason === "string" ? reason : "stopped by the user";
    }
    child.abort();
  };
  const onClock = () => {
    timedOut = !child.signal.aborted;
    child.abort();
  };
  if (options.signal?.aborted) child.abort();
  else options.signal?.addEventListener("abort", relay, { once: true });
  if (clock?.aborted) onClock();
  else clock?.addEventListener("abort", onClock, { once: true });
  if (options.stopSignal?.aborted) onStop();
  else options.stopSignal?.addEventListener("abort", onStop, { once: true });
  const whyAborted = (): SubagentOutcome =>
    timedOut ? settled("timeout", `timed out after ${options.timeoutMs} ms`) : settled("aborted", stopped ?? "the parent run was aborted");

  let turns = 0;
  // Turns whose model call answered: a call that never answered (a timeout or failure during the
  // request) is not a turn in the result's "after N turns".
  let completed = 0;
  const usage = emptyUsage();
  const warnings: string[] = [];
  const settled = (status: SubagentStatus, reason?: string): SubagentOutcome => ({
    status,
    text: finalAssistantText(history.slice(firstNew)),
    reason,
    turns: completed,
    usage,
    sessionId: options.sessionId,
    historyPath: options.historyPath,
    durationMs: Date.now() - started,
    ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
  });
  const pauseLimit = options.pause?.limitMs ?? DEFAULT_PAUSE_LIMIT_MS;
  let pausedMs = 0;
  let pauses = 0;
  let turnsBefore = 0;
  let inTurn = false;
  let reasked = false;
  // The first run appends the prompt; after a pause the loop goes on from the saved history (which
  // ends with the prompt or a tool result, since a failed call appends nothing), so no turn repeats.
  let userMessage: string | undefined = options.prompt;
  let stopRounds = 0;
  // Messages taken after a loop ended (sent while a SubagentStop hook ran): the next loop reads them first.
  const carried: SteerMessage[] = [];
  const takeMessages = options.takeMessages && (() => [...carried.splice(0), ...options.takeMessages!()]);
  try {
    const startContext = options.hooks ? await options.hooks.start(options.agent, child.signal).catch(() => [] as string[]) : [];
    if (startContext.length > 0) userMessage = `${options.prompt}\n\n[SubagentStart hook context]\n${startContext.join("\n")}`;
    for (;;) {
      try {
        const result = await runAgentLoop({
          provider: options.provider,
          model: options.model,
          system: options.system,
          tools: options.tools,
          history,
          userMessage,
          // The re-ask for a missing report gets its turn even when the limit is used up.
          maxIterations: Math.max(reasked ? 1 : 0, (options.maxTurns ?? Number.POSITIVE_INFINITY) - turnsBefore),
          thinking: options.thinking,
          cwd: options.cwd,
          agent: options.agent,
          signal: child.signal,
          onMessage: options.onMessage,
          takeMessages,
          onToolCall: options.onToolCall,
          onBeforeTurn: options.budget
            ? async (h, ctx) => {
                // Before each request: a reached budget pauses the child (the person may extend it) or stops it.
                // The request is estimated as it will be sent (the tree's budget keeps parallel children within what is left).
                const verdict = await options.budget!.check(ctx.signal, turnsBefore + ctx.turn - 1, () => estimateNextRequest(h));
                if (verdict && !child.signal.aborted) {
                  stopped = verdict.stop;
                  child.abort();
                  return;
                }
                await options.onBeforeTurn?.(h, ctx);
              }
            : options.onBeforeTurn,
          onContextOverflow: options.onContextOverflow,
          onEvent: (raw) => {
            // Turn numbers run on across pauses (each resumed loop counts from 1 again).
            const event = (raw.type === "turn_start" || raw.type === "turn_end") && turnsBefore > 0 ? { ...raw, turn: turnsBefore + raw.turn } : raw;
            if (event.type === "turn_start") {
              turns = event.turn;
              inTurn = true;
            }
            if (event.type === "turn_end") {
              inTurn = false;
              completed++;
            }
            // Usage events, as the child's pane counts them: a turn's report, or an aborted turn's estimate.
            if (event.type === "usage") {
              addUsage(usage, event.usage);
              options.budget?.count(event.usage);
            }
            if (event.type === "warning" && event.source === "loop") warnings.push(event.message);
            options.onEvent?.(event);
          },
        });
        turns = turnsBefore + result.turns;
        if (result.reason === "aborted") return whyAborted();
        if (result.reason === "max_iterations") return settled("crash", `reached its turn limit (maxTurns ${options.maxTurns}) before finishing`);
        const missing = missingReport(finalAssistantText(history.slice(firstNew)));
        if (missing && !reasked) {
          // Asked once more, within its own history (saved like any message), for the report it did not give.
          reasked = true;
          turnsBefore = turns;
          userMessage = reaskPrompt(missing);
          options.onEvent?.({ type: "steered", text: `(no final report: ${missing === "empty" ? "its last message had no text" : "its last message only pointed to earlier output"}; asked once more for its report)`, from: "parent" });
          continue;
        }
        if (!missing && options.hooks) {
          // A SubagentStop hook may send the report back for more work (once per block, MAX_STOP_ROUNDS in a row).
          const reason = await options.hooks.stop(options.agent, finalAssistantText(history.slice(firstNew)), stopRounds > 0, options.historyPath, child.signal);
          if (reason !== undefined && stopRounds < MAX_STOP_ROUNDS) {
            stopRounds++;
            turnsBefore = turns;
            userMessage = stopFeedback("SubagentStop", reason);
            continue;
          }
        }
        // A message sent after the loop's last read (while the SubagentStop hook ran) is read, not dropped.
        const late = turns >= (options.maxTurns ?? Number.POSITIVE_INFINITY) ? [] : (options.takeMessages?.() ?? []);
        if (late.length > 0) {
          carried.push(...late);
          turnsBefore = turns;
          userMessage = undefined;
          continue;
        }
        return missing ? { ...settled("ok"), noReport: missing } : settled("ok");
      } catch (err) {
        if (child.signal.aborted) return whyAborted();
        const label = pauseCause(err);
        if (label === undefined) return settled("crash", errorMessage(err));
        const delayMs = pauseDelay(++pauses, (err as { retryAfterMs?: number }).retryAfterMs);
        if (pausedMs + delayMs > pauseLimit) {
          const gaveUp = pausedMs > 0 ? ` (paused ${Math.round(pausedMs / 1000)}s in all, limit ${Math.round(pauseLimit / 1000)}s)` : "";
          return settled("crash", `${errorMessage(err)}${gaveUp}`);
        }
        options.onEvent?.({ type: "paused", label, reason: errorMessage(err), delayMs, pausedMs, limitMs: pauseLimit });
        const pauseStarted = Date.now();
        let woken = false;
        const onWake = (wake: (() => void) | undefined) =>
          options.pause?.onWake?.(
            wake &&
              (() => {
                woken = true;
                wake();
              }),
          );
        const slept = await pauseSleep(delayMs, child.signal, onWake);
        pausedMs += Math.min(delayMs, Math.max(0, Date.now() - pauseStarted));
        if (!slept) return whyAborted();
        options.onEvent?.({ type: "resumed", early: woken });
        // The failed call's turn produced nothing: the next try takes its number.
        turnsBefore = inTurn ? turns - 1 : turns;
        inTurn = false;
        userMessage = undefined;
      }
    }
  } finally {
    options.budget?.end();
    options.signal?.removeEventListener("abort", relay);
    clock?.removeEventListener("abort", onClock);
    options.stopSignal?.removeEventListener("abort", onStop);
  }
}
