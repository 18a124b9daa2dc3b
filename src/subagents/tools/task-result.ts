/**
 * taskResult: turns a child's outcome into the `task` tool result the parent model sees
 * (SPEC §3 table), plus the texts shared by every row: usage line (this attempt and lifetime),
 * resume hint, advice after a failure, repair and persistence notes, tail-keeping truncation.
 * Results given without running a child (refusals) are in task-refusals.ts.
 */
import type { Usage } from "../../protocol/messages.js";
import type { ToolOutput } from "../../protocol/tool.js";
import type { SubagentOutcome } from "../runtime/run-subagent.js";

/** Longest report passed back verbatim; longer ones keep their head lines and tail, with a note. */
export const MAX_TASK_OUTPUT = 30_000;
/** How much of the task a failure result quotes. */
export const TASK_QUOTE_CHARS = 200;
const HEAD_LINES = 5;
const HEAD_CHARS = 2_000;

/** What the task tool knows about the run besides the outcome. */
export interface TaskResultContext {
  /** The prompt this attempt was given. */
  prompt?: string;
  /** Why the transcript could not be saved (the child is then not resumable). */
  persistFailure?: string;
  /** Why no transcript was kept at all (a session without a store: the child is not resumable). */
  notSaved?: string;
  /** Repairs made to a resumed child's transcript ("1 interrupted tool call closed"). */
  repairs?: readonly string[];
  /** A resumed child's kept worktree. */
  worktree?: { path: string; branch: string };
  /** Totals of the child's earlier runs (resumed children). */
  earlier?: { usage: Usage; turns: number };
  maxChars?: number;
}

/** The tool result for a finished child run. */
export function taskResult(outcome: SubagentOutcome, context: TaskResultContext = {}): ToolOutput {
  const text = truncate(outcome.text, outcome, context.maxChars ?? MAX_TASK_OUTPUT);
  const notes = [
    context.worktree ? `[task] resumed in its kept worktree ${context.worktree.path} (branch ${context.worktree.branch}).` : undefined,
    context.repairs && context.repairs.length > 0
      ? `[task] transcript repaired: ${context.repairs.join(", ")}. Files may have changed since the previous attempt — re-read before editing.`
      : undefined,
    ...(outcome.warnings ?? []).map((w) => `[task] warning: ${w}`),
    context.persistFailure ? `[task] transcript could not be saved (not resumable): ${context.persistFailure}` : undefined,
    context.notSaved ? `[task] transcript not saved (not resumable): ${context.notSaved}` : undefined,
  ];
  const footer = [usageLine(outcome, context.earlier), context.persistFailure || context.notSaved ? undefined : resumeHint(outcome)].filter(Boolean).join("\n");
  const join = (...parts: Array<string | undefined>) => parts.filter((p) => p && p.trim() !== "").join("\n\n");
  const noteText = notes.filter(Boolean).join("\n");
  switch (outcome.status) {
    case "ok":
      if (outcome.noReport) return { output: join(noReportLine(outcome), noteText, advice(outcome, context), footer), isError: true };
      if (!text) return { output: join(`[task] the child finished after ${turns(outcome.turns)} without a final text answer; nothing to report.`, noteText, footer), isError: true };
      return { output: join(text, noteText, footer), isError: false };
    case "aborted":
    case "timeout": {
      const why = outcome.status === "timeout" ? `[task] stopped: the child ${outcome.reason ?? "timed out"} after ${turns(outcome.turns)}.` : `[task] stopped: ${outcome.reason ?? "the parent run was aborted"} after ${turns(outcome.turns)}.`;
      return { output: join(text ? `${text}\n\n[task] partial text above; the child did not finish.` : undefined, why, quote(context.prompt), noteText, advice(outcome, context), footer), isError: true };
    }
    case "crash": {
      const why = `[task] child failed after ${turns(outcome.turns)}: ${outcome.reason ?? "unknown error"}`;
      if (!text) return { output: join(why, quote(context.prompt), noteText, advice(outcome, context), footer), isError: true };
      return { output: join(text, `${why}; partial result above.`, quote(context.prompt), noteText, advice(outcome, context), footer), isError: false };
    }
  }
}

/** An ok child that gave no report even when asked once more. */
function noReportLine(o: SubagentOutcome): string {
  const last = o.noReport === "pointer" ? `its last message only pointed to earlier output ("${o.text.replace(/\s+/g, " ").trim()}")` : "its last message had no text";
  return `[task] the child finished after ${turns(o.turns)} without a final report: ${last}, even after it was asked once more for its report. Its earlier messages are in its transcript${o.historyPath ? ` (${o.historyPath})` : ""}.`;
}

function turns(n: number): string {
  return `${n} turn${n === 1 ? "" : "s"}`;
}

