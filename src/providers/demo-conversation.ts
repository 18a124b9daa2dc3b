/**
 * Reading a conversation from the demo model's point of view: the current request (last user
 * message), the exchanges (assistant tool calls + their results) made since it, whether this is a
 * subagent, whether the offline disclosure was already shown, and which profiles are on offer.
 */
import { toolCallsOf, userText, type AgentMessage, type UserMessage, type ToolCall, type ToolResult } from "../protocol/messages.js";
import type { ModelRequest } from "../protocol/provider.js";
import { splitChildReportNotes } from "../protocol/child-report-note.js";
import { splitShellNotes } from "../protocol/shell-note.js";
import { splitMentionBlocks } from "../protocol/attachment-blocks.js";
import { steerBody } from "../protocol/steer-message.js";

/** What the person typed in a user message: without resumed children's reports, `!` command notes and `@file` attachments. */
function typedText(text: string): string {
  return splitMentionBlocks(splitShellNotes(splitChildReportNotes(steerBody(text)).text).text).text;
}

/** The one line the main agent shows first so nobody mistakes the demo for a real model. */
export const DEMO_DISCLOSURE =
  "(Offline demo model: no ANTHROPIC_API_KEY is set, so a built-in scripted model is driving real tools. Set ANTHROPIC_API_KEY to use Claude.)";

/** One tool call made since the current request, with its result when one came back. */
export interface CallWithResult {
  call: ToolCall;
  result?: ToolResult;
}

/** One assistant turn since the current request and the results of its calls. */
export interface Exchange {
  calls: CallWithResult[];
  text: string;
}

/** What the demo model needs to know about a request. */
export interface DemoContext {
  /** Text of the last user message ("" when there is none). */
  prompt: string;
  /** Texts of the earlier user messages, newest first (for follow-ups such as "continue"). */
  earlierPrompts: string[];
  /** Assistant turns since the last user message, oldest first. */
  exchanges: Exchange[];
  /** Role of the last message, or "none" for an empty conversation. */
  lastRole: AgentMessage["role"] | "none";
  /** True when the last toolResult message answers calls of the previous assistant message. */
  resultsMatch: boolean;
  /** True when the system prompt puts this agent in subagent mode. */
  subagent: boolean;
  /** True when an earlier assistant message already carries the disclosure. */
  disclosed: boolean;
  /** Names of the tools offered in this request. */
  toolNames: Set<string>;
  /** True when a profile named "scout" is offered (task description or system prompt). */
  scoutAvailable: boolean;
  /** Number of assistant messages in the whole conversation (for deterministic call ids). */
  assistantCount: number;
  /** Background reports delivered after the last tool results, while this turn was in progress. */
  reportNote?: string;
}

const SCOUT_LINE = /^\s*[-*]\s*`?\*{0,2}scout\*{0,2}`?\s*:/m;

/** Index of the last user message, or -1. */
function lastUserIndex(messages: readonly AgentMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "user") return i;
  return -1;
}

/** The text blocks of an assistant message joined. */
function textOf(message: AgentMessage): string {
  if (message.role !== "assistant") return "";
  return message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** The exchanges after `start`: each assistant message paired with the results that follow it. */
function exchangesAfter(messages: readonly AgentMessage[], start: number): Exchange[] {
  const out: Exchange[] = [];
  for (let i = start + 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      out.push({ text: textOf(m), calls: toolCallsOf(m).map((call) => ({ call })) });
    } else if (m.role === "toolResult" && out.length > 0) {
      const last = out[out.length - 1]!;
      for (const r of m.results) {
        const slot = last.calls.find((c) => c.call.id === r.toolCallId && c.result === undefined);
        if (slot) slot.result = r;
      }
    }
  }
  return out;
}

/** True when the last message is a toolResult answering every call of the assistant message before it. */
function lastResultsMatch(messages: readonly AgentMessage[]): boolean {
  const last = messages[messages.length - 1];
  const prev = messages[messages.length - 2];
  if (last?.role !== "toolResult" || prev?.role !== "assistant") return false;
  const ids = new Set(last.results.map((r) => r.toolCallId));
  const calls = toolCallsOf(prev);
  return calls.length > 0 && calls.every((c) => ids.has(c.id));
}

/** readContext: everything the demo planners need from a request. Pure; never throws on odd input. */
export function readContext(request: ModelRequest): DemoContext {
  const all = Array.isArray(request.messages) ? request.messages : [];
  // Background reports delivered at a turn boundary (after tool results) are notes for the turn in
  // progress, not the person's request: the turn goes on, and its answer covers them too.
  let end = all.length;
  while (end > 0 && isReportNote(all[end - 1]!)) end--;
  const interleaved = end < all.length && all[end - 1]?.role === "toolResult";
  const messages = interleaved ? all.slice(0, end) : all;
  const reportNote = interleaved ? all.slice(end).map((m) => userText(m as UserMessage)).join("\n\n") : undefined;
  const tools = Array.isArray(request.tools) ? request.tools : [];
  const system = typeof request.system === "string" ? request.system : "";
  const userIndex = lastUserIndex(messages);
  const user = userIndex >= 0 ? messages[userIndex] : undefined;
  const taskTool = tools.find((t) => t.name === "task");
  const earlierPrompts = messages
    .slice(0, Math.max(0, userIndex))
    .filter((m): m is UserMessage => m.role === "user")
    .map((m) => typedText(userText(m)))
    .reverse();
  const raw = user?.role === "user" ? userText(user) : "";
  // A message sent while working adds to the task rather than replacing it: its words come first.
  const steered = raw !== "" && steerBody(raw) !== raw && earlierPrompts.length > 0;
  return {
    // Notes carrying a resumed child's report are context, not the person's request.
    prompt: steered ? `${typedText(raw)}\n${earlierPrompts.at(-1)!.replace(/`/g, "")}` : typedText(raw),
    earlierPrompts,
    exchanges: exchangesAfter(messages, userIndex),
    lastRole: messages.length > 0 ? messages[messages.length - 1]!.role : "none",
    resultsMatch: lastResultsMatch(messages),
    subagent: system.includes("# Subagent mode"),
    disclosed: messages.some((m) => m.role === "assistant" && textOf(m).includes(DEMO_DISCLOSURE)),
    toolNames: new Set(tools.map((t) => t.name)),
    scoutAvailable: SCOUT_LINE.test(taskTool?.description ?? "") || SCOUT_LINE.test(system),
    assistantCount: messages.filter((m) => m.role === "assistant").length,
    ...(reportNote ? { reportNote } : {}),
  };
}

/** True for a user message that only carries background children's reports. */
function isReportNote(message: AgentMessage): boolean {
  return message.role === "user" && userText(message).trimStart().startsWith("<background-report");
}

/** Every call of a given tool made since the current request, with its result. */
export function callsNamed(context: DemoContext, name: string): CallWithResult[] {
  return context.exchanges.flatMap((e) => e.calls.filter((c) => c.call.name === name));
}

/** The names of the tools called in the last exchange. */
export function lastCallNames(context: DemoContext): string[] {
  const last = context.exchanges[context.exchanges.length - 1];
  return last ? [...new Set(last.calls.map((c) => c.call.name))] : [];
}
