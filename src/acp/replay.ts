/**
 * A saved session's history as the `session/update` notifications `session/load` replays: the
 * user's messages, the agent's text and thinking, and each tool call with its final status and
 * result (edit/write calls with their diff).
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { toolCallsOf, userText, type AgentMessage, type ToolResult } from "../protocol/messages.js";
import { textContent, toolKind, toolLocations, toolTitle } from "./tool-calls.js";

const MAX_RESULT = 8000;

/** The updates that show `history` again, in order. */
export function replayUpdates(history: readonly AgentMessage[], cwd: string): SessionUpdate[] {
  const results = new Map<string, ToolResult>();
  for (const m of history) if (m.role === "toolResult") for (const r of m.results) results.set(r.toolCallId, r);
  const out: SessionUpdate[] = [];
  for (const message of history) {
    if (message.role === "user") {
      const text = userText(message);
      if (text.trim() !== "") out.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text } });
      continue;
    }
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type === "text" && block.text !== "") out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
      if (block.type === "thinking" && block.thinking !== "") out.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
    }
    for (const call of toolCallsOf(message)) {
      const result = results.get(call.id);
      const diff =
        call.name === "edit" && typeof call.arguments.newText === "string" && toolLocations(call, cwd)[0]
          ? [{ type: "diff" as const, path: toolLocations(call, cwd)[0]!.path, oldText: typeof call.arguments.oldText === "string" ? call.arguments.oldText : null, newText: call.arguments.newText }]
          : [];
      const text = result ? (result.content.length > MAX_RESULT ? `${result.content.slice(0, MAX_RESULT)}…` : result.content) : "(no result was saved)";
      out.push({
        sessionUpdate: "tool_call",
        toolCallId: call.id,
        title: toolTitle(call),
        kind: toolKind(call.name),
        status: result && !result.isError ? "completed" : "failed",
        rawInput: call.arguments,
        locations: toolLocations(call, cwd),
        content: [...(result && !result.isError ? diff : []), textContent(text)],
      });
    }
  }
  return out;
}
