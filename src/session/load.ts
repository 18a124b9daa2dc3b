/**
 * Reading a session file back into a usable history: parse line by line, skip damaged lines
 * with a note, apply compactions, record task records, then repair the history so every tool
 * call has a result. Content problems never throw; only an unreadable file or a bad header does.
 */
import { readFileSync } from "node:fs";
import type { AgentMessage } from "../protocol/messages.js";
import { parseEntryLine, parseHeaderLine } from "./entries.js";
import { repairHistory } from "./repair.js";
import { compactionSummaryMessage, type LoadedSession, type TaskRecord } from "./types.js";

/**
 * Loads the session file at `path`. A damaged last line (a torn write) is dropped; a damaged line
 * elsewhere is skipped; each with a note naming the file and line number. A compaction entry
 * replaces the first `replacedCount` messages of the history rebuilt so far (all of them when it
 * covers everything) with one user message holding the summary — counted on the repaired history,
 * as the live one was. Finally `repairHistory` runs.
 * Throws (naming the path) only when the file cannot be read or its header line is missing/invalid.
 */
export function loadSessionFile(path: string): LoadedSession {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read session file ${path}: ${(err as Error).message}`);
  }
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0 || lines[0]!.trim() === "") {
    throw new Error(`invalid session file ${path}: it is empty (the first line must be the session header)`);
  }
  const header = parseHeaderLine(lines[0]!, path);

  let lastContentLine = lines.length - 1;
  while (lastContentLine > 0 && lines[lastContentLine]!.trim() === "") lastContentLine--;

  let messages: AgentMessage[] = [];
  const records: TaskRecord[] = [];
  const notes: string[] = [];
  for (let i = 1; i <= lastContentLine; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const parsed = parseEntryLine(line);
    if ("error" in parsed) {
      notes.push(
        i === lastContentLine
          ? `dropped the last line (line ${i + 1}) of ${path}, probably cut off by an interruption: ${parsed.error}`
          : `skipped line ${i + 1} of ${path}: ${parsed.error}`,
      );
      continue;
    }
    const entry = parsed.entry;
    switch (entry.type) {
      case "message":
        messages.push(entry.message);
        break;
      case "task_record":
        records.push(entry.record);
        break;
      case "compaction": {
        // The count was taken on the live (repaired) history, so repair first: a session resumed
        // after a crash holds synthetic results in memory that its file does not.
        messages = repairHistory(messages).messages;
        const replaced = Math.min(entry.replacedCount, messages.length);
        messages = [compactionSummaryMessage(entry.summary), ...messages.slice(replaced)];
        break;
      }
      case "status":
        // A prompt whose request failed for good was withdrawn from the live history (core/failed-turn.ts).
        if (entry.status === "prompt_failed" && messages.at(-1)?.role === "user") messages.pop();
        break;
      case "usage":
        break;
    }
  }

  const repair = repairHistory(messages);
  notes.push(...repair.notes.map((n) => `${path}: ${n}`));
  return { header, messages: repair.messages, records, repaired: notes.length > 0, notes };
}
