/**
 * useSession: the one way the UI reaches its session (a TuiSession, src/host/tui-session.ts): ops
 * in (`submit`), events out (`subscribe`), and the session's facts, re-rendering when they change.
 * The App provides the session in SessionContext; each screen shows the one it was given.
 */
import { createContext, useCallback, useContext, useSyncExternalStore } from "react";
import type { SessionFacts, TuiSession } from "../../src/host/tui-session.js";

/** The session the screen below shows. */
export const SessionContext = createContext<TuiSession | undefined>(undefined);

/** What the hook gives. */
export interface UseSession {
  session: TuiSession;
  /** The facts now; the component re-renders when they change. */
  facts: SessionFacts;
}

/** The session of the screen, and its facts. Throws outside a SessionContext. */
export function useSession(): UseSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession: no session was provided (SessionContext)");
  const subscribe = useCallback((listener: () => void) => session.onFacts(listener), [session]);
  const snapshot = useCallback(() => session.facts(), [session]);
  const facts = useSyncExternalStore(subscribe, snapshot, snapshot);
  return { session, facts };
}
