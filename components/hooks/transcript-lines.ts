/**
 * transcriptLines: a saved child conversation as plain, pre-wrapped lines for the scrollable
 * transcript overlay — the prompts (`›`), the assistant's text, each tool call (`⏺ name args`)
 * with the first lines of its result (`⎿`), and compaction summaries as one dim line.
 */
import { isSummaryMessage } from "../../src/core/compaction.js";
import { userText, type AgentMessage } from "../../src/core/messages.js";
import { contentLines, formatArgs, wrapText } from "../format.js";
import type { OverlayLine } from "./ui-reducer.js";

/** Result lines shown under a tool call. */
export const RESULT_LINES = 3;

function push(out: OverlayLine[], text: string, width: number, tone?: OverlayLine["tone"], indent = "") {
  const lines = wrapText(text, width - indent.length);
  lines.forEach((line, i) => out.push({ text: (i === 0 ? indent : " ".repeat(indent.length)) + line, ...(tone ? { tone } : {}) }));
}

/** The lines of `messages` wrapped to `width` columns. */
export function transcriptLines(messages: readonly AgentMessage[], width: number): OverlayLine[] {
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
        } else if (block.type === "toolCall") push(out, `${block.name} ${formatArgs(block.arguments, Math.max(20, width * 2))}`, width, "tool", "⏺ ");
      }
    } else {
      for (const r of m.results) {
        const lines = contentLines(r.content);
        const shown = lines.slice(0, RESULT_LINES);
        shown.forEach((line, i) => push(out, line, width, r.isError ? "error" : "dim", i === 0 ? `  ⎿ ${r.toolName}: ` : "    "));
        if (lines.length > shown.length) out.push({ text: `    … +${lines.length - shown.length} lines`, tone: "dim" });
      }
    }
  }
  return out;
}

/** Plain `text` (e.g. a task result) as overlay lines under a heading. */
export function sectionLines(heading: string, text: string, width: number): OverlayLine[] {
  const out: OverlayLine[] = [{ text: "" }, { text: heading, tone: "heading" }];
  push(out, text.trim() === "" ? "(empty)" : text.trim(), width);
  return out;
}
