/**
 * useChildSessions: the sidebar's rows while it (or a child transcript opened from it) is shown:
 * this session's children from the transcript merged with the project's saved child sessions,
 * read from the store when the sidebar opens and read again after one of this session's children
 * ends — REREAD_AFTER_END_MS after the last of a burst of ends, in a timer rather than in the frame:
 * eight children ending together were eight listings of the store inside eight frames. The ended
 * children's own rows change at once (they come from the transcript).
 */
import { useEffect, useMemo, useState } from "react";
import type { SessionSummary } from "../../src/session/types.js";
import type { SessionStore } from "../../src/session/store.js";
import { sidebarRows, transcriptChildren, type SidebarRow } from "../state/sidebar-rows.js";
import type { StreamState } from "../state/transcript-types.js";

/** How long after a child's end the store is read again (more ends in between push it back). */
export const REREAD_AFTER_END_MS = 250;

/** Where the saved child sessions are: the store (none when sessions are not saved), the project, and the main session now. */
export interface ChildSessionsSource {
  store?: Pick<SessionStore, "list">;
  cwd: string;
  sessionId: string;
}

function savedChildren(session: ChildSessionsSource): SessionSummary[] {
  try {
    return session.store ? session.store.list({ cwd: session.cwd, kind: "child" }) : [];
  } catch {
    return [];
  }
}

/** The rows, or [] while `active` is false (nothing is read then). */
export function useChildSessions(session: ChildSessionsSource, state: StreamState, active: boolean): SidebarRow[] {
  const fromTranscript = useMemo(() => (active ? transcriptChildren([...state.finished, ...state.live]) : []), [active, state.finished, state.live]);
  const ended = fromTranscript.filter((r) => r.status !== "running").length;
  const opened = useMemo(() => (active ? savedChildren(session) : []), [active, session]);
  // The list read after ends, kept with the `opened` list it replaces (a new opening drops it).
  const [reread, setReread] = useState<{ list: SessionSummary[]; of: SessionSummary[] } | undefined>();
  useEffect(() => {
    if (!active || ended === 0) return;
    const timer = setTimeout(() => setReread({ list: savedChildren(session), of: opened }), REREAD_AFTER_END_MS);
    return () => clearTimeout(timer);
  }, [active, session, ended, opened]);
  const stored = reread !== undefined && reread.of === opened ? reread.list : opened;
  return useMemo(() => sidebarRows(fromTranscript, stored, session.sessionId), [fromTranscript, stored, session.sessionId]);
}
