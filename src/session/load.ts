/**
 * Reading a session file back into a usable history: parse line by line, skip damaged lines
 * with a note, apply compactions, record task records, then repair the history (see repair.ts).
 * Throws for an unreadable file, a bad header, or a history that cannot be paired safely
 * (`HistoryRefusedError`, naming the lines); the file is never changed here.
 */
import { readFileSync } from "node:fs";
import { addUsage, emptyUsage, type AgentMessage } from "../protocol/messages.js";
import { parseEntryLine, parseHeaderLine } from "./entries.js";
import { normalise, repairHistory } from "./repair.js";
import { compactionSummaryMessage, type LoadedSession, type TaskRecord } from "./types.js";

/**
 * Loads the session file at `path`. A damaged last line (a torn write) is dropped; a damaged line
 * elsewhere is skipped; each with a note naming the file and line number. A compaction entry
 * replaces the first `replacedCount` messages of the history rebuilt so far (all of them when it
 * covers everything) with one user message holding the summary — counted on the repaired history,
 * as the live one was. Finally `repairHistory` runs (its refusal is thrown, naming the lines).
 * Throws (naming the path) when the file cannot be read, its header line is missing/invalid, or
 * the history is refused.
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
  /** The file line (1-based) of each message, parallel to `messages` (0 = synthetic). */
  let lineOf: number[] = [];
  const records: TaskRecord[] = [];
  const notes: string[] = [];
  const repairs: string[] = [];
  const usage = emptyUsage();
  let turns = 0;
  let skipped = 0;
  for (let i = 1; i <= lastContentLine; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const parsed = parseEntryLine(line);
    if ("error" in parsed) {
      if (i === lastContentLine) repairs.push("a torn last line dropped");
      else skipped++;
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
        lineOf.push(i + 1);
        if (entry.message.role === "assistant") turns++;
        break;
      case "task_record":
        records.push(entry.record);
        break;
      case "compaction": {
        // The count was taken on the live history, which held the same placeholders and merges
        // the loader adds (closed calls are saved in the file since they are made).
        const shaped = normalise(messages, (k) => `line ${lineOf[k]}`);
        if (shaped.repaired) lineOf = shapeLines(shaped.messages, messages, lineOf);
        messages = shaped.messages;
        const replaced = Math.min(entry.replacedCount, messages.length);
        messages = [compactionSummaryMessage(entry.summary), ...messages.slice(replaced)];
        lineOf = [i + 1, ...lineOf.slice(replaced)];
        break;
      }
      case "status":
        // A prompt whose request failed for good was withdrawn from the live history (core/failed-turn.ts).
        if (entry.status === "prompt_failed" && messages.at(-1)?.role === "user") {
          messages.pop();
          lineOf.pop();
        }
        break;
      case "usage":
        addUsage(usage, entry.usage);
        break;
    }
  }

  if (skipped > 0) repairs.push(`${skipped} damaged line${skipped === 1 ? "" : "s"} skipped`);
  const repair = repairHistory(messages, (k) => (lineOf[k] ? `line ${lineOf[k]}` : "the first message"), `session file ${path}`);
  notes.push(...repair.notes.map((n) => `${path}: ${n}`));
  repairs.push(...repair.summary);
  return {
    header,
    messages: repair.messages,
    records,
    repaired: notes.length > 0,
    notes,
    repairs,
    toPersist: repair.toPersist,
    lifetime: { usage, turns },
  };
}

/** The file lines of `shaped` (a normalised copy of `original`): inserted messages get 0. */
function shapeLines(shaped: readonly AgentMessage[], original: readonly AgentMessage[], lines: readonly number[]): number[] {
  const index = new Map(original.map((m, k) => [m, lines[k]!] as const));
  return shaped.map((m) => index.get(m) ?? 0);
}
