/**
 * Pure state of one child agent for its pane: started by `subagent_start`, fed the child's own
 * events (unwrapped from `subagent_event`), closed by `subagent_end`.
 */
import type { AgentEvent, SubagentSummary } from "../../src/protocol/events.js";
import { addUsage, emptyUsage, type Usage } from "../../src/protocol/messages.js";
import { CHARS_PER_TOKEN } from "../../src/core/token-estimate.js";
import { compactionLine } from "./compaction-line.js";
import { budgetPausedView, endsRetry, pausedView, retryView } from "./retry-status.js";
import { resultHead } from "./result-head.js";
import { overlapLine } from "../../src/subagents/runtime/edit-claims.js";
import type { ChildEntry, ChildToolEntry, ChildView } from "./transcript-types.js";

/** Characters kept of one stretch of streamed text (a pane shows only the last few lines). */
export const CHILD_TEXT_CAP = 4000;
/** Entries (text stretches and tool calls) a child keeps; older ones are dropped. */
export const CHILD_ENTRIES_CAP = 120;

/** The view of a child that just started. */
export function startChild(init: { childId: string; profile?: string; color?: string; description?: string; prompt: string; model?: string; resumed: boolean; worktree?: string; run?: string; at: number }): ChildView {
  return {
    childId: init.childId,
    ...(init.run ? { run: init.run } : {}),
    profile: init.profile,
    ...(init.model ? { model: init.model } : {}),
    ...(init.color ? { color: init.color } : {}),
    ...(init.description ? { description: init.description } : {}),
    prompt: init.prompt,
    status: "running",
    startedAt: init.at,
    turns: 0,
    usage: emptyUsage(),
    report: "",
    entries: [],
    dropped: 0,
    thinking: false,
    resumed: init.resumed,
    worktree: init.worktree,
  };
}

function capText(text: string): string {
  return text.length <= CHILD_TEXT_CAP ? text : text.slice(text.length - CHILD_TEXT_CAP);
}

/** `child` with `entries`, dropping the oldest beyond the cap. */
function withEntries(child: ChildView, entries: ChildEntry[]): ChildView {
  const over = entries.length - CHILD_ENTRIES_CAP;
  return over > 0 ? { ...child, entries: entries.slice(over), dropped: child.dropped + over } : { ...child, entries };
}

function appendText(child: ChildView, text: string): ChildView {
  const last = child.entries[child.entries.length - 1];
  if (last?.kind === "text" && !last.closed) return { ...child, entries: [...child.entries.slice(0, -1), { ...last, text: capText(last.text + text) }], thinking: false };
  return { ...withEntries(child, [...child.entries, { kind: "text", text: capText(text) }]), thinking: false };
}

/** `child` with a line of its own after its entries (the open text stretch is closed first). */
function addLine(child: ChildView, text: string): ChildView {
  const entries = child.entries.map((e, i) => (i === child.entries.length - 1 && e.kind === "text" ? { ...e, closed: true } : e));
  return withEntries({ ...child, entries }, [...entries, { kind: "text", text, closed: true }]);
}

function upsertTool(child: ChildView, tool: ChildToolEntry): ChildView {
  const i = child.entries.findIndex((e) => e.kind === "tool" && e.id === tool.id);
  if (i === -1) return withEntries(child, [...child.entries, tool]);
  const entries = [...child.entries];
  entries[i] = { ...(entries[i] as ChildToolEntry), ...tool };
  return { ...child, entries };
}

/**
 * The tokens of `child` so far, one figure for its pane, row and summary: its usage events (each
 * turn's report; an aborted turn's estimate from the core) plus the live estimate of what it
 * streamed since the latest report (CHARS_PER_TOKEN characters a token, as the core estimates an
 * aborted turn — so the figure does not change when the child is stopped).
 */
export function childUsage(child: ChildView): Usage {
  const pending = Math.ceil((child.pendingChars ?? 0) / CHARS_PER_TOKEN);
  return pending === 0 ? child.usage : { ...child.usage, output: child.usage.output + pending };
}

/**
 * Applies one of the child's own events, received at `at` (UI clock, ms): every event refreshes
 * `lastEventAt` (so a silent child can be told from a working one), streamed text and thinking
 * grow the live output-token estimate until the turn's real usage replaces it; a `retry` marks the
 * child as retrying (its pane and row count down to the next attempt) until its next progress.
 */
