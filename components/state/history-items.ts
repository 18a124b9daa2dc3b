/**
 * historyItems: a saved conversation (a resumed main session's messages and task records) as
 * finished transcript items — the person's messages, the assistant's text, collapsed thinking,
 * each tool call with its result, and each child as the summary the live run ended with (status,
 * turns, tokens, duration from its task record). Reports of children the person resumed from the
 * sidebar show where they reached the main agent: a child summary and a note before the message.
 * A long tool result keeps only its head when the session file it came from is named (read back on
 * Ctrl-T); a `task` report and a `!` command's output (saved inside a user message) stay whole.
 * The notes and `!` commands saved beside the conversation (`view`) stand where they were shown;
 * a `!` command shown from its own entry is not shown again from the message that carried it.
 */
import { isSummaryMessage } from "../../src/core/compaction.js";
import { splitChildReportNotes, type ChildReportNote } from "../../src/protocol/child-report-note.js";
import { splitShellNotes, type ShellNote } from "../../src/protocol/shell-note.js";
import { splitMentionBlocks } from "../../src/protocol/attachment-blocks.js";
import { emptyUsage, userText, type AgentMessage, type ToolCall, type ToolResult } from "../../src/protocol/messages.js";
import type { TaskRecord, ViewEntry } from "../../src/session/types.js";
import { attachmentLine } from "./event-notes.js";
import { foldReport } from "./child-reducer.js";
import { isShortResult, resultHead } from "./result-head.js";
import type { ChildStatus, ChildView, ToolItem, TranscriptItem } from "./transcript-types.js";

const STATUSES: readonly ChildStatus[] = ["ok", "aborted", "timeout", "crash"];

/** True for the task tool's bookkeeping lines (usage, resume hint, stop/failure notes). */
function isFooterLine(line: string): boolean {
  return /^\[task\] /.test(line.trim());
}

/** The child's report as the pane showed it: the task result without the task tool's own lines. */
function reportOf(result: string): string {
  return result
    .split("\n")
    .filter((l) => !isFooterLine(l))
    .join("\n")
    .trim();
}

