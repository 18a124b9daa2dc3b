/**
 * The children of a control-channel session, for `list_children` and `get_state`: the ones its
 * resumed file recorded, then every child started or resumed since, kept up to date from the
 * session's own events (subagent_start / subagent_end).
 */
import type { AgentEvent } from "../protocol/events.js";
import type { TaskRecord } from "../session/types.js";

/** One child as `list_children` reports it. */
export interface ChildEntry {
  childId: string;
  /** The `task` tool call that ran it (the latest run). */
  parentToolCallId?: string;
  profile?: string;
  /** The prompt of its latest run. */
  prompt: string;
  /** "running", or how its latest run ended (ok, aborted, timeout, crash). */
  status: string;
  /** Its session id; present when its history was saved (it can be resumed). */
  sessionId?: string;
  turns?: number;
}

export class ChildList {
  private readonly children = new Map<string, ChildEntry>();

  /** Starts from a resumed session's task records (file order: the latest run of each child wins). */
  constructor(records: readonly TaskRecord[] = []) {
    for (const r of records) {
      this.children.delete(r.childId);
      this.children.set(r.childId, { childId: r.childId, parentToolCallId: r.toolCallId, profile: r.profile, prompt: r.prompt, status: r.status, sessionId: r.sessionId, turns: r.turns });
    }
  }

  /** Updates the list from one session event. */
  see(event: AgentEvent): void {
    if (event.type === "subagent_start") {
      const before = this.children.get(event.childId);
      this.children.delete(event.childId);
      this.children.set(event.childId, { childId: event.childId, parentToolCallId: event.parentToolCallId, profile: event.profile, prompt: event.prompt, status: "running", sessionId: event.sessionId ?? before?.sessionId });
    } else if (event.type === "subagent_end") {
      const entry = this.children.get(event.childId);
      if (!entry) return;
      entry.status = event.summary.status;
      entry.turns = event.summary.turns;
      if (event.summary.sessionId) entry.sessionId = event.summary.sessionId;
    }
  }

  /** Every child known, oldest first. */
  list(): ChildEntry[] {
    return [...this.children.values()].map((c) => ({ ...c }));
  }

  /** Whether `childId` is known to this session. */
  has(childId: string): boolean {
    return this.children.has(childId);
  }
}
