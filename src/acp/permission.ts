/**
 * The approval `ask` of an ACP session: every call Ink's policy would put to the person (main
 * agent or child) becomes a `session/request_permission` to the client, with the call's title,
 * kind, input and — for edit/write — its diff. "Always allow" lets that tool run without asking
 * for the rest of the session (never for a call the policy marks firm, e.g. a path outside the
 * working directory). A prompt cancelled while the question is open is a refusal.
 */
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import type { ApprovalOptions, AskReason } from "../core/approval.js";
import type { AgentInfo } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";
import type { ToolDecision } from "../core/tool-runner.js";
import { toolDiff, toolKind, toolLocations, toolTitle } from "./tool-calls.js";

/** The choices every question offers, in order: allow once, allow the tool for the session, reject. */
export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow this tool in this session", kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

export interface AcpAskOptions {
  /** Sends `session/request_permission` to the client. */
  request: (params: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;
  /** The main session's id. */
  sessionId: string;
  /** Children are child sessions: a child's question is asked on its own session id. */
  subagents: () => boolean;
  /** The signal of the prompt running now (its cancel ends an open question). */
  signal: () => AbortSignal | undefined;
  /** When child `childId` runs as a loaded child session's prompt: that prompt's signal (its question is asked on the child's id). */
  childPrompt?: (childId: string) => AbortSignal | undefined;
}

/** Builds the `ask` to pass as AgentSession's `approval.ask`. Never rejects. */
export function createAcpAsk(opts: AcpAskOptions): NonNullable<ApprovalOptions["ask"]> {
  const always = new Set<string>();
  return async (call: ToolCall, agent: AgentInfo, why?: AskReason): Promise<ToolDecision> => {
    if (always.has(call.name) && !why?.firm) return { allow: true };
    const child = agent.depth > 0;
    const own = child ? opts.childPrompt?.(agent.id) : undefined;
    const onChild = child && (own !== undefined || opts.subagents());
    const cwd = agent.cwd ?? "/";
    const title = `${child && !onChild ? `${agent.label} [${agent.id}]: ` : ""}${toolTitle(call)}${why?.reason ? ` — ${why.reason}` : ""}`;
    const signal = own ?? opts.signal() ?? new AbortController().signal;
    if (signal.aborted) return { allow: false, reason: "the prompt was cancelled" };
    let response: RequestPermissionResponse;
    try {
      response = await opts.request(
        {
          sessionId: onChild ? agent.id : opts.sessionId,
          toolCall: { toolCallId: call.id, title, kind: toolKind(call.name), status: "pending", rawInput: call.arguments, locations: toolLocations(call, cwd), content: toolDiff(call, cwd) },
          options: PERMISSION_OPTIONS,
        },
        signal,
      );
    } catch (err) {
      if (signal.aborted) return { allow: false, reason: "the prompt was cancelled" };
      return { allow: false, reason: `the editor did not answer the permission request (${err instanceof Error ? err.message : String(err)}); do without ${call.name}` };
    }
    const outcome = response.outcome;
    if (outcome.outcome === "cancelled") return { allow: false, reason: "the prompt was cancelled" };
    if (outcome.optionId === "allow") return { allow: true };
    if (outcome.optionId === "allow_always") {
      if (!why?.firm) always.add(call.name);
      return { allow: true };
    }
    return { allow: false, reason: `the user rejected ${call.name}; do the task without it or ask them` };
  };
}

/** The choices of a question that is not a tool's call (`confirmOnClient`): yes, then no. */
export const CONFIRM_OPTIONS: PermissionOption[] = [
  { optionId: "allow", name: "Yes", kind: "allow_once" },
  { optionId: "reject", name: "No", kind: "reject_once" },
];

/**
 * Puts a yes/no `question` of Ink's own (stop the running children and rewind?) to the person as a
 * `session/request_permission` on `sessionId`, for a pseudo tool call `id` titled by the question,
 * which `send` then marks completed (yes) or failed. Resolves true for yes; a cancelled prompt, a
 * refusal or a failed request is no. Never rejects.
 */
export async function confirmOnClient(opts: { request: AcpAskOptions["request"]; send: (update: SessionUpdate) => void; sessionId: string; id: string; question: string; signal: AbortSignal }): Promise<boolean> {
  let yes = false;
  if (!opts.signal.aborted) {
    try {
      const response = await opts.request({ sessionId: opts.sessionId, toolCall: { toolCallId: opts.id, title: opts.question, kind: "other", status: "pending" }, options: CONFIRM_OPTIONS }, opts.signal);
      yes = response.outcome.outcome === "selected" && response.outcome.optionId === "allow" && !opts.signal.aborted;
    } catch {
      // cancelled, or the client failed to answer: no
    }
  }
  opts.send({ sessionUpdate: "tool_call_update", toolCallId: opts.id, status: yes ? "completed" : "failed" });
  return yes;
}
