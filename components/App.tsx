/**
 * App: the full-screen Ink UI. It shows one session at a time (MainScreen, which reaches it through
 * useSession: the App provides it in SessionContext); /resume swaps in a saved main session of the
 * same directory through `openSession`, closing the old one (its lock is released) and starting a
 * fresh screen that shows the resumed history.
 */
import { useRef, useState } from "react";
import type { TuiSession } from "../src/host/tui-session.js";
import { SessionContext } from "./hooks/use-session.js";
import { CLEAR_SCREEN, MainScreen, type ScreenOptions } from "./MainScreen.js";
import { errorMessage } from "../src/protocol/error-message.js";
import { resumeCommand } from "../src/host/launch-command.js";

export { CLEAR_SCREEN };

export interface AppProps extends ScreenOptions {
  /** The conversation this UI drives first. */
  session: TuiSession;
  /**
   * Opens saved main session `id` (a session created with `resume: id`, using the same
   * approvals). Without it, /resume reports that it is unavailable.
   */
  openSession?: (id: string) => TuiSession;
  /** Creates a fresh main session (same approvals) for /clear; without it /clear only clears the screen. */
  newSession?: () => TuiSession;
  /** Called with the new session after /resume or /clear switched to it. */
  onSessionChange?: (session: TuiSession) => void;
}

/** The UI; the current session's screen is remounted when the session changes. */
export function App({ session: first, approvals, initialPrompt, openResumePicker, onExit, flushMs, exitWindowMs, openSession, newSession, onSessionChange, screenMode, approvalTiming, notify, typeAhead }: AppProps) {
  const [session, setSession] = useState(first);
  const current = useRef(first);
  const [startNotice, setStartNotice] = useState<string | undefined>();

  /** Puts `next` on screen in place of the current session, whose lock is released. */
  const switchTo = (next: TuiSession, notice?: string) => {
    current.current.submit({ type: "close" });
    current.current = next;
    setStartNotice(notice);
    setSession(next);
    onSessionChange?.(next);
  };

  /** /clear: a new conversation; the current one stays saved. Returns an error message when it cannot. */
  const startNewConversation = (): string | undefined => {
    if (!newSession) return "/clear cannot start a new conversation here (no session factory was given)";
    const old = current.current;
    let next: TuiSession;
    try {
      next = newSession();
    } catch (err) {
      return `cannot start a new conversation: ${errorMessage(err)}`;
    }
    // A new conversation, not new settings: the model and permission mode chosen in this one stay.
    const was = old.facts();
    let kept = "";
    try {
      if (next.facts().model !== was.model) next.submit({ type: "set_model", model: was.model });
    } catch (err) {
      kept = ` (model ${next.facts().model}: ${errorMessage(err)})`;
    }
    if (next.facts().permissionMode !== was.permissionMode) next.submit({ type: "set_mode", mode: was.permissionMode });
    switchTo(next, was.sessionPath ? `new conversation — the previous one is saved: ${resumeCommand(was.sessionId)} (or /resume)${kept}` : `new conversation${kept}`);
    return undefined;
  };

  const resumeSession = (id: string): string | undefined => {
    if (!openSession) return "/resume is not available in this UI (no session factory was given)";
    let next: TuiSession;
    try {
      next = openSession(id);
    } catch (err) {
      return `cannot resume session ${id}: ${errorMessage(err)}`;
    }
    if (next.facts().sessionId !== id) {
      next.submit({ type: "close" });
      return `cannot resume session ${id}: the session factory ignored the resume id (it must create the AgentSession with resume: id)`;
    }
    switchTo(next);
    return undefined;
  };

  return (
    <SessionContext.Provider value={session}>
    <MainScreen
      key={session.facts().sessionId}
      approvals={approvals}
      initialPrompt={session === first ? initialPrompt : undefined}
      openResumePicker={session === first ? openResumePicker : undefined}
      typeAhead={session === first ? typeAhead : undefined}
      onExit={onExit}
      flushMs={flushMs}
      exitWindowMs={exitWindowMs}
      onResumeSession={resumeSession}
      onNewConversation={newSession ? startNewConversation : undefined}
      startNotice={session === first ? undefined : startNotice}
      screenMode={screenMode}
      approvalTiming={approvalTiming}
      notify={notify}
    />
    </SessionContext.Provider>
  );
}
