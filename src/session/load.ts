/**
 * Reading a session file back into a usable history: parse line by line, skip damaged lines
 * with a note, apply compactions, record task records, then repair the history (see repair.ts).
 * Throws for an unreadable file, a bad header, or a history that cannot be paired safely
 * (`HistoryRefusedError`, naming the lines); the file is never changed here.
 */
import { readFileSync } from "node:fs";
import { addUsage, emptyUsage, totalTokens, type AgentMessage, type Usage } from "../protocol/messages.js";
import { parseEntryLine, parseHeaderLine } from "./entries.js";
import { normalise, repairHistory } from "./repair.js";
import { compactionSummaryMessage, isChildlessRecord, type LoadedSession, type TaskRecord } from "./types.js";
import { ViewTracker } from "./view-entries.js";
import type { BackgroundReport } from "../protocol/background-report.js";
import { MAIN_SPENDER, type SpendRow } from "../protocol/spend.js";

/**
 * Loads the session file at `path`. A damaged last line (a torn write) is dropped; a damaged line
 * elsewhere is skipped; each with a note naming the file and line number. A line over
 * `opts.maxLineBytes` (default SESSION_LINE_MAX_BYTES) is skipped the same way without being
 * decoded, so neither a huge line nor a file beyond V8's longest string makes it unloadable. A compaction entry
 * replaces the first `replacedCount` messages of the history rebuilt so far (all of them when it
 * covers everything) with one user message holding the summary — counted on the repaired history,
 * as the live one was. Finally `repairHistory` runs (its refusal is thrown, naming the lines).
 * Notes, `!` commands and settings the person saw are returned beside the history (view-entries.ts).
 * Throws (naming the path) when the file cannot be read, its header line is missing/invalid, or
 * the history is refused.
 */
export function loadSessionFile(path: string, opts: { maxLineBytes?: number } = {}): LoadedSession {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (err) {
    throw new Error(`cannot read session file ${path}: ${(err as Error).message}`);
  }
  const maxLineBytes = opts.maxLineBytes ?? SESSION_LINE_MAX_BYTES;
  const oversized = new Map<number, number>(); // line index → its size in bytes (never decoded)
  const lines = splitLines(data, maxLineBytes, oversized);
  if (oversized.has(0)) throw new Error(`invalid session file ${path}: its first line is ${oversized.get(0)} bytes, not a session header`);
  if (lines.length === 0 || lines[0]!.trim() === "") {
    throw new Error(`invalid session file ${path}: it is empty (the first line must be the session header)`);
  }
  const header = parseHeaderLine(lines[0]!, path);

  let lastContentLine = lines.length - 1;
  while (lastContentLine > 0 && lines[lastContentLine]!.trim() === "" && !oversized.has(lastContentLine)) lastContentLine--;

  let messages: AgentMessage[] = [];
  /** The file line (1-based) of each message, parallel to `messages` (0 = synthetic). */
  let lineOf: number[] = [];
  const records: TaskRecord[] = [];
  const background = new Map<string, BackgroundReport>();
  const notes: string[] = [];
  const repairs: string[] = [];
  const usage = emptyUsage();
  const view = new ViewTracker();
  const settings: LoadedSession["settings"] = {};
  /** The usage ledger's saved rows; and, until the first of them, rows read from the turns and task records an older version wrote. */
  const spend: SpendRow[] = [];
  const legacy: SpendRow[] = [];
  let ledgerSaved = false;
  let mainModel = header.model;
  let turns = 0;
  let skipped = 0;
  let title: string | undefined;
  for (let i = 1; i <= lastContentLine; i++) {
    const line = lines[i]!;
    const size = oversized.get(i);
    if (size !== undefined) {
      skipped++;
      notes.push(`skipped line ${i + 1} of ${path}: it is ${(size / 1024 / 1024).toFixed(1)} MB, over the ${(maxLineBytes / 1024 / 1024).toFixed(0)} MB a session line may hold`);
      continue;
    }
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
        view.message(entry.message);
        if (entry.message.role === "assistant") {
          turns++;
          if (!ledgerSaved) legacy.push(...legacyTurnRows(entry.message, mainModel));
        }
        break;
      case "task_record":
        // A refused or stopped-before-start call's record (no child ran) stays in the file for the record; it is no child to list or restore.
        if (!ledgerSaved) legacy.push(legacyRecordRow(entry.record));
        if (isChildlessRecord(entry.record)) break;
        records.push(entry.at ? { ...entry.record, endedAt: entry.at } : entry.record);
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
        view.compacted(replaced);
        break;
      }
      case "rewind": {
        // Counted on the live history, which held the loader's placeholders and merges (as for a compaction).
        const shaped = normalise(messages, (k) => `line ${lineOf[k]}`);
        if (shaped.repaired) lineOf = shapeLines(shaped.messages, messages, lineOf);
        messages = shaped.messages.slice(0, entry.keep);
        lineOf = lineOf.slice(0, entry.keep);
        view.truncated(messages.length);
        break;
      }
      case "status":
        // A prompt whose request failed for good was withdrawn from the live history (core/failed-turn.ts).
        if (entry.status === "prompt_failed" && messages.at(-1)?.role === "user") {
          view.withdrawn(messages.pop()!, messages.length);
          lineOf.pop();
        }
        break;
      case "usage":
        if (entry.agent === undefined) addUsage(usage, entry.usage);
        else {
          ledgerSaved = true;
          spend.push({ agent: entry.agent, ...(entry.run !== undefined ? { run: entry.run } : {}), ...(entry.model !== undefined ? { model: entry.model } : {}), usage: { ...entry.usage } });
        }
        break;
      case "note":
      case "shell":
        view.add(entry, messages.length);
        break;
      case "background_report":
        background.set(entry.report.childId, entry.report);
        break;
      case "title":
        title ??= entry.prompt;
        break;
      case "background_delivered":
        for (const id of entry.childIds) background.delete(id);
        break;
      case "settings":
        if (entry.model !== undefined) settings.model = mainModel = entry.model;
        if (entry.permissionMode !== undefined) settings.permissionMode = entry.permissionMode;
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
    spend: [...legacy, ...spend],
    view: view.place(messages, repair.messages),
    settings,
    pendingShell: view.pendingShell,
    pendingBackground: [...background.values()],
    ...(title !== undefined ? { title } : {}),
  };
}

