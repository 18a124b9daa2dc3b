/**
 * What waits for the next user message besides the person's text: reports of children the person
 * resumed, and commands the person ran with `!`. They go first in that message; if the message is
 * withdrawn (stopped before any answer, or failed for good) they are put back for the one after.
 */
import { withChildReportNotes, type ChildReportNote } from "../protocol/child-report-note.js";
import { withShellNotes, type ShellNote } from "../protocol/shell-note.js";

/** The notes one message took (to put back if it is withdrawn). */
export interface TakenNotes {
  reports: ChildReportNote[];
  shell: ShellNote[];
}

/** The notes waiting for the next user message. */
export class PendingNotes {
  readonly reports: ChildReportNote[] = [];
  readonly shell: ShellNote[] = [];

  /** Takes every waiting note: the message text carrying them before `text`, and what was taken. */
  take(text: string): { message: string; taken: TakenNotes } {
    const taken = { reports: this.reports.splice(0), shell: this.shell.splice(0) };
    return { message: withChildReportNotes(taken.reports, withShellNotes(taken.shell, text)), taken };
  }

  /** Puts notes back in front (their message was withdrawn): they go with the next one. */
  putBack(taken: TakenNotes): void {
    this.reports.unshift(...taken.reports);
    this.shell.unshift(...taken.shell);
  }
}
