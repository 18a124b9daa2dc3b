/**
 * useChildSessions: the sidebar's rows while it (or a child transcript opened from it) is shown:
 * this session's children from the transcript merged with the project's saved child sessions,
 * re-read from the store when the sidebar opens and whenever one of this session's children ends.
 */
import { useMemo } from "react";
import type { AgentSession } from "../../src/agent-session.js";
import type { SessionSummary } from "../../src/session/types.js";
import { sidebarRows, transcriptChildren, type SidebarRow } from "./sidebar-rows.js";
import type { StreamState } from "./transcript-types.js";

function savedChildren(session: AgentSession): SessionSummary[] {
  try {
    return session.store ? session.store.list({ cwd: session.cwd, kind: "child" }) : [];
  } catch {
    return [];
  }
}

/** The rows, or [] while `active` is false (nothing is read then). */
export function useChildSessions(session: AgentSession, state: StreamState, active: boolean): SidebarRow[] {
  const fromTranscript = useMemo(() => (active ? transcriptChildren([...state.finished, ...state.live]) : []), [active, state.finished, state.live]);
  const ended = fromTranscript.filter((r) => r.status !== "running").length;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stored = useMemo(() => (active ? savedChildren(session) : []), [active, session, ended]);
  return useMemo(() => sidebarRows(fromTranscript, stored, session.sessionId), [fromTranscript, stored, session.sessionId]);
}
