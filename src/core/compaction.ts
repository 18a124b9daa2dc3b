/**
 * Context compaction (SPEC §6): when the history grows past a share of the model's window (or the
 * provider says it no longer fits), the older messages are replaced by one user message holding a
 * model-written summary. The replacement is the same `compactionSummaryMessage` the session loader
 * builds from a `compaction` entry, so a reloaded history equals the live one. Headless: no UI.
 */
import type { Provider, ToolSpec } from "../protocol/provider.js";
import { COMPACTION_SUMMARY_PREFIX, compactionSummaryMessage } from "../session/types.js";
import { userText, type AgentMessage, type AssistantMessage } from "../protocol/messages.js";
import { estimateMessageTokens, estimateTokens } from "./token-estimate.js";
import { errorMessage } from "../protocol/error-message.js";
import type { CompactionEvent, CompactionReason, WarningEvent } from "../protocol/events.js";
export type { CompactionEvent, CompactionReason };

/** What the session store records: the summary and how many leading messages it replaced. */
export interface CompactionEntry {
  summary: string;
  replacedCount: number;
}

export interface CompactorOptions {
  provider: Provider;
  model: string;
  /** The main call's system prompt (counted in the estimate). */
  system: () => string;
  /** The main call's tool specs (counted in the estimate; default none). */
  tools?: () => readonly ToolSpec[];
  contextWindow: number;
  /** Share of the window above which `onBeforeTurn` compacts (default 0.8). */
  threshold?: number;
  /** Tokens of recent history kept verbatim (default 20% of the window). */
  keepRecentTokens?: number;
  /** Called after history was rewritten; persist it as a `compaction` session entry. Must not throw. */
  onCompaction?: (entry: CompactionEntry) => void;
  /** Receives compaction progress (and one warning when the summariser is switched off). Must not throw. */
  onEvent?: (event: CompactionEvent | WarningEvent) => void;
  /** Runs before a summary is written (PreCompact hooks). Must not throw. */
  beforeCompact?: (reason: CompactionReason, signal: AbortSignal | undefined) => Promise<void>;
  /** Consecutive summariser failures after which compaction is switched off for this agent (default 3). */
  maxFailures?: number;
}

export interface Compactor {
  /** Loop hook: compacts when the estimate exceeds threshold × window. Never throws; failures go to `onEvent`. */
  onBeforeTurn(history: AgentMessage[], ctx: { signal: AbortSignal; turn?: number }): Promise<void>;
  /**
   * Loop hook: compacts unconditionally; true when history shrank (retry), false when it could not.
   * Throws an error saying why when the summariser was switched off after repeated failures.
   */
  onContextOverflow(history: AgentMessage[], ctx: { signal: AbortSignal }): Promise<boolean>;
  /** Compacts now (`/compact`). False when there is nothing to replace; throws "compaction failed: …" when the summariser fails. */
  compactNow(history: AgentMessage[], signal?: AbortSignal): Promise<boolean>;
  /** The current estimate for `history`, as `onBeforeTurn` computes it. */
  estimate(history: readonly AgentMessage[]): number;
}

/** System prompt of the summariser call. */
export const SUMMARISER_SYSTEM_PROMPT = [
  "You write the working memory of a coding agent whose earlier conversation no longer fits its context window.",
  "You receive a transcript of that conversation. Write a concise but complete summary the agent can continue from, in plain text with these sections:",
  "1. Goals and constraints: what the user asked for, their requirements and preferences, in their words where it matters.",
  "2. Decisions: what was decided and why.",
  "3. Files and locations: paths, symbols, commands and findings (with line numbers when known).",
  "4. Work done: what was changed or learned, including tool results that matter.",
  "5. Remaining work: what is left to do, open questions, the next step.",
  "6. Child sessions: every child session id mentioned, with what that child did, so it can be continued with task({resume}).",
  "If the transcript starts with an earlier summary, fold it in: keep what still matters. Do not invent anything; answer with the summary only.",
].join("\n");

const TOOL_RESULT_CHARS = 500;
const TASK_RESULT_CHARS = 2_000;
const TOOL_ARGS_CHARS = 300;
const MESSAGE_TEXT_CHARS = 8_000;

