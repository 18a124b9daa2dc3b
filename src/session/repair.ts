/**
 * History repair: makes a message list valid for a provider again after an interruption
 * (every assistant tool call answered by exactly one result in the toolResult message right
 * after it). Pure functions; inputs are never mutated.
 */
import { toolCallsOf, type AgentMessage, type ToolCall, type ToolResult, type ToolResultMessage } from "../protocol/messages.js";

/** Content of the synthetic result given to a tool call that never got one. */
export const INTERRUPTED_RESULT = "interrupted: the session ended before this tool call finished";

/** What `repairHistory` returns. */
export interface RepairResult {
  messages: AgentMessage[];
  /** True when anything was added, dropped or merged. */
  repaired: boolean;
  /** One note per change, naming the message index (in the input). */
  notes: string[];
}

/** The unique tool calls of a message list entry (first occurrence of each id). */
function uniqueCalls(message: AgentMessage): ToolCall[] {
  if (message.role !== "assistant") return [];
  const seen = new Set<string>();
  return toolCallsOf(message).filter((c) => !seen.has(c.id) && seen.add(c.id));
}

/**
 * Repairs `messages`: after each assistant message with tool calls, the following toolResult
 * messages are merged into one holding exactly one result per call (existing results keep their
 * order; duplicates and results for unknown calls are dropped; missing ones get an `isError`
 * result saying the call was interrupted). toolResult messages not preceded by an assistant
 * message with tool calls are dropped. Everything else (a trailing user message too) is kept.
 * A valid history comes back equal, with `repaired: false`.
 */
export function repairHistory(messages: readonly AgentMessage[]): RepairResult {
  const out: AgentMessage[] = [];
  const notes: string[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i]!;
    if (message.role === "toolResult") {
      notes.push(`dropped a tool result message (message ${i}) that does not follow an assistant tool call`);
      i++;
      continue;
    }
    out.push(message);
    const calls = uniqueCalls(message);
    i++;
    if (calls.length === 0) continue;

    const firstResultIndex = i;
    const followers: ToolResultMessage[] = [];
    while (i < messages.length && messages[i]!.role === "toolResult") followers.push(messages[i++] as ToolResultMessage);
    const { message: fixed, changes } = answerCalls(calls, followers);
    out.push(fixed);
    if (changes.length > 0) notes.push(`${changes.join("; ")} (tool results after message ${firstResultIndex - 1})`);
  }
  return { messages: out, repaired: notes.length > 0, notes };
}

/** Builds the single toolResult message answering `calls` from the toolResult messages that followed. */
function answerCalls(calls: ToolCall[], followers: ToolResultMessage[]): { message: ToolResultMessage; changes: string[] } {
  const changes: string[] = [];
  if (followers.length > 1) changes.push(`merged ${followers.length} tool result messages`);
  const wanted = new Set(calls.map((c) => c.id));
  const answered = new Set<string>();
  const results: ToolResult[] = [];
  let duplicates = 0;
  let unknown = 0;
  for (const result of followers.flatMap((m) => m.results)) {
    if (!wanted.has(result.toolCallId)) unknown++;
    else if (answered.has(result.toolCallId)) duplicates++;
    else {
      answered.add(result.toolCallId);
      results.push(result);
    }
  }
  if (duplicates > 0) changes.push(`dropped ${duplicates} duplicate tool result(s)`);
  if (unknown > 0) changes.push(`dropped ${unknown} tool result(s) for unknown tool calls`);
  const missing = calls.filter((c) => !answered.has(c.id));
  for (const call of missing) {
    results.push({ toolCallId: call.id, toolName: call.name, content: INTERRUPTED_RESULT, isError: true });
  }
  if (missing.length > 0) {
    changes.push(`added interrupted results for ${missing.length} tool call(s) without results: ${missing.map((c) => `${c.name} ${c.id}`).join(", ")}`);
  }
  if (changes.length === 0) return { message: followers[0]!, changes };
  return { message: { role: "toolResult", results }, changes };
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
      if (!prev || uniqueCalls(prev).length === 0) return false;
      continue;
    }
    const calls = uniqueCalls(message);
    if (calls.length === 0) continue;
    const next = messages[i + 1];
    if (!next || next.role !== "toolResult") return false;
    const ids = next.results.map((r) => r.toolCallId);
    if (new Set(ids).size !== ids.length || ids.length !== calls.length) return false;
    if (!calls.every((c) => ids.includes(c.id))) return false;
  }
  return true;
}
