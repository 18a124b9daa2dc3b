/**
 * Conversion of Ink's provider-neutral request (`ModelRequest`) into an Anthropic Messages API
 * request body: messages, tools, system prompt, prompt-caching breakpoints and extended thinking.
 */
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { AgentMessage, AssistantMessage, ToolResult, ToolResultMessage, UserMessage } from "../protocol/messages.js";
import type { ModelRequest, ToolSpec } from "../protocol/provider.js";
import { requestThinking, type ServedModel } from "../protocol/model-catalog.js";

const EPHEMERAL = { type: "ephemeral" } as const;

/** Output tokens kept for the answer on top of a thinking budget when max_tokens is too small. */
const ANSWER_HEADROOM = 4096;

/** The Messages API requires a thinking budget of at least this many tokens. */
const MIN_THINKING_BUDGET = 1024;

function userToApi(message: UserMessage): MessageParam | undefined {
  const blocks: TextBlockParam[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content.map((b) => ({ type: "text", text: b.text }));
  const nonEmpty = blocks.filter((b) => b.text.trim() !== "");
  return nonEmpty.length === 0 ? undefined : { role: "user", content: nonEmpty };
}

function assistantToApi(message: AssistantMessage): MessageParam | undefined {
  const content: ContentBlockParam[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        if (block.text.trim() !== "") content.push({ type: "text", text: block.text });
        break;
      case "thinking":
        if (block.redacted !== undefined) content.push({ type: "redacted_thinking", data: block.redacted });
        // A thinking block without its signature cannot be sent back; the API would reject it.
        else if (block.signature) content.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
        break;
      case "toolCall":
        content.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments });
        break;
    }
  }
  return content.length === 0 ? undefined : { role: "assistant", content };
}

/** A result's content: its text, then its images as base64 image blocks (a plain string when it has none). */
function resultContent(r: ToolResult): ToolResultBlockParam["content"] {
  // The API rejects empty text blocks; an empty result is sent as a plain marker.
  const text = r.content === "" ? "(no output)" : r.content;
  if (!r.images?.length) return text;
  return [
    { type: "text", text },
    ...r.images.map((i) => ({ type: "image" as const, source: { type: "base64" as const, media_type: i.mimeType as "image/png", data: i.data } })),
  ];
}

function toolResultsToApi(message: ToolResultMessage): MessageParam | undefined {
  const content: ToolResultBlockParam[] = message.results.map((r) => ({
    type: "tool_result",
    tool_use_id: r.toolCallId,
    content: resultContent(r),
    ...(r.isError ? { is_error: true } : {}),
  }));
  return content.length === 0 ? undefined : { role: "user", content };
}

/**
 * Converts the history to API messages: user → user, assistant blocks → text / thinking /
 * redacted_thinking / tool_use, a toolResult message → ONE user message of tool_result blocks.
 * Empty text blocks and messages left empty are dropped; consecutive same-role messages are merged
 * (the API requires alternating roles).
 */
export function toApiMessages(messages: readonly AgentMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const m of messages) {
    const converted = m.role === "user" ? userToApi(m) : m.role === "assistant" ? assistantToApi(m) : toolResultsToApi(m);
    if (!converted) continue;
    const prev = out[out.length - 1];
    if (prev && prev.role === converted.role) {
      prev.content = [...(prev.content as ContentBlockParam[]), ...(converted.content as ContentBlockParam[])];
    } else {
      out.push(converted);
    }
  }
  return out;
}

/** Converts tool specs to API tools; the last one carries a cache breakpoint. */
export function toApiTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Tool["input_schema"],
    ...(i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}

/** Puts a cache breakpoint on the last block of the last user message (in place). */
function markLastUserMessage(messages: MessageParam[]): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "user" || typeof m.content === "string") continue;
    const last = m.content[m.content.length - 1];
    if (last && (last.type === "text" || last.type === "tool_result")) last.cache_control = EPHEMERAL;
    return;
  }
}

/**
 * Builds the streaming request body for `request`: system as one cached text block, tools (last
 * one cached), converted messages (last user block cached) and, when thinking is on, either
 * `thinking: {type: "enabled", budget_tokens}` (max_tokens raised above the budget if needed) or,
 * for a model that takes an effort setting (its entry in `served`, else the offline table),
 * `output_config: {effort}` with adaptive thinking where it takes that (see requestThinking); with
 * no thinking set, `defaultEffort` as such a model's `output_config.effort`.
 */
export function buildRequestBody(request: ModelRequest, model: string, served?: readonly ServedModel[], defaultEffort?: string): MessageCreateParamsStreaming {
  const messages = toApiMessages(request.messages);
  markLastUserMessage(messages);
  const body: MessageCreateParamsStreaming = {
    model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
  };
  if (request.system.trim() !== "") body.system = [{ type: "text", text: request.system, cache_control: EPHEMERAL }];
  if (request.tools.length > 0) body.tools = toApiTools(request.tools);
  const fields = requestThinking(request.thinking, model, served, defaultEffort);
  if (fields.thinking?.type === "enabled") {
    const budget = Math.max(MIN_THINKING_BUDGET, Math.floor(fields.thinking.budget_tokens));
    body.thinking = { type: "enabled", budget_tokens: budget };
    if (body.max_tokens <= budget) body.max_tokens = budget + ANSWER_HEADROOM;
  } else if (fields.thinking) body.thinking = fields.thinking;
  if (fields.effort !== undefined) body.output_config = { effort: fields.effort as "low" | "medium" | "high" | "xhigh" | "max" };
  return body;
}
