/**
 * App: the full-screen Ink UI. It shows one session at a time (MainScreen); /resume swaps in a
 * saved main session of the same directory through `openSession`, closing the old one (its lock
 * is released) and starting a fresh screen that shows the resumed history.
 */
import { useRef, useState } from "react";
import type { AgentSession } from "../src/host/agent-session.js";
import { CLEAR_SCREEN, MainScreen } from "./MainScreen.js";
import { errorMessage } from "../src/protocol/error-message.js";
import { resumeCommand } from "../src/host/launch-command.js";
import type { AppProps } from "./app-props.js";

export { CLEAR_SCREEN };
export type { AppProps };

/** The UI; the current session's screen is remounted when the session changes. */
export function App({ session: first, approvals, initialPrompt, openResumePicker, onExit, flushMs, exitWindowMs, openSession, newSession, onSessionChange, screenMode, approvalTiming, notify, typeAhead }: AppProps) {
  const [session, setSession] = useState(first);
  const current = useRef(first);
  const [startNotice, setStartNotice] = useState<string | undefined>();

  /** Puts `next` on screen in place of the current session, whose lock is released. */
  const switchTo = (next: AgentSession, notice?: string) => {
    current.current.close();
    current.current = next;
    setStartNotice(notice);
    setSession(next);
    onSessionChange?.(next);
  };

  /** /clear: a new conversation; the current one stays saved. Returns an error message when it cannot. */
  const startNewConversation = (): string | undefined => {
    if (!newSession) return "/clear cannot start a new conversation here (no session factory was given)";
    const old = current.current;
    let next: AgentSession;
    try {
      next = newSession();
    } catch (err) {
      return `cannot start a new conversation: ${errorMessage(err)}`;
    }
    // A new conversation, not new settings: the model and permission mode chosen in this one stay.
    let kept = "";
    try {
      if (next.model !== old.model) next.setModel(old.model);
    } catch (err) {
      kept = ` (model ${next.model}: ${errorMessage(err)})`;
    }
    if (next.permissionMode !== old.permissionMode) next.setPermissionMode(old.permissionMode);
    switchTo(next, old.sessionPath ? `new conversation — the previous one is saved: ${resumeCommand(old.sessionId)} (or /resume)${kept}` : `new conversation${kept}`);
    return undefined;
  };

  const resumeSession = (id: string): string | undefined => {
    if (!openSession) return "/resume is not available in this UI (no session factory was given)";
    let next: AgentSession;
    try {
      next = openSession(id);
    } catch (err) {
      return `cannot resume session ${id}: ${errorMessage(err)}`;
    }
    if (next.sessionId !== id) {
      next.close();
      return `cannot resume session ${id}: the session factory ignored the resume id (it must create the AgentSession with resume: id)`;
    }
    switchTo(next);
    return undefined;
  };

  return (
    <MainScreen
      key={session.sessionId}
      session={session}
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
  );
}
