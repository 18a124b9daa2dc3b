/**
 * Approvals over the control channel: the session's `approval.ask` (called only when the
 * permission rules and mode say "ask", as in the TUI) emits an `approval_request` event carrying
 * the whole request — who asks, where, the command or the diff — and waits for an `approve` or
 * `deny` command naming its `requestId`. Requests of an agent that is stopped are cancelled.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AskReason } from "../core/approval.js";
import type { ToolDecision } from "../core/tool-runner.js";
import type { AgentInfo } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";

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
  /** An edit's or write's change as a unified diff (a write: the whole new content). */
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

/** The line (1-based) where `text` starts in the file at `path` under `cwd`; 1 when it cannot be read or found. */
function startLine(cwd: string, path: string, text: string): number {
  try {
    const body = readFileSync(resolve(cwd, path), "utf8");
    const at = body.indexOf(text);
    return at < 0 ? 1 : body.slice(0, at).split("\n").length;
  } catch {
    return 1;
  }
}

/** The unified diff an edit/write approval shows (undefined for other tools); an edit's hunk starts where its old text is in the file under `cwd`. */
export function approvalDiff(call: ToolCall, cwd: string): string | undefined {
  const args = call.arguments as Record<string, unknown>;
  const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  const path = str("path");
  if (path === undefined) return undefined;
  const lines = (t: string | undefined, sign: string) => (t ?? "").split("\n").map((l) => `${sign}${l}`);
  if (call.name === "edit") {
    const oldLines = lines(str("oldText"), "-");
    const newLines = lines(str("newText"), "+");
    const at = startLine(cwd, path, str("oldText") ?? "");
    return [`--- ${path}`, `+++ ${path}`, `@@ -${at},${oldLines.length} +${at},${newLines.length} @@`, ...oldLines, ...newLines].join("\n");
  }
  if (call.name === "write") {
    const newLines = lines(str("content"), "+");
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
