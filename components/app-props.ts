/** What the App is given (in a module of its own so MainScreen can use it without importing App). */
import type { TuiSession } from "../src/host/tui-session.js";
import type { ApprovalBroker } from "./state/approval-broker.js";
import type { ScreenMode } from "./state/ui-reducer.js";
import type { ApprovalTiming } from "./state/approval-keys.js";
import type { NotifyMode } from "./terminal/terminal-notify.js";

export interface AppProps {
  /** The conversation this UI drives first. */
  session: TuiSession;
  /** The approval bridge whose `ask` the session was created with. */
  approvals: ApprovalBroker;
  /** Sent as the first prompt when the app starts. */
  initialPrompt?: string;
  /** Open the /resume picker at start (`ink --resume` without an id); with no saved session, a notice says so. */
  openResumePicker?: boolean;
  /** Called once with the exit code when the person leaves, just before the app unmounts. */
  onExit?: (code: number) => void;
  /** Longest wait before streamed events are drawn (ms, default 50). */
  flushMs?: number;
  /** Time allowed for the second Ctrl-C (ms, default 2000). */
  exitWindowMs?: number;
  /**
   * Opens saved main session `id` (a session created with `resume: id`, using the same
   * approvals). Without it, /resume reports that it is unavailable.
   */
  openSession?: (id: string) => TuiSession;
  /** Creates a fresh main session (same approvals) for /clear; without it /clear only clears the screen. */
  newSession?: () => TuiSession;
  /** Called with the new session after /resume or /clear switched to it. */
  onSessionChange?: (session: TuiSession) => void;
  /** Full-screen (the alternate screen, own scrolling) or inline in the scrollback (default: inline). */
  screenMode?: ScreenMode;
  /** When keys may answer an approval question (default: state/approval-keys.ts DEFAULT_APPROVAL_TIMING). */
  approvalTiming?: ApprovalTiming;
  /** Terminal notifications (settings `notify`; default bell). */
  notify?: NotifyMode;
  /** Keys typed before the app started (at the trust question) that answered nothing: they start the prompt's draft. */
  typeAhead?: string;
}