/** Why a child stopped, from the task tool's note in its result. */
function reasonOf(result: string): string | undefined {
  const m = /^\[task\] (?:stopped: (.*?)(?: \(\d+ turns?\))?\.?|child failed after \d+ turns?: (.*?)(?:; partial result above\.)?)$/m.exec(result);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** When the run started (ms since the epoch), from the time its record was saved; 0 when unknown. */
function startOf(record: TaskRecord): number {
  const end = record.endedAt ? Date.parse(record.endedAt) : NaN;
  return Number.isFinite(end) ? Math.max(0, end - record.durationMs) : 0;
}

/** A finished child restored from its task record (and the result its parent got). */
export function restoredChild(record: TaskRecord, args: Record<string, unknown>, result: string | undefined): ChildView {
  const status = (STATUSES as readonly string[]).includes(record.status) ? (record.status as ChildStatus) : "crash";
  const child: ChildView = {
    childId: record.childId,
    profile: record.profile,
    ...(record.description ? { description: record.description } : {}),
    prompt: record.prompt,
    status,
    startedAt: startOf(record),
    durationMs: record.durationMs,
    turns: record.turns,
    usage: { ...emptyUsage(), ...record.usage },
    ...(record.toolCallId ? { run: record.toolCallId } : {}),
    ...(record.model ? { model: record.model } : {}),
    report: result === undefined ? "" : reportOf(result),
    entries: [],
    dropped: 0,
    thinking: false,
    resumed: typeof args.resume === "string",
    ...(record.worktree ? { worktree: record.worktree.path } : {}),
  };
  const reason = status === "ok" || result === undefined ? undefined : reasonOf(result);
  return foldReport(reason ? { ...child, reason } : child, result);
}

/** Finds the task record of each run: by tool call id, else by the child session named in the result, else by prompt. */
class RecordIndex {
  private readonly unused: TaskRecord[];
  constructor(records: readonly TaskRecord[]) {
    this.unused = [...records];
  }

  /** Takes the first unused record matching `pred`. */
  private take(pred: (r: TaskRecord) => boolean): TaskRecord | undefined {
    const i = this.unused.findIndex(pred);
    return i < 0 ? undefined : this.unused.splice(i, 1)[0];
  }

  /** The record of the task call `call` (answered by `result`). */
  forCall(call: ToolCall, result: string | undefined): TaskRecord | undefined {
    const named = result ? /\[task\] child session (\S+?)[\s;(]/.exec(result)?.[1] : undefined;
    const prompt = String(call.arguments.prompt ?? "");
    return (
      this.take((r) => r.toolCallId === call.id) ??
      this.take((r) => r.toolCallId === undefined && named !== undefined && (r.sessionId ?? r.childId) === named && r.prompt === prompt) ??
      this.take((r) => r.toolCallId === undefined && r.prompt === prompt)
    );
  }

  /** The record of a run the person started (a sidebar resume) of child `childId` with `prompt`. */
  forNote(note: ChildReportNote): TaskRecord | undefined {
    return this.take((r) => r.childId === note.childId && r.prompt === note.prompt) ?? this.take((r) => r.childId === note.childId);
  }

  /** Records no call or note claimed, in file order. */
  rest(): TaskRecord[] {
    return this.unused.splice(0);
  }
}

/** The summary item of a child run the person started (not a call of the model). */
function personRunItem(id: string, record: TaskRecord, report: string | undefined): ToolItem {
  const args = { prompt: record.prompt, resume: record.childId };
  const status = record.status === "ok" ? "ok" : "error";
  return { kind: "tool", id, done: true, name: "task", args, status, result: report ?? "(the report is in the child's session)", durationMs: record.durationMs, child: restoredChild(record, args, report) };
}

function label(note: { profile?: string; childId: string }): string {
  return `${note.profile ?? "general"} [${note.childId.slice(-6)}]`;
}

/** The result fields of a saved tool call's item: its head only when long and `file` holds it, else the whole text. */
function savedResult(call: ToolCall, r: ToolResult | undefined, file: string | undefined): Pick<ToolItem, "result" | "resultHead" | "resultLines" | "saved"> {
  if (!r) return { result: "(no result was saved)" };
  if (file === undefined || call.name === "task" || isShortResult(r.content)) return { result: r.content };
  return { ...resultHead(r.content), saved: { file, callId: call.id } };
}

/**
 * The finished items for `messages`; ids are `h<n>` (tool items `h:<call id>`), unique within the
 * list. `file`: the session file the messages were read from (long tool results stay there).
 */
export function historyItems(messages: readonly AgentMessage[], records: readonly TaskRecord[] = [], file?: string, view: readonly ViewEntry[] = []): TranscriptItem[] {
  const results = new Map<string, ToolResult>();
  for (const m of messages) if (m.role === "toolResult") for (const r of m.results) results.set(r.toolCallId, r);
  const index = new RecordIndex(records);
  const items: TranscriptItem[] = [];
  let n = 0;
  const id = () => `h${++n}`;
  const shellItems = (note: ShellNote, durationMs?: number) => {
    items.push({ kind: "user", id: id(), done: true, text: `!${note.command}` });
    items.push({ kind: "tool", id: `h:shell:${id()}`, done: true, name: "bash", args: { command: note.command }, status: note.isError ? "error" : "ok", result: note.output, ...(durationMs !== undefined ? { durationMs } : {}) });
  };
  /** `!` commands shown from their own entries whose message has not come yet. */
  const shown: ShellNote[] = [];
  let v = 0;
  /** Shows the view entries placed before message `k`. */
  const viewUpTo = (k: number) => {
    for (; v < view.length && view[v]!.after <= k; v++) {
      const e = view[v]!.entry;
      if (e.type === "note") items.push({ kind: "info", id: id(), done: true, tone: e.tone, text: e.text });
      else {
        shellItems(e, e.durationMs);
        shown.push(e);
      }
    }
  };
  for (const [k, m] of messages.entries()) {
    viewUpTo(k);
    if (m.role === "user") {
      if (isSummaryMessage(m)) {
        items.push({ kind: "info", id: id(), done: true, tone: "dim", text: "✂ (earlier conversation summarised by a context compaction)" });
        continue;
      }
      const { notes, text } = splitChildReportNotes(userText(m));
      for (const note of notes) {
        const record = index.forNote(note);
        if (record) items.push(personRunItem(`h:resume:${id()}`, record, note.report));
        items.push({ kind: "info", id: id(), done: true, tone: "dim", text: `↪ ${label(note)}'s report (${note.status}) went to the main agent with this message` });
      }
      const shell = splitShellNotes(text);
      for (const note of shell.notes) {
        const i = shown.findIndex((s) => s.command === note.command && s.output === note.output && s.isError === note.isError);
        if (i >= 0) shown.splice(i, 1);
        else shellItems(note);
      }
      const typed = splitMentionBlocks(shell.text);
      items.push({ kind: "user", id: id(), done: true, text: typed.text });
      if (typed.files.length > 0) items.push({ kind: "info", id: id(), done: true, tone: "dim", text: typed.files.map(attachmentLine).join("\n") });
      continue;
    }
    if (m.role !== "assistant") continue;
    for (const block of m.content) {
      if (block.type === "text" && block.text.trim() !== "") items.push({ kind: "assistant", id: id(), done: true, text: block.text });
      else if (block.type === "thinking" && !block.redacted) items.push({ kind: "thinking", id: id(), done: true, chars: block.thinking.length });
      else if (block.type === "toolCall") {
        const r = results.get(block.id);
        const record = block.name === "task" ? index.forCall(block, r?.content) : undefined;
        items.push({
          kind: "tool",
          id: `h:${block.id}`,
          done: true,
          name: block.name,
          args: block.arguments,
          status: !r || r.isError ? "error" : "ok",
          ...savedResult(block, r, file),
          ...(record ? { durationMs: record.durationMs, child: restoredChild(record, block.arguments, r?.content) } : {}),
        });
      }
    }
  }
  viewUpTo(Number.POSITIVE_INFINITY);
  // Runs the person started whose report had not reached the main agent when the session ended.
  for (const record of index.rest()) {
    items.push(personRunItem(`h:resume:${id()}`, record, undefined));
    items.push({ kind: "info", id: id(), done: true, tone: "dim", text: `↪ ${label(record)}'s report had not been passed to the main agent when this session ended` });
  }
  return items;
}
