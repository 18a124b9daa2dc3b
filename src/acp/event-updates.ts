/**
 * Ink's typed events → ACP `session/update` notifications for one prompt turn. The main agent's
 * text and thinking become message/thought chunks, each tool call a `tool_call` then
 * `tool_call_update`s (kind, status, output, diffs). A child (a `task` call) is either an ACP
 * child session — announced with `subagent_update` on the parent and streaming its own updates
 * under its id — when the client understands subagent sessions, or else the `task` tool call
 * itself, whose content streams the child's progress and then holds its final report. Either way
 * the turn's children are also sent as a `plan` (see child-plan.ts) whenever one of them changes.
 */
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk/unstable";
import type { AgentEvent, SubagentSummary } from "../protocol/events.js";
import { textContent, toolDiff, toolKind, toolLocations, toolTitle } from "./tool-calls.js";
import { ChildPlan } from "./child-plan.js";

/** Sends one update for session `sessionId` (the main session's id, or a child's). */
export type SendUpdate = (sessionId: string, update: SessionUpdate) => void;

/** Output kept per tool call or child progress (the tail; editors show the end). */
const MAX_TEXT = 8000;

function tail(text: string): string {
  return text.length > MAX_TEXT ? `…${text.slice(-MAX_TEXT)}` : text;
}

/** How a child's run ended, as an ACP idle state's stop reason. */
export function childStopReason(status: SubagentSummary["status"]): string {
  return status === "ok" ? "end_turn" : status === "aborted" ? "cancelled" : "error";
}

/** Translates one agent's events (main, or a child as its own session) into updates. */
export class EventUpdates {
  /** Output streamed so far by each running tool call. */
  private readonly output = new Map<string, string>();
  /** Diffs of running edit/write calls, taken before they ran (a write's old text is gone after). */
  private readonly diffs = new Map<string, ToolCallContent[]>();
  /** Children shown as their `task` call's content: their progress text, by child id. */
  private readonly progress = new Map<string, { toolCallId: string; text: string }>();
  /** Children shown as child sessions: their own translators, by child id. */
  private readonly children = new Map<string, EventUpdates>();
  /** This turn's `task` calls as plan entries. */
  private readonly plan = new ChildPlan();

  constructor(
    private readonly opts: {
      sessionId: string;
      cwd: string;
      send: SendUpdate;
      /** The client understands subagent sessions (children become child sessions). */
      subagents: boolean;
    },
  ) {}

  private send(update: SessionUpdate): void {
    this.opts.send(this.opts.sessionId, update);
  }

  private sendPlan(changed: boolean): void {
    if (changed) this.send({ sessionUpdate: "plan", entries: this.plan.current });
  }

  /** Handles one event of this agent (children's arrive wrapped in subagent_* events). */
  see(event: AgentEvent): void {
    switch (event.type) {
      case "text_delta":
        if (event.text) this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
        return;
      case "thinking_delta":
        if (event.text) this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } });
        return;
      case "tool_start": {
        const { call } = event;
        const diff = toolDiff(call, this.opts.cwd);
        if (diff.length > 0) this.diffs.set(call.id, diff);
        this.send({
          sessionUpdate: "tool_call",
          toolCallId: call.id,
          title: toolTitle(call),
          kind: toolKind(call.name),
          status: "in_progress",
          rawInput: call.arguments,
          locations: toolLocations(call, this.opts.cwd),
          content: diff,
        });
        this.sendPlan(this.plan.called(call));
        return;
      }
      case "tool_update": {
        const text = tail((this.output.get(event.toolCallId) ?? "") + event.text);
        this.output.set(event.toolCallId, text);
        this.send({ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, content: [textContent(text)] });
        return;
      }
      case "tool_end": {
        const { call, result } = event;
        this.output.delete(call.id);
        const diff = result.isError ? [] : (this.diffs.get(call.id) ?? []);
        this.diffs.delete(call.id);
        this.send({
          sessionUpdate: "tool_call_update",
          toolCallId: call.id,
          status: result.isError ? "failed" : "completed",
          content: [...diff, textContent(tail(result.content))],
          rawOutput: { output: result.content, isError: result.isError },
        });
        this.sendPlan(this.plan.returned(call));
        return;
      }
      case "warning":
        this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `\n[warning] ${event.message}\n` } });
        return;
      case "subagent_start":
        return this.childStarted(event);
      case "subagent_event":
        return this.childEvent(event.childId, event.parentToolCallId, event.event);
      case "subagent_end":
        return this.childEnded(event.childId, event.parentToolCallId, event.summary);
      default:
        return;
    }
  }

  private childStarted(event: Extract<AgentEvent, { type: "subagent_start" }>): void {
    this.plan.started(event);
    this.sendPlan(true);
    const label = `${event.profile ?? "general"} [${event.childId}]`;
    if (this.opts.subagents) {
      this.children.set(event.childId, new EventUpdates({ ...this.opts, sessionId: event.childId, cwd: event.worktree ?? this.opts.cwd }));
      this.send({
        sessionUpdate: "subagent_update",
        sessionId: event.childId,
        title: label,
        description: event.prompt.split("\n")[0]!.slice(0, 200),
        capabilities: { cancel: {} },
        state: { state: "running" },
        ...(event.worktree ? { cwd: event.worktree } : {}),
      });
      this.send({ sessionUpdate: "tool_call_update", toolCallId: event.parentToolCallId, content: [textContent(`${event.resumed ? "resumed" : "started"} ${label} (child session ${event.childId})`)] });
      return;
    }
    const text = `${event.resumed ? "resumed" : "started"} ${label}\n`;
    this.progress.set(event.childId, { toolCallId: event.parentToolCallId, text });
    this.send({ sessionUpdate: "tool_call_update", toolCallId: event.parentToolCallId, content: [textContent(text)] });
  }

  private childEvent(childId: string, toolCallId: string, event: AgentEvent): void {
    const child = this.children.get(childId);
    if (child) return child.see(event);
    const entry = this.progress.get(childId) ?? { toolCallId, text: "" };
    const line = progressText(event);
    if (line === undefined) return;
    entry.text = tail(entry.text + line);
    this.progress.set(childId, entry);
    this.send({ sessionUpdate: "tool_call_update", toolCallId: entry.toolCallId, content: [textContent(entry.text)] });
  }

  private childEnded(childId: string, toolCallId: string, summary: SubagentSummary): void {
    this.sendPlan(this.plan.ended(toolCallId, summary));
    if (this.children.delete(childId)) {
      this.send({ sessionUpdate: "subagent_update", sessionId: childId, state: { state: "idle", stopReason: childStopReason(summary.status) } });
      return;
    }
    const entry = this.progress.get(childId);
    this.progress.delete(childId);
    const why = summary.reason ? ` (${summary.reason})` : "";
    const text = tail(`${entry?.text ?? ""}\n■ ${summary.status}${why} · ${summary.turns} turns\n`);
    this.send({ sessionUpdate: "tool_call_update", toolCallId, content: [textContent(text)] });
  }
}

/** One child event as progress text for its `task` call (undefined: nothing to show). */
function progressText(event: AgentEvent): string | undefined {
  switch (event.type) {
    case "text_delta":
      return event.text;
    case "tool_start":
      return `\n→ ${toolTitle(event.call)}\n`;
    case "tool_end":
      return event.result.isError ? `✗ ${event.call.name}: ${event.result.content.split("\n")[0]!.slice(0, 120)}\n` : undefined;
    case "turn_end":
      return "\n";
    default:
      return undefined;
  }
}
