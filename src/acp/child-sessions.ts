/**
 * Child sessions the client loads by id (`session/load` with a child's session id, as announced in
 * `subagent_update`): loading replays the child's saved history under its id; a prompt on it
 * resumes that child through its parent's AgentSession (a `resume_child` op, the same run as the TUI's
 * resume: same checks and lock, recorded in the parent's file, its report passed to the main agent
 * before the parent's next prompt), streaming the child's own updates under the child's id.
 */
import { existsSync } from "node:fs";
import { RequestError, type StopReason } from "@agentclientprotocol/sdk/unstable";
import type { SessionClient } from "../host/session-client.js";
import type { AgentEvent, SubagentSummary } from "../protocol/events.js";
import type { AgentMessage } from "../protocol/messages.js";
import { isSafeSessionId } from "../session/ids.js";
import type { SessionStore } from "../session/store.js";
import { EventUpdates, type SendUpdate } from "./event-updates.js";

/** A saved child session as `session/load` needs it. */
export interface SavedChild {
  /** The main session the child belongs to. */
  parentId: string;
  /** Where the child ran (its worktree when it had one). */
  cwd: string;
  history: AgentMessage[];
}

/** Reads saved session `id`: the child it is, or undefined when `id` is not a child session (a main one, or none). */
export type ReadChildSession = (id: string) => SavedChild | undefined;

/** Reads child sessions from `store`; a child file whose header names no parent is an error saying so. */
export function storeChildReader(store: SessionStore): ReadChildSession {
  return (id) => {
    if (!isSafeSessionId(id) || !existsSync(store.path(id))) return undefined;
    const header = store.readHeader(id);
    if (header.kind !== "child") return undefined;
    if (!header.parentId) throw new Error(`child session ${id} (${store.path(id)}) names no parent session, so it cannot be resumed here; open its parent's session instead`);
    return { parentId: header.parentId, cwd: header.worktree?.path ?? header.cwd, history: store.load(id).messages };
  };
}

/**
 * Runs `text` as a resume of child `childId` of `parent`, sending the child's events as its own
 * session's updates. Resolves with the turn's stop reason; a refusal (the child is running, its
 * lock is held, its file does not match) or a crash is a RequestError with Ink's reason.
 */
export async function promptChildSession(opts: { parent: SessionClient; childId: string; cwd: string; text: string; signal: AbortSignal; send: SendUpdate; subagents: boolean }): Promise<StopReason> {
  const { parent, childId } = opts;
  if (parent.submit({ type: "get_state" }).runningChildren.includes(childId)) throw RequestError.invalidRequest(undefined, `child session ${childId} is running now; wait for it to end or send session/cancel on it`);
  const updates = new EventUpdates({ sessionId: childId, cwd: opts.cwd, send: opts.send, subagents: opts.subagents });
  let started = false;
  let summary: SubagentSummary | undefined;
  const onEvent = (event: AgentEvent) => {
    if (event.type === "subagent_start" && event.childId === childId) started = true;
    else if (event.type === "subagent_event" && event.childId === childId) updates.see(event.event);
    else if (event.type === "subagent_end" && event.childId === childId) summary = event.summary;
  };
  const result = await parent.submit({ type: "resume_child", child: childId, text: opts.text }, { signal: opts.signal, onEvent });
  if (opts.signal.aborted || summary?.status === "aborted") return "cancelled";
  if (!started) throw RequestError.invalidRequest(undefined, result.content);
  if (summary && summary.status !== "ok") throw RequestError.internalError(undefined, `child session ${childId} ${summary.status === "timeout" ? "timed out" : "failed"}${summary.reason ? `: ${summary.reason}` : ""}`);
  return "end_turn";
}