/** Creates the compactor for one model and window; share it between runs of the same history. */
export function createCompactor(options: CompactorOptions): Compactor {
  if (!(options.contextWindow > 0)) throw new Error(`createCompactor: contextWindow must be a positive number of tokens, got ${options.contextWindow}`);
  const threshold = options.threshold ?? 0.8;
  const keepRecent = options.keepRecentTokens ?? Math.floor(options.contextWindow * 0.2);
  const summaryMaxTokens = Math.min(4_000, Math.max(256, Math.floor(options.contextWindow / 4)));
  const transcriptChars = Math.max(2_000, (options.contextWindow - summaryMaxTokens - 500) * 4);
  // Usage recorded before a compaction counts messages no longer sent: never anchor on it.
  const staleUsage = new WeakSet<AgentMessage>();
  const seen = new WeakSet<AgentMessage[]>();
  const emit = (event: CompactionEvent | WarningEvent) => options.onEvent?.(event);
  const maxFailures = options.maxFailures ?? 3;
  let failures = 0;
  let lastFailure = "";
  const switchedOff = () => failures >= maxFailures;

  /** A history met for the first time that starts with a summary was compacted earlier (e.g. reloaded). */
  const adopt = (history: AgentMessage[]) => {
    if (seen.has(history)) return;
    seen.add(history);
    if (isSummaryMessage(history[0])) markStale(history, 0);
  };
  const markStale = (history: readonly AgentMessage[], from: number) => {
    for (let i = from; i < history.length; i++) if (history[i]!.role === "assistant") staleUsage.add(history[i]!);
  };
  const estimate = (history: readonly AgentMessage[]) =>
    estimateTokens(options.system(), history, options.tools?.(), { usageUsable: (m: AssistantMessage) => !staleUsage.has(m) });

  async function compact(history: AgentMessage[], signal: AbortSignal | undefined, reason: CompactionReason): Promise<boolean> {
    adopt(history);
    const cut = chooseCut(history, keepRecent);
    if (cut === undefined) return false;
    await options.beforeCompact?.(reason, signal);
    const tokensBefore = estimate(history);
    emit({ type: "compaction_start", reason, tokensBefore, replacing: cut });
    let summary: string;
    try {
      summary = await summarise(history.slice(0, cut), signal);
    } catch (err) {
      const error = errorMessage(err);
      emit({ type: "compaction_end", reason, ok: false, tokensBefore, error });
      failures++;
      lastFailure = error;
      if (failures === maxFailures) {
        emit({ type: "warning", source: "compaction", message: `context compaction is switched off for this agent: the summariser failed ${failures} times in a row (last: ${error})` });
      }
      throw err;
    }
    failures = 0;
    history.splice(0, cut, compactionSummaryMessage(summary));
    markStale(history, 1);
    options.onCompaction?.({ summary, replacedCount: cut });
    emit({ type: "compaction_end", reason, ok: true, replacedCount: cut, tokensBefore, tokensAfter: estimate(history), summary });
    return true;
  }

  async function summarise(replaced: readonly AgentMessage[], signal: AbortSignal | undefined): Promise<string> {
    let text: string;
    try {
      const stream = options.provider.stream({
        system: SUMMARISER_SYSTEM_PROMPT,
        messages: [{ role: "user", content: summaryRequest(replaced, transcriptChars) }],
        tools: [],
        model: options.model,
        maxTokens: summaryMaxTokens,
        signal,
      });
      const message = await stream.result();
      text = message.content.map((b) => (b.type === "text" ? b.text : "")).join("").trim();
    } catch (err) {
      throw new Error(`compaction failed: the summary call failed: ${errorMessage(err)}`, { cause: err });
    }
    if (text === "") throw new Error("compaction failed: the model returned an empty summary");
    return text;
  }

  return {
    estimate,
    async onBeforeTurn(history, ctx) {
      adopt(history);
      if (ctx.signal.aborted || switchedOff() || estimate(history) <= threshold * options.contextWindow) return;
      try {
        await compact(history, ctx.signal, "threshold");
      } catch {
        // reported through onEvent; the turn goes ahead with the history unchanged
      }
    },
    async onContextOverflow(history, ctx) {
      if (switchedOff()) {
        throw new Error(
          `the conversation no longer fits the model's context window, and compaction is switched off for this agent after ${failures} failed summaries (last: ${lastFailure}); start a new session or give the agent a smaller task`,
        );
      }
      try {
        return await compact(history, ctx.signal, "overflow");
      } catch {
        return false;
      }
    },
    compactNow(history, signal) {
      return compact(history, signal, "manual");
    },
  };
}