/** Largest session line decoded when loading (bytes); a longer one is skipped with a note, so a huge or garbage line can never exhaust memory or make the session unloadable. */
export const SESSION_LINE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The lines of `data` (UTF-8, "\n"-separated; no empty last line for a final newline). A line over
 * `maxBytes` is left as "" and its size recorded in `oversized` by index.
 */
function splitLines(data: Buffer, maxBytes: number, oversized: Map<number, number>): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < data.length) {
    let end = data.indexOf(0x0a, start);
    if (end < 0) end = data.length;
    if (end - start > maxBytes) {
      oversized.set(lines.length, end - start);
      lines.push("");
    } else lines.push(data.toString("utf8", start, end));
    start = end + 1;
  }
  return lines;
}

/** The file lines of `shaped` (a normalised copy of `original`): inserted messages get 0. */
function shapeLines(shaped: readonly AgentMessage[], original: readonly AgentMessage[], lines: readonly number[]): number[] {
  const index = new Map(original.map((m, k) => [m, lines[k]!] as const));
  return shaped.map((m) => index.get(m) ?? 0);
}

/**
 * The ledger rows of an assistant turn written before the session saved its ledger: its usage on
 * its model, and a stopped call's usage (`abortedUsage`) on the model the main agent ran then.
 */
function legacyTurnRows(m: Extract<AgentMessage, { role: "assistant" }>, mainModel: string): SpendRow[] {
  const model = m.model ?? mainModel;
  return [m.usage, m.abortedUsage].filter((u): u is Usage => u !== undefined && totalTokens(u) > 0).map((u) => ({ agent: MAIN_SPENDER, model, usage: { ...u } }));
}

/** The ledger row of a child run's task record written before the session saved its ledger (no model named: unpriced). */
function legacyRecordRow(r: TaskRecord): SpendRow {
  return { agent: r.childId, ...(r.toolCallId !== undefined ? { run: r.toolCallId } : {}), ...(r.model !== undefined ? { model: r.model } : {}), usage: { ...emptyUsage(), ...r.usage } };
}
