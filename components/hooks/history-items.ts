/**
 * historyItems: a saved conversation (a resumed main session's messages) as finished transcript
 * items — the person's messages, the assistant's text, collapsed thinking, and each tool call with
 * its result — so the screen shows where the conversation stands before it continues.
 */
import { isSummaryMessage } from "../../src/core/compaction.js";
import { userText, type AgentMessage, type ToolResult } from "../../src/protocol/messages.js";
import type { TranscriptItem } from "./transcript-types.js";

/** The finished items for `messages`; ids are `h<n>` (tool items `h:<call id>`), unique within the list. */
export function historyItems(messages: readonly AgentMessage[]): TranscriptItem[] {
  const results = new Map<string, ToolResult>();
  for (const m of messages) if (m.role === "toolResult") for (const r of m.results) results.set(r.toolCallId, r);
  const items: TranscriptItem[] = [];
  let n = 0;
  const id = () => `h${++n}`;
  for (const m of messages) {
    if (m.role === "user") {
      if (isSummaryMessage(m)) items.push({ kind: "info", id: id(), done: true, tone: "dim", text: "✂ (earlier conversation summarised by a context compaction)" });
      else items.push({ kind: "user", id: id(), done: true, text: userText(m) });
      continue;
    }
    if (m.role !== "assistant") continue;
    for (const block of m.content) {
      if (block.type === "text" && block.text.trim() !== "") items.push({ kind: "assistant", id: id(), done: true, text: block.text });
      else if (block.type === "thinking" && !block.redacted) items.push({ kind: "thinking", id: id(), done: true, chars: block.thinking.length });
      else if (block.type === "toolCall") {
        const r = results.get(block.id);
        items.push({
          kind: "tool",
          id: `h:${block.id}`,
          done: true,
          name: block.name,
          args: block.arguments,
          status: !r || r.isError ? "error" : "ok",
          result: r ? r.content : "(no result was saved)",
        });
      }
    }
  }
  return items;
}
