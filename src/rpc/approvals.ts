/**
 * Approvals over the control channel: the session's `approval.ask` (called only when the
 * permission rules and mode say "ask", as in the TUI) emits an `approval_request` event carrying
 * the whole request — who asks, where, the command or the diff — and waits for an `approve` or
 * `deny` command naming its `requestId`. Requests of an agent that is stopped are cancelled.
 */
import type { AskReason } from "../core/approval.js";
import type { ToolDecision } from "../core/tool-runner.js";
import type { AgentInfo } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";
import { editContext, editHunk } from "../tools/edit-context.js";

/** The `approval_request` event. */
export interface ApprovalRequestEvent {
  type: "approval_request";
  requestId: string;
  tool: string;
  arguments: Record<string, unknown>;
  toolCallId: string;
  agent: AgentInfo;
  /** The asking agent's working directory. */
  cwd: string;
  /** A bash call's command line. */
  command?: string;
  /** An edit's or write's change as a unified diff: an edit's whole changed lines with up to 3 unchanged lines around them (` `-marked, as `diff -u`); a write's whole new content. */
  diff?: string;
  /** Why the call is asked (the rule or mode). */
  reason?: string;
  /** An ask rule, secrets or a change outside the cwd. */
  firm: boolean;
}

interface Pending {
  request: ApprovalRequestEvent;
  resolve: (decision: ToolDecision) => void;
}

/** The unified diff an edit/write approval shows (undefined for other tools); an edit's hunk carries the lines around its change in the file under `cwd`, as the TUI's approval shows them. */
export function approvalDiff(call: ToolCall, cwd: string): string | undefined {
  const args = call.arguments as Record<string, unknown>;
  const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  const path = str("path");
  if (path === undefined) return undefined;
  const signed = (lines: string[], sign: string) => lines.map((l) => `${sign}${l}`);
  if (call.name === "edit") {
    const oldText = str("oldText") ?? "";
    const hunk = editHunk(oldText, str("newText") ?? "", editContext(path, oldText, cwd));
    // Without the file's context (unreadable, or the text is not in it) the hunk is placed at line 1.
    const header = hunk.header ?? `@@ -1,${hunk.oldLines.length} +1,${hunk.newLines.length} @@`;
    return [`--- ${path}`, `+++ ${path}`, header, ...signed(hunk.before, " "), ...signed(hunk.oldLines, "-"), ...signed(hunk.newLines, "+"), ...signed(hunk.after, " ")].join("\n");
  }
  if (call.name === "write") {
    const newLines = signed((str("content") ?? "").split("\n"), "+");
    return [`--- /dev/null`, `+++ ${path}`, `@@ -0,0 +1,${newLines.length} @@`, ...newLines].join("\n");
  }
  return undefined;
}

export class RpcApprovals {
  private readonly pending = new Map<string, Pending>();
  private next = 1;
  /** Set once the channel closes: later requests are denied at once with this reason. */
  private closedWhy?: string;

  /** `emit` receives approval_request / approval_cancelled events; `cwd` is the main agent's. */
  constructor(
    private readonly emit: (event: object) => void,
    private readonly cwd: string,
  ) {}

  /** The session's `approval.ask`: resolves when a client answers (or the asking agent is stopped). */
  readonly ask = (call: ToolCall, agent: AgentInfo, why?: AskReason): Promise<ToolDecision> => {
    if (this.closedWhy !== undefined) return Promise.resolve({ allow: false, reason: this.closedWhy });
    const requestId = `a${this.next++}`;
    const command = call.name === "bash" && typeof call.arguments.command === "string" ? call.arguments.command : undefined;
    const cwd = agent.cwd ?? this.cwd;
    const diff = approvalDiff(call, cwd);
    const request: ApprovalRequestEvent = {
      type: "approval_request",
      requestId,
      tool: call.name,
      arguments: call.arguments,
      toolCallId: call.id,
      agent,
      cwd,
      ...(command !== undefined ? { command } : {}),
      ...(diff !== undefined ? { diff } : {}),
      ...(why?.reason ? { reason: why.reason } : {}),
      firm: why?.firm === true,
    };
    return new Promise<ToolDecision>((resolve) => {
      this.pending.set(requestId, { request, resolve });
      this.emit(request);
    });
  };

  /** Ids of the requests waiting for an answer. */
  get waiting(): string[] {
    return [...this.pending.keys()];
  }

  /** Answers request `requestId`; an error message when no such request waits. */
  answer(requestId: string, allow: boolean, reason?: string): string | undefined {
    const p = this.pending.get(requestId);
    if (!p) return `no approval request "${requestId}" is waiting${this.pending.size > 0 ? ` (waiting: ${this.waiting.join(", ")})` : " (none is)"}`;
    this.pending.delete(requestId);
    const tool = p.request.tool;
    if (allow) p.resolve({ allow: true });
    else if (reason && reason.trim() !== "") p.resolve({ allow: false, reason: `the user declined this ${tool} call and said: ${reason}` });
    else p.resolve({ allow: false, reason: `the user declined this ${tool} call; do not retry it unchanged — continue without it or ask the user` });
    return undefined;
  }

  /** Cancels the requests of agent `agentId` (every request when undefined): each is denied with `why`. */
  cancel(why: string, agentId?: string): void {
    for (const [requestId, p] of this.pending) {
      if (agentId !== undefined && p.request.agent.id !== agentId) continue;
      this.pending.delete(requestId);
      p.resolve({ allow: false, reason: why });
      this.emit({ type: "approval_cancelled", requestId, reason: why });
    }
  }

  /** Denies every waiting request and every later one with `why` (the channel is closing). */
  close(why: string): void {
    this.closedWhy = why;
    this.cancel(why);
  }
}
