/**
 * Transcript lines for the scrollable child-transcript overlay, plain and pre-wrapped: a saved
 * child conversation (`transcriptLines`) or a running child's live view (`liveChildLines`). Both
 * show the prompts (`›`), the assistant's text and each tool call (`⏺ name args`) with the first
 * lines of ITS result right under it (`⎿`); compaction summaries become one dim line.
 */
import { isSummaryMessage } from "../../src/core/compaction.js";
import { userText, type AgentMessage, type ToolResult } from "../../src/protocol/messages.js";
import { contentLines, formatArgs, wrapText } from "./format.js";
import type { ChildView } from "./transcript-types.js";
import type { OverlayLine } from "./ui-reducer.js";

/** Result lines shown under a tool call. */
export const RESULT_LINES = 3;

function push(out: OverlayLine[], text: string, width: number, tone?: OverlayLine["tone"], indent = "") {
  const lines = wrapText(text, width - indent.length);
  lines.forEach((line, i) => out.push({ text: (i === 0 ? indent : " ".repeat(indent.length)) + line, ...(tone ? { tone } : {}) }));
}

/** A tool call line, then the first lines of its result (`head` of `total` lines) when it has one. */
function pushTool(out: OverlayLine[], width: number, call: { name: string; args: Record<string, unknown> }, result?: { head: readonly string[]; total: number; isError: boolean }) {
  push(out, `${call.name} ${formatArgs(call.args, Math.max(20, width * 2))}`, width, "tool", "⏺ ");
  if (!result) return;
  const shown = result.head.slice(0, RESULT_LINES);
  if (shown.length === 0) shown.push("(no output)");
  shown.forEach((line, i) => push(out, line, width, result.isError ? "error" : "dim", i === 0 ? "  ⎿ " : "    "));
  if (result.total > shown.length) out.push({ text: `    … +${result.total - shown.length} lines`, tone: "dim" });
}

function resultOf(r: ToolResult) {
  const lines = contentLines(r.content);
  return { head: lines.slice(0, RESULT_LINES), total: lines.length, isError: r.isError };
}

/** The lines of saved `messages` wrapped to `width` columns; each result follows its call. */
export function transcriptLines(messages: readonly AgentMessage[], width: number): OverlayLine[] {
  const results = new Map<string, ToolResult>();
  for (const m of messages) if (m.role === "toolResult") for (const r of m.results) results.set(r.toolCallId, r);
  const called = new Set<string>();
  const out: OverlayLine[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      out.push({ text: "" });
      if (isSummaryMessage(m)) push(out, "✂ (earlier conversation summarised by a context compaction)", width, "dim");
      else push(out, userText(m), width, "user", "› ");
    } else if (m.role === "assistant") {
      for (const block of m.content) {
        if (block.type === "text" && block.text.trim() !== "") {
          out.push({ text: "" });
          push(out, block.text.trim(), width);
        } else if (block.type === "toolCall") {
          called.add(block.id);
          const r = results.get(block.id);
          pushTool(out, width, { name: block.name, args: block.arguments }, r && resultOf(r));
        }
      }
    } else {
      // Results whose call is not in the transcript (cut by a compaction) still show, at their place.
      for (const r of m.results) if (!called.has(r.toolCallId)) pushTool(out, width, { name: r.toolName, args: {} }, resultOf(r));
    }
  }
  return out;
}

/** A running child's live view from the stream: its prompt, then its text and tool calls in order. */
export function liveChildLines(child: ChildView, width: number): OverlayLine[] {
  const out: OverlayLine[] = [];
  if (child.dropped > 0) out.push({ text: `… ${child.dropped} earlier steps are not kept live — the full transcript shows once the child ends`, tone: "dim" });
  out.push({ text: "" });
  push(out, child.prompt, width, "user", "› ");
  for (const entry of child.entries) {
    if (entry.kind === "text") {
      if (entry.text.trim() === "") continue;
      out.push({ text: "" });
      push(out, entry.text.trim(), width);
    } else {
      const done = entry.resultHead !== undefined;
      pushTool(out, width, entry, done ? { head: entry.resultHead!, total: entry.resultLines ?? entry.resultHead!.length, isError: entry.status === "error" } : undefined);
      if (!done) out.push({ text: entry.status === "running" || entry.status === "pending" ? "  ⎿ running…" : "  ⎿ (no result)", tone: "dim" });
    }
  }
  if (child.note) push(out, child.note, width, "dim");
  if (child.thinking) out.push({ text: "✻ thinking…", tone: "dim" });
  return out;
}

/** Plain `text` (e.g. a task result) as overlay lines under a heading. */
export function sectionLines(heading: string, text: string, width: number): OverlayLine[] {
  const out: OverlayLine[] = [{ text: "" }, { text: heading, tone: "heading" }];
  push(out, text.trim() === "" ? "(empty)" : text.trim(), width);
  return out;
}
