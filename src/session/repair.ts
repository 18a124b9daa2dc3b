/**
 * History repair: decides whether a saved message list can be sent to a provider again, and makes
 * it sendable when only a crash tail is wrong. A tool-call id used twice is renamed (results paired
 * by order). What cannot be paired safely (a result without its call, two results for one call,
 * calls without results in the middle) is refused, naming the entry; only the last assistant message's unanswered calls are closed
 * (never re-run), and a history that does not start with a user turn gets a placeholder user turn
 * naming the gap. Pure functions; inputs are never mutated.
 */
import { uniqueToolIds } from "../protocol/unique-tool-ids.js";
import { toolCallsOf as callsOfAssistant, type AgentMessage, type ToolCall, type ToolResult, type ToolResultMessage, type UserMessage } from "../protocol/messages.js";

/** The tool calls of any message ([] unless it is an assistant message). */
function toolCallsOf(message: AgentMessage): ToolCall[] {
  return message.role === "assistant" ? callsOfAssistant(message) : [];
}

/** Content of the synthetic result given to a tool call that never got one. */
export const INTERRUPTED_RESULT = "interrupted: the session ended before this tool call finished (it was not run again)";

/** What `repairHistory` returns. */
export interface RepairResult {
  messages: AgentMessage[];
  /** True when anything was added or merged. */
  repaired: boolean;
  /** One note per change, naming the entry. */
  notes: string[];
  /** Short phrases for a reader of the result ("1 interrupted tool call closed"). */
  summary: string[];
  /** Messages to append to the session file so that it matches the repaired history (closed calls). */
  toPersist: AgentMessage[];
}

/** Thrown when a history cannot be repaired safely; `problems` names every entry at fault. */
export class HistoryRefusedError extends Error {
  override readonly name = "HistoryRefusedError";
  constructor(readonly problems: string[], where = "the history") {
    super(`cannot continue ${where}: ${problems.join("; ")} (nothing was changed)`);
  }
}

/** Names message `i` for a problem or note ("message 3", or "line 5" from the loader). */
export type EntryLabel = (index: number) => string;
const byIndex: EntryLabel = (i) => `message ${i}`;

/** Start of the placeholder user turn standing in for unreadable history. */
export const GAP_PLACEHOLDER_PREFIX = "[ink: part of this conversation could not be read";

function placeholder(what: string): UserMessage {
  return { role: "user", content: `${GAP_PLACEHOLDER_PREFIX} (${what}); continue from the messages that follow]` };
}

/** The index of the assistant message a toolResult at `i` answers (skipping earlier toolResults), or -1. */
function ownerOf(messages: readonly AgentMessage[], i: number): number {
  let j = i - 1;
  while (j >= 0 && messages[j]!.role === "toolResult") j--;
  return j >= 0 && messages[j]!.role === "assistant" && toolCallsOf(messages[j]!).length > 0 ? j : -1;
}

/** Every reason `messages` cannot be sent safely; [] when it can (after closing a crash tail). */
export function historyProblems(messages: readonly AgentMessage[], label: EntryLabel = byIndex): string[] {
  const problems: string[] = [];
  const callAt = new Map<string, number>();
  messages.forEach((m, i) => {
    for (const call of toolCallsOf(m)) {
      const first = callAt.get(call.id);
      if (first !== undefined) problems.push(`tool call id "${call.id}" is used twice (${label(first)} and ${label(i)})`);
      else callAt.set(call.id, i);
    }
  });
  const answered = new Map<number, Set<string>>();
  messages.forEach((m, i) => {
    if (m.role !== "toolResult") return;
    const owner = ownerOf(messages, i);
    if (owner < 0) {
      problems.push(`${label(i)} holds tool results (${m.results.map((r) => r.toolCallId).join(", ")}) that follow no tool call`);
      return;
    }
    const ids = new Set(toolCallsOf(messages[owner]!).map((c) => c.id));
    const done = answered.get(owner) ?? new Set<string>();
    answered.set(owner, done);
    for (const r of m.results) {
      if (!ids.has(r.toolCallId)) problems.push(`${label(i)} holds a result for tool call "${r.toolCallId}", which ${label(owner)} did not make`);
      else if (done.has(r.toolCallId)) problems.push(`tool call "${r.toolCallId}" (${label(owner)}) has two results (the second in ${label(i)})`);
      else done.add(r.toolCallId);
    }
  });
  messages.forEach((m, i) => {
    const calls = toolCallsOf(m);
    if (calls.length === 0) return;
    const missing = calls.filter((c) => !answered.get(i)?.has(c.id));
    if (missing.length === 0 || isTail(messages, i)) return;
    problems.push(`${label(i)} has tool call(s) without results in the middle of the history: ${missing.map((c) => `${c.name} ${c.id}`).join(", ")}`);
  });
  return problems;
}

/** True when everything after message `i` is toolResult messages (a crash tail). */
function isTail(messages: readonly AgentMessage[], i: number): boolean {
  for (let k = i + 1; k < messages.length; k++) if (messages[k]!.role !== "toolResult") return false;
  return true;
}