/**
 * Where to cut `history`: the index of the first kept message, or undefined when no cut replaces
 * at least 2 messages while keeping at least one. The kept part starts at a user message when one
 * fits: the earliest such start whose tail is within `keepRecentTokens`. When none fits (e.g. one
 * long task with a single prompt), the kept part may start at an assistant message (the summary
 * user message then precedes it); failing that, the cut keeps the smallest possible tail. A cut
 * never falls between an assistant message and its tool results.
 */
export function chooseCut(history: readonly AgentMessage[], keepRecentTokens: number): number | undefined {
  const n = history.length;
  const tail: number[] = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) tail[i] = tail[i + 1]! + estimateMessageTokens(history[i]!);
  const userCuts: number[] = [];
  const anyCuts: number[] = [];
  for (let c = 2; c < n; c++) {
    const role = history[c]!.role;
    if (role === "user") userCuts.push(c);
    if (role === "user" || role === "assistant") anyCuts.push(c);
  }
  const fits = (c: number) => tail[c]! <= keepRecentTokens;
  return userCuts.find(fits) ?? anyCuts.find(fits) ?? anyCuts.at(-1);
}

/** True when `message` is a compaction summary standing in for earlier history. */
export function isSummaryMessage(message: AgentMessage | undefined): boolean {
  return message?.role === "user" && userText(message).startsWith(COMPACTION_SUMMARY_PREFIX);
}

/** The user message sent to the summariser: instructions, child session ids seen, and the transcript. */
export function summaryRequest(replaced: readonly AgentMessage[], maxTranscriptChars: number): string {
  const transcript = clipMiddle(renderTranscript(replaced), maxTranscriptChars);
  const ids = childSessionIds(replaced);
  return [
    "Summarise the conversation transcript below so the work can continue without it.",
    ids.length > 0 ? `Child session ids that appear in it (list every one in your summary, with what that child did): ${ids.join(", ")}` : "",
    `<transcript>\n${transcript}\n</transcript>`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** A compact plain-text rendering: user and assistant text, tool calls as `name(args)`, clipped tool results. */
export function renderTranscript(messages: readonly AgentMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      lines.push(`[user] ${clipMiddle(userText(m), MESSAGE_TEXT_CHARS)}`);
    } else if (m.role === "assistant") {
      for (const block of m.content) {
        if (block.type === "text" && block.text.trim() !== "") lines.push(`[assistant] ${clipMiddle(block.text, MESSAGE_TEXT_CHARS)}`);
        else if (block.type === "toolCall") lines.push(`[tool call] ${block.name}(${clipMiddle(JSON.stringify(block.arguments), TOOL_ARGS_CHARS)})`);
      }
    } else {
      for (const r of m.results) {
        const limit = r.toolName === "task" ? TASK_RESULT_CHARS : TOOL_RESULT_CHARS;
        lines.push(`[tool result${r.isError ? ", error" : ""}] ${r.toolName}: ${clipMiddle(r.content, limit)}`);
      }
    }
  }
  return lines.join("\n");
}

/** Child session ids named by `task` calls (`resume`) and their results, in first-seen order. */
export function childSessionIds(messages: readonly AgentMessage[]): string[] {
  const ids = new Set<string>();
  const id = "([A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])";
  const patterns = [new RegExp(`child session ${id}`, "g"), new RegExp(`resume:\\s*"${id}"`, "g")];
  for (const m of messages) {
    if (m.role === "assistant") {
      for (const block of m.content) {
        if (block.type === "toolCall" && block.name === "task" && typeof block.arguments.resume === "string") ids.add(block.arguments.resume);
      }
    } else if (m.role === "toolResult") {
      for (const r of m.results) {
        if (r.toolName !== "task") continue;
        for (const p of patterns) for (const match of r.content.matchAll(p)) ids.add(match[1]!);
      }
    }
  }
  return [...ids];
}

/** `text` cut to about `max` characters, keeping its start and end with a note of what was left out. */
function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.6);
  const tailLength = max - head;
  return `${text.slice(0, head)} […${text.length - head - tailLength} characters omitted…] ${text.slice(text.length - tailLength)}`;
}
