/**
 * What a loaded session showed the person besides its conversation: notes (command outputs,
 * notices, interruptions) and `!` commands, each placed among the history's messages where it
 * was written, through compactions, withdrawn prompts and the final repair; plus the `!` commands
 * whose output no user message carried yet (they still go to the model with the next one).
 */
import { splitShellNotes, type ShellNote } from "../protocol/shell-note.js";
import { userText, type AgentMessage } from "../protocol/messages.js";
import type { SessionEntry, ViewEntry } from "./types.js";

type ViewSessionEntry = ViewEntry["entry"];

/** True for two notes of the same command run. */
function sameRun(a: ShellNote, b: ShellNote): boolean {
  return a.command === b.command && a.output === b.output && a.isError === b.isError;
}

/** The shell notes a user message carries (none for other messages). */
function carriedNotes(message: AgentMessage): ShellNote[] {
  return message.role === "user" ? splitShellNotes(userText(message)).notes : [];
}

/** Collects view entries while the loader rebuilds the history; see `place` for the end result. */
export class ViewTracker {
  /** Each entry with the number of messages of the history (as rebuilt so far) before it. */
  private readonly entries: Array<{ after: number; entry: ViewSessionEntry }> = [];
  /** `!` commands not carried by a user message yet. */
  readonly pendingShell: ShellNote[] = [];

  /** Records `entry`, written after `count` messages of the history as it stands now. */
  add(entry: SessionEntry, count: number): void {
    if (entry.type !== "note" && entry.type !== "shell") return;
    this.entries.push({ after: count, entry });
    if (entry.type === "shell") this.pendingShell.push({ command: entry.command, output: entry.output, isError: entry.isError });
  }

  /** A message joined the history: the `!` outputs it carries are no longer pending. */
  message(message: AgentMessage): void {
    for (const note of carriedNotes(message)) {
      const i = this.pendingShell.findIndex((p) => sameRun(p, note));
      if (i >= 0) this.pendingShell.splice(i, 1);
    }
  }

  /** The last message (a withdrawn prompt) left the history: its `!` outputs wait for the next message again. */
  withdrawn(message: AgentMessage, count: number): void {
    this.pendingShell.unshift(...carriedNotes(message));
    for (const e of this.entries) e.after = Math.min(e.after, count);
  }

  /** A rewind cut the history to its first `count` messages: entries after them stand at its end. */
  truncated(count: number): void {
    for (const e of this.entries) e.after = Math.min(e.after, count);
  }

  /** A compaction replaced the first `replaced` messages with one summary: entries among them stand before it. */
  compacted(replaced: number): void {
    for (const e of this.entries) e.after = e.after < replaced ? 0 : e.after - replaced + 1;
  }

  /**
   * The entries placed in `final` (the repaired history): an entry after message k of `rebuilt`
   * (the history before the repair) goes after that same message in `final`, or after the
   * nearest earlier one the repair kept.
   */
  place(rebuilt: readonly AgentMessage[], final: readonly AgentMessage[]): ViewEntry[] {
    const at = new Map(final.map((m, i) => [m, i] as const));
    const position = (after: number): number => {
      for (let k = Math.min(after, rebuilt.length) - 1; k >= 0; k--) {
        const i = at.get(rebuilt[k]!);
        if (i !== undefined) return i + 1;
      }
      return 0;
    };
    return this.entries.map((e) => ({ after: position(e.after), entry: e.entry }));
  }
}