export function reduceChild(child: ChildView, event: AgentEvent, at?: number): ChildView {
  const when = at ?? child.lastEventAt ?? child.startedAt;
  const next =
    event.type === "retry" ? { ...child, retry: retryView(event, when) } : event.type === "paused" ? { ...child, retry: pausedView(event, when), reason: undefined } : event.type === "budget_paused" ? { ...child, retry: budgetPausedView(event, when), reason: undefined } : reduceChildEvent(child.retry && endsRetry(event) ? { ...child, retry: undefined } : child, event);
  const streamed = event.type === "text_delta" ? event.text.length : event.type === "thinking_delta" ? event.text.length : 0;
  const pending = event.type === "usage" ? 0 : (child.pendingChars ?? 0) + streamed;
  if (at === undefined && pending === (child.pendingChars ?? 0)) return next;
  return { ...next, lastEventAt: at ?? next.lastEventAt, pendingChars: pending };
}

function reduceChildEvent(child: ChildView, event: AgentEvent): ChildView {
  switch (event.type) {
    case "text_delta":
      return appendText(child, event.text);
    case "thinking_delta":
      return child.thinking ? child : { ...child, thinking: true };
    case "turn_start": {
      const last = child.entries[child.entries.length - 1];
      const entries = last?.kind === "text" && !last.closed ? [...child.entries.slice(0, -1), { ...last, closed: true }] : child.entries;
      return { ...child, turns: Math.max(child.turns, event.turn), entries };
    }
    case "message": {
      if (event.message.role !== "assistant") return child;
      const block = event.message.content.find((b) => b.type === "text" && b.text.trim() !== "");
      return block && block.type === "text" ? { ...child, report: block.text } : child;
    }
    case "usage":
      return { ...child, usage: addUsage({ ...child.usage }, event.usage) };
    case "tool_start":
      return upsertTool(child, { kind: "tool", id: event.call.id, name: event.call.name, args: event.call.arguments, status: "running" });
    case "tool_end":
      return upsertTool(child, {
        kind: "tool",
        id: event.call.id,
        name: event.call.name,
        args: event.call.arguments,
        status: event.result.isError ? "error" : "ok",
        ...resultHead(event.result.content),
      });
    case "error":
      return { ...child, reason: event.message };
    case "steered":
      // A message it was sent entered its history: the pane shows it where the child read it.
      return addLine(child, `✉ ${event.from === "user" ? "you" : "main agent"}: ${event.text}`);
    case "edit_overlap":
      // Two agents changed one file of the shared tree: a line on this child's pane.
      return addLine(child, overlapLine(event));
    case "compaction_start":
      return { ...child, note: "✂ compacting context…" };
    case "compaction_end":
      return { ...child, note: compactionLine(event)?.text };
    default:
      return child;
  }
}

/**
 * Closes the child with the core's summary. Its entries go: they were its pane's live view, and a
 * finished child shows its summary and report, its transcript overlay loading the whole
 * conversation from its session file (a long session would otherwise keep every child's text).
 */
export function endChild(child: ChildView, summary: SubagentSummary): ChildView {
  return {
    ...child,
    status: summary.status,
    durationMs: summary.durationMs,
    turns: Math.max(child.turns, summary.turns),
    usage: { ...summary.usage },
    pendingChars: 0,
    reason: summary.reason ?? child.reason,
    thinking: false,
    retry: undefined,
    stopping: false,
    entries: [],
  };
}

/**
 * The finished `child` of a task call whose result is `result`: when the result starts with the
 * child's report (as the task tool writes it), the report is kept once, as the result's start.
 */
export function foldReport(child: ChildView, result: string | undefined): ChildView {
  if (child.report === "" || result === undefined || !result.startsWith(child.report)) return child;
  return { ...child, report: "", reportChars: child.report.length };
}

/** The report of `child` (whose task item's result is `result`), folded into that result or not. */
export function childReport(child: ChildView, result: string | undefined): string {
  return child.reportChars === undefined ? child.report : (result ?? "").slice(0, child.reportChars);
}

/** Marks a running child the person asked to stop (its pane says "stopping…" until its end arrives). */
export function markStopping(child: ChildView): ChildView {
  return child.status === "running" ? { ...child, stopping: true } : child;
}

/** Marks a child that never reported its end (its run was cut off) as aborted. */
export function abandonChild(child: ChildView, at: number): ChildView {
  if (child.status !== "running") return child;
  return endChild(child, { status: "aborted", turns: child.turns, usage: childUsage(child), durationMs: at - child.startedAt, reason: child.reason ?? "the run ended before the child reported back" });
}