/**
 * Repairs `messages` or throws `HistoryRefusedError` listing every problem (see `historyProblems`).
 * Repairs: a tool-call id used twice is renamed (unique-tool-ids.ts); the crash tail's unanswered calls get an `isError` interrupted result (returned in
 * `toPersist` too); toolResult messages answering one assistant message are merged; a history
 * starting with anything but a user turn, and two assistant turns in a row, get a placeholder user
 * turn naming the gap. A valid history comes back equal, with `repaired: false`.
 */
export function repairHistory(messages: readonly AgentMessage[], label: EntryLabel = byIndex, where?: string): RepairResult {
  const unique = uniqueToolIds(messages, label);
  const problems = historyProblems(unique.messages, label);
  if (problems.length > 0) throw new HistoryRefusedError(problems, where);
  const result = normalise(unique.messages, label, true);
  if (unique.notes.length === 0) return result;
  return { ...result, repaired: true, notes: [...unique.notes, ...result.notes], summary: ["duplicate tool call ids renamed", ...result.summary] };
}

/**
 * The shape-only part of the repair (placeholders and merges; with `closeTail`, the crash tail
 * too), without refusing. The loader uses it at a compaction point, where the live history was
 * complete; `repairHistory` is the checked entry point.
 */
export function normalise(messages: readonly AgentMessage[], label: EntryLabel = byIndex, closeTail = false): RepairResult {
  const out: AgentMessage[] = [];
  const notes: string[] = [];
  const summary: string[] = [];
  const toPersist: AgentMessage[] = [];
  if (messages.length > 0 && messages[0]!.role !== "user") {
    out.push(placeholder(`the start, before ${label(0)}, was damaged or missing`));
    notes.push(`inserted a placeholder user turn before ${label(0)}: the history did not start with a user message`);
    summary.push("a placeholder for the unreadable start of the conversation inserted");
  }
  let i = 0;
  while (i < messages.length) {
    const message = messages[i]!;
    const previous = out.at(-1);
    if (message.role === "assistant" && previous?.role === "assistant") {
      out.push(placeholder(`a turn before ${label(i)} was damaged or missing`));
      notes.push(`inserted a placeholder user turn before ${label(i)}: two assistant turns in a row`);
      summary.push(`a placeholder for an unreadable turn before ${label(i)} inserted`);
    }
    out.push(message);
    const calls = toolCallsOf(message);
    const owner = i;
    i++;
    if (calls.length === 0) continue;
    const followers: ToolResultMessage[] = [];
    while (i < messages.length && messages[i]!.role === "toolResult") followers.push(messages[i++] as ToolResultMessage);
    const results: ToolResult[] = followers.flatMap((m) => m.results);
    if (followers.length > 1) notes.push(`merged ${followers.length} tool result messages after ${label(owner)}`);
    const have = new Set(results.map((r) => r.toolCallId));
    const missing = calls.filter((c) => !have.has(c.id));
    if (missing.length > 0 && closeTail) {
      const closed: ToolResult[] = missing.map((c) => ({ toolCallId: c.id, toolName: c.name, content: INTERRUPTED_RESULT, isError: true }));
      results.push(...closed);
      toPersist.push({ role: "toolResult", results: closed });
      notes.push(`closed ${missing.length} interrupted tool call(s) of ${label(owner)} without running them: ${missing.map((c) => `${c.name} ${c.id}`).join(", ")}`);
      summary.push(`${missing.length} interrupted tool call${missing.length === 1 ? "" : "s"} closed`);
    }
    if (followers.length === 1 && missing.length === 0) out.push(followers[0]!);
    else if (results.length > 0) out.push({ role: "toolResult", results });
  }
  return { messages: out, repaired: notes.length > 0, notes, summary, toPersist };
}

/**
 * True when every assistant tool call has exactly one result in the toolResult message right
 * after it, that message holds no other results, and no toolResult message stands elsewhere.
 */
export function isHistoryValid(messages: readonly AgentMessage[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "toolResult") {
      const prev = i > 0 ? messages[i - 1]! : undefined;
      if (!prev || toolCallsOf(prev).length === 0) return false;
      continue;
    }
    const calls = toolCallsOf(message);
    if (calls.length === 0) continue;
    if (new Set(calls.map((c) => c.id)).size !== calls.length) return false;
    const next = messages[i + 1];
    if (!next || next.role !== "toolResult") return false;
    const ids = next.results.map((r) => r.toolCallId);
    if (new Set(ids).size !== ids.length || ids.length !== calls.length) return false;
    if (!calls.every((c) => ids.includes(c.id))) return false;
  }
  return true;
}

/** True when `messages` is valid and can be sent: it starts with a user turn and no two assistant turns are adjacent. */
export function isHistorySendable(messages: readonly AgentMessage[]): boolean {
  if (messages.length > 0 && messages[0]!.role !== "user") return false;
  for (let i = 1; i < messages.length; i++) if (messages[i]!.role === "assistant" && messages[i - 1]!.role === "assistant") return false;
  return isHistoryValid(messages);
}