/** The start of the task, quoted (at most TASK_QUOTE_CHARS characters, on a code-point boundary). */
function quote(prompt: string | undefined): string | undefined {
  if (!prompt) return undefined;
  const flat = prompt.replace(/\s+/g, " ").trim();
  const cut = flat.length > TASK_QUOTE_CHARS ? `${flat.slice(0, safeCut(flat, TASK_QUOTE_CHARS - 1))}…` : flat;
  return `[task] the task was: "${cut}"`;
}

/** What the model can do after a child did not finish. */
function advice(o: SubagentOutcome, context: TaskResultContext): string {
  const options = [
    o.sessionId && !context.persistFailure ? `resume it with task({resume: "${o.sessionId}", prompt: "..."}) to let it finish` : undefined,
    "re-dispatch a narrower task",
    o.historyPath && !context.persistFailure ? `read its transcript (${o.historyPath}) to see how far it got` : undefined,
  ].filter(Boolean);
  return `[task] next: ${options.join(", or ")}.`;
}

function tokens(u: Usage): string {
  const cache = u.cacheRead || u.cacheWrite ? `, cache ${u.cacheRead} read / ${u.cacheWrite} written` : "";
  return `tokens ${u.input} in / ${u.output} out${cache}`;
}

function usageLine(o: SubagentOutcome, earlier?: { usage: Usage; turns: number }): string {
  const attempt = `[task] ${o.status} · ${turns(o.turns)} · ${(o.durationMs / 1000).toFixed(1)}s · ${tokens(o.usage)}`;
  if (!earlier) return attempt;
  const total: Usage = {
    input: earlier.usage.input + o.usage.input,
    output: earlier.usage.output + o.usage.output,
    cacheRead: earlier.usage.cacheRead + o.usage.cacheRead,
    cacheWrite: earlier.usage.cacheWrite + o.usage.cacheWrite,
  };
  return `${attempt} (this attempt) · lifetime ${turns(earlier.turns + o.turns)} · ${tokens(total)}`;
}

function resumeHint(o: SubagentOutcome): string | undefined {
  if (!o.sessionId) return undefined;
  const where = o.historyPath ? ` (history: ${o.historyPath})` : "";
  // Given once the child has ended, so it can be resumed now (a running child would take the prompt as a message);
  // the resume checks (resume-check.ts) say for how long: while its instructions, model and directory stay as they were.
  return `[task] child session ${o.sessionId}${where}; it has ended — continue it with task({resume: "${o.sessionId}", prompt: "..."}) now or in a later session (after --continue or --resume too), as long as its system prompt, tools, model and working directory are unchanged`;
}

/** `index` moved back by one when it would split a surrogate pair of `text`. */
export function safeCut(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(index, text.length));
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

/**
 * `text` cut to about `max` characters keeping its first lines and its tail (where a report's
 * conclusion is), with a note of how much was cut, where, and where the full text is. Cuts fall on
 * code-point boundaries.
 */
export function truncateKeepingTail(text: string, max: number, where: string): string {
  if (text.length <= max) return text;
  const lines = text.split("\n");
  let headEnd = lines.slice(0, HEAD_LINES).join("\n").length;
  headEnd = safeCut(text, Math.min(headEnd, HEAD_CHARS, Math.floor(max / 4)));
  const tailStart = safeCut(text, text.length - (max - headEnd));
  const cut = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n\n[task] report truncated: ${cut} of ${text.length} characters cut here (characters ${headEnd}–${tailStart}); the first lines and the last ${text.length - tailStart} characters are shown; the full text is in ${where}.\n\n${text.slice(tailStart)}`;
}

function truncate(text: string, o: SubagentOutcome, max: number): string {
  const where = o.historyPath ? `the child's session file ${o.historyPath}` : "the child's session";
  return truncateKeepingTail(text, max, where);
}

/** Characters of each unread message quoted in the result. */
const UNREAD_QUOTE_CHARS = 200;

/**
 * The result's line for messages sent to the child (by the person or the parent) that it never read
 * — they came after its last turn boundary (its turn limit, a stop): named, so none is lost silently.
 * "" when there are none.
 */
export function unreadMessagesNote(texts: readonly string[]): string {
  if (texts.length === 0) return "";
  const quoted = texts.map((t) => JSON.stringify(t.length > UNREAD_QUOTE_CHARS ? `${t.slice(0, safeCut(t, UNREAD_QUOTE_CHARS - 1))}…` : t)).join(", ");
  return `[task] ${texts.length === 1 ? "1 message" : `${texts.length} messages`} sent to the child while it ran ${texts.length === 1 ? "was" : "were"} not read (it had stopped reading): ${quoted}; resume it with that text if it still matters.`;
}
