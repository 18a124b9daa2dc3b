/**
 * One run of the main agent's loop for a user message, wired to the session: the tree budget
 * is checked before every request (a stop ends the run before its next request, see budget.ts),
 * the context is compacted when it grows too large, steering messages and background reports
 * enter at turn boundaries, and every message, task record and usage goes to the session file;
 * a Stop hook may send the agent back to work. Also what the person's prompt becomes (hooks, @-mentions)
 * and the compaction hooks of the session's agents.
 */
import { createCompactor, type CompactionEntry, type Compactor } from "../core/compaction.js";
import { MAIN_AGENT, runAgentLoop, type LoopResult, type SteerMessage } from "../core/loop.js";
import type { OnToolCall } from "../core/tool-runner.js";
import { estimateNextRequest } from "../core/token-estimate.js";
import { runWithStopHook, stopFeedback, type SessionHooks } from "../hooks/session-hooks.js";
import { expandMentions } from "../context/mentions.js";
import type { AgentEvent } from "../protocol/events.js";
import { finalAssistantText, type AgentMessage } from "../protocol/messages.js";
import type { Provider, ThinkingConfig } from "../protocol/provider.js";
import type { AnyTool } from "../protocol/tool.js";
import type { SessionEntryInput } from "../session/types.js";
import { childlessTaskRecord } from "../subagents/tools/task-refusals.js";
import type { TaskDetails } from "../session/types.js";
import type { TreeBudget } from "../subagents/runtime/tree-budget.js";
import { toToolSpec } from "../tools/spec.js";

/** What one main run reads and writes (built afresh for every run: the model and pool may have changed). */
export interface MainRunDeps {
  provider: Provider;
  model: string;
  system: string;
  tools: AnyTool[];
  /** The main agent's history, extended in place. */
  history: AgentMessage[];
  cwd: string;
  thinking?: ThinkingConfig;
  /** Any of them aborts the run (the person's stop, a lost session lock). */
  signals: Array<AbortSignal | undefined>;
  onToolCall: OnToolCall;
  treeBudget: TreeBudget;
  compactor: Compactor;
  /** Messages waiting for the main agent at a turn boundary (steering, background reports), taken once each. */
  takeMessages: () => SteerMessage[];
  /** Appends an entry to the session file. */
  record: (entry: SessionEntryInput, onEvent?: (e: AgentEvent) => void) => void;
}

/**
 * The text the model gets for the person's `text`: the UserPromptSubmit hooks' context added and
 * @-mentioned files attached (an `attachments` event says which); undefined when a hook blocked it.
 */
export async function promptMessage(text: string, d: { hooks: SessionHooks; resumed: boolean; cwd: string; signal?: AbortSignal; onEvent?: (e: AgentEvent) => void }): Promise<string | undefined> {
  const gate = await d.hooks.beforePrompt(text, { resumed: d.resumed, signal: d.signal });
  if (gate.blocked !== undefined) return undefined;
  const mentions = expandMentions(text, d.cwd);
  if (mentions.attached.length > 0 || mentions.problems.length > 0) d.onEvent?.({ type: "attachments", files: mentions.attached, problems: mentions.problems });
  const hookContext = gate.context.length > 0 ? `\n\n[hook context]\n${gate.context.join("\n")}` : "";
  return mentions.text + hookContext;
}

/**
 * Runs the loop for `userMessage`, then again with the Stop hook's feedback while a Stop hook sends
 * the agent back to work (hooks/session-hooks.ts). `deps` is read at the start of every loop.
 */
export function runMainPrompt(deps: () => MainRunDeps, hooks: SessionHooks, userMessage: string, opts: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void }): Promise<LoopResult> {
  return runWithStopHook(
    () => runMainLoop(deps(), userMessage, opts.onEvent),
    (reason) => runMainLoop(deps(), stopFeedback("Stop", reason), opts.onEvent),
    (active) => hooks.stop(active, finalAssistantText(deps().history), opts.signal),
  );
}

/** Runs the main agent's loop for `userMessage` to its end; events go to `onEvent`. Rejects with the provider's error. */
export async function runMainLoop(d: MainRunDeps, userMessage: string, onEvent?: (e: AgentEvent) => void): Promise<LoopResult> {
  // The session tree's budget: a stop ends this run before its next request (see budget.ts).
  const budgetStop = new AbortController();
  const signals = [...d.signals, budgetStop.signal].filter((s): s is AbortSignal => s !== undefined);
  try {
    return await runAgentLoop({
    provider: d.provider,
    model: d.model,
    system: d.system,
    tools: d.tools,
    history: d.history,
    userMessage,
    cwd: d.cwd,
    thinking: d.thinking,
    signal: AbortSignal.any(signals),
    onToolCall: d.onToolCall,
    onBeforeTurn: async (history, ctx) => {
      // Its request is estimated as it will be sent (the last reply plus the tool results since).
      const usage = d.treeBudget.active ? estimateNextRequest(history) : undefined; // only a limit needs the estimate
      const verdict = await d.treeBudget.gate(MAIN_AGENT, ctx.turn - 1, ctx.signal, (event) => onEvent?.(event), usage && { model: d.model, usage });
      if (verdict && !ctx.signal.aborted) {
        onEvent?.({ type: "warning", source: "budget", message: `${verdict.stop}: the main agent stopped before its next request` });
        budgetStop.abort();
        return;
      }
      await d.compactor.onBeforeTurn?.(history, ctx);
    },
    onContextOverflow: d.compactor.onContextOverflow,
    takeMessages: d.takeMessages,
    onMessage: (message) => d.record({ type: "message", message }, onEvent),
    onEvent: (event) => {
      if (event.type === "tool_end" && event.call.name === "task") {
        // A call under which no child ran (refused, or stopped before it started) leaves its record too, saying why there is no transcript.
        const ran = (event.details as Partial<TaskDetails> | undefined)?.taskRecord;
        const record = ran ?? (event.result.isError ? childlessTaskRecord(event.call, event.result, event.durationMs, event.details) : undefined);
        if (record) d.record({ type: "task_record", record }, onEvent);
      }
      if (event.type === "agent_end") d.record({ type: "usage", usage: event.usage }, onEvent);
      if (event.type === "usage") d.treeBudget.add(d.model, event.usage, MAIN_AGENT.id);
      onEvent?.(event);
    },
  });
  } finally {
    d.treeBudget.settle(MAIN_AGENT.id); // no request of the main agent in flight any more
  }
}

/** Compaction hooks for an agent of the session (main or child) running `system` on `model` with the session's pool; the PreCompact hooks run first. */
export function sessionCompactor(d: { provider: Provider; tools: () => readonly AnyTool[]; hooks: SessionHooks }, system: string, model: string, record: (e: CompactionEntry) => void, emit: (e: AgentEvent) => void): Compactor {
  return createCompactor({
    provider: d.provider,
    model,
    system: () => system,
    tools: () => d.tools().map(toToolSpec),
    contextWindow: d.provider.contextWindow(model),
    onCompaction: record,
    onEvent: emit,
    beforeCompact: (reason, signal) => d.hooks.preCompact(reason === "manual", signal),
  });
}
