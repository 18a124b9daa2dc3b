/**
 * Shell notes: a command the person ran with `!` (and what the bash tool returned) is passed to the
 * model as a prefix of the next user message, as child-report notes are. Readers (the transcript,
 * the demo model) split the notes off again with `splitShellNotes`.
 */
import { decodedOr, splitLeadingNotes } from "./leading-notes.js";

/** One command the person ran, with what the bash tool returned. */
export interface ShellNote {
  command: string;
  output: string;
  isError: boolean;
}

const OPEN = "<user-shell-command";
const CLOSE = "</user-shell-command>";
const NOTE = /^<user-shell-command command="([^"]*)" status="(ok|error)">\nThe user ran this shell command themselves; its output:\n([\s\S]*?)\n<\/user-shell-command>\n\n/;

/** The note text for one command (the output's own closing tag, if any, is defused). */
export function formatShellNote(note: ShellNote): string {
  const output = note.output.split(CLOSE).join("</user-shell-command >");
  return `${OPEN} command="${encodeURIComponent(note.command)}" status="${note.isError ? "error" : "ok"}">\nThe user ran this shell command themselves; its output:\n${output}\n${CLOSE}\n\n`;
}

/** The user message text carrying `notes` before `text`. */
export function withShellNotes(notes: readonly ShellNote[], text: string): string {
  return notes.map(formatShellNote).join("") + text;
}

/** Splits leading shell notes off a user message text: the notes in order, and the rest. */
export function splitShellNotes(text: string): { notes: ShellNote[]; text: string } {
  return splitLeadingNotes(text, NOTE, (m) => ({ command: decodedOr(m[1]!, decodeURIComponent), output: m[3]!, isError: m[2] === "error" }));
}
