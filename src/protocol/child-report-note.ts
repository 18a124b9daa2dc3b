/**
 * Child-report notes: the report of a child the person resumed (from the sidebar) is passed to
 * the main agent as a prefix of the next user message — one user message, so the conversation
 * keeps alternating roles for every provider. The same text is saved in the session file, and
 * readers (the transcript, the demo model) split it off again with `splitChildReportNotes`.
 */
import { decodedOr, splitLeadingNotes } from "./leading-notes.js";

/** One resumed child's report waiting for (or carried by) a main request. */
export interface ChildReportNote {
  childId: string;
  /** Profile name; undefined = the general-purpose subagent. */
  profile?: string;
  /** The person's prompt to the resumed child. */
  prompt: string;
  /** Set when the person started the child with a forked slash command (e.g. "/review"), not a resume. */
  command?: string;
  /** How the run ended (ok, aborted, timeout, crash). */
  status: string;
  /** What the task tool returned for the run (the report with its footer lines). */
  report: string;
}

const OPEN = "<subagent-report";
const CLOSE = "</subagent-report>";
const NOTE = /^<subagent-report child="([^"]*)"(?: profile="([^"]*)")? status="([^"]*)">\nThe user (?:resumed this subagent from the sidebar and asked it|ran the command (\S+) as this subagent, with the prompt): (.*)\nIts report:\n([\s\S]*?)\n<\/subagent-report>\n\n/;

function attr(value: string): string {
  return value.replace(/["\n]/g, " ");
}

/** The note text for one report (the report's own closing tag, if any, is defused). */
export function formatChildReportNote(note: ChildReportNote): string {
  const profile = note.profile ? ` profile="${attr(note.profile)}"` : "";
  const report = note.report.split(CLOSE).join("</subagent-report >");
  return `${OPEN} child="${attr(note.childId)}"${profile} status="${attr(note.status)}">\nThe user ${note.command ? `ran the command ${note.command.replace(/\s/g, "")} as this subagent, with the prompt` : "resumed this subagent from the sidebar and asked it"}: ${JSON.stringify(note.prompt)}\nIts report:\n${report}\n${CLOSE}\n\n`;
}

/** The user message text carrying `notes` before `text` (just `text` when there are none). */
export function withChildReportNotes(notes: readonly ChildReportNote[], text: string): string {
  return notes.map(formatChildReportNote).join("") + text;
}

/** Splits the leading notes off a user message text: the notes in order, and the person's own text. */
export function splitChildReportNotes(text: string): { notes: ChildReportNote[]; text: string } {
  return splitLeadingNotes(text, NOTE, (m) => ({ childId: m[1]!, ...(m[2] !== undefined ? { profile: m[2] } : {}), status: m[3]!, ...(m[4] !== undefined ? { command: m[4] } : {}), prompt: decodedOr(m[5]!, JSON.parse), report: m[6]! }));
}
