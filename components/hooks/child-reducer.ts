/**
 * Pure state of one child agent for its pane: started by `subagent_start`, fed the child's own
 * events (unwrapped from `subagent_event`), closed by `subagent_end`.
 */
import type { AgentEvent, SubagentSummary } from "../../src/core/events.js";
import { addUsage, emptyUsage } from "../../src/core/messages.js";
import { firstLine } from "../format.js";
import { compactionLine } from "./compaction-line.js";
import type { ChildView } from "./transcript-types.js";

/** Characters of streamed text a pane keeps (it shows only the last few lines). */
export const CHILD_TEXT_CAP = 4000;
/** Tool calls a pane keeps (it shows only the latest few). */
export const CHILD_TOOLS_CAP = 8;

/** The view of a child that just started. */
export function startChild(init: { childId: string; profile?: string; prompt: string; resumed: boolean; worktree?: string; at: number }): ChildView {
  return {
    childId: init.childId,
    profile: init.profile,
    prompt: init.prompt,
    status: "running",
    startedAt: init.at,
    turns: 0,
    usage: emptyUsage(),
    text: "",
    report: "",
    tools: [],
    thinking: false,
    resumed: init.resumed,
    worktree: init.worktree,
  };
}

function capText(text: string): string {
  return text.length <= CHILD_TEXT_CAP ? text : text.slice(text.length - CHILD_TEXT_CAP);
}

/** Applies one of the child's own events. Returns the same object when nothing visible changed. */
export function reduceChild(child: ChildView, event: AgentEvent): ChildView {
  switch (event.type) {
    case "text_delta":
      return { ...child, text: capText(child.text + event.text), thinking: false };
    case "thinking_delta":
      return child.thinking ? child : { ...child, thinking: true };
    case "turn_start": {
      const text = child.text !== "" && !child.text.endsWith("\n") ? `${child.text}\n` : child.text;
      return { ...child, turns: Math.max(child.turns, event.turn), text };
    }
    case "message": {
      if (event.message.role !== "assistant") return child;
      const block = event.message.content.find((b) => b.type === "text" && b.text.trim() !== "");
      return block && block.type === "text" ? { ...child, report: block.text } : child;
    }
    case "usage":
      return { ...child, usage: addUsage({ ...child.usage }, event.usage) };
    case "tool_start": {
      const line = { id: event.call.id, name: event.call.name, args: event.call.arguments, status: "running" as const };
      return { ...child, tools: [...child.tools.filter((t) => t.id !== line.id), line].slice(-CHILD_TOOLS_CAP) };
    }
    case "tool_end": {
      const status = event.result.isError ? ("error" as const) : ("ok" as const);
      const resultLine = firstLine(event.result.content);
      const known = child.tools.some((t) => t.id === event.call.id);
      const tools = known
        ? child.tools.map((t) => (t.id === event.call.id ? { ...t, status, resultLine } : t))
        : [...child.tools, { id: event.call.id, name: event.call.name, args: event.call.arguments, status, resultLine }].slice(-CHILD_TOOLS_CAP);
      return { ...child, tools };
    }
    case "error":
      return { ...child, reason: event.message };
    case "compaction_start":
      return { ...child, note: "✂ compacting context…" };
    case "compaction_end":
      return { ...child, note: compactionLine(event)?.text };
    default:
      return child;
  }
}

/** Closes the child with the core's summary. */
export function endChild(child: ChildView, summary: SubagentSummary): ChildView {
  return {
    ...child,
    status: summary.status,
    durationMs: summary.durationMs,
    turns: Math.max(child.turns, summary.turns),
    usage: { ...summary.usage },
    reason: summary.reason ?? child.reason,
    thinking: false,
    stopping: false,
    tools: child.tools.map((t) => (t.status === "running" || t.status === "pending" ? { ...t, status: "error" as const } : t)),
  };
}

/** Marks a running child the person asked to stop (its pane says "stopping…" until its end arrives). */
export function markStopping(child: ChildView): ChildView {
  return child.status === "running" ? { ...child, stopping: true } : child;
}

/** Marks a child that never reported its end (its run was cut off) as aborted. */
export function abandonChild(child: ChildView, at: number): ChildView {
  if (child.status !== "running") return child;
  return endChild(child, { status: "aborted", turns: child.turns, usage: child.usage, durationMs: at - child.startedAt, reason: child.reason ?? "the run ended before the child reported back" });
}
