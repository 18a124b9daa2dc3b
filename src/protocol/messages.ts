/**
 * The message model shared by the loop, the providers, sessions and the UI. Provider-neutral:
 * each provider converts these to and from its wire format.
 */

/** Token usage of one model call (or a sum of calls). */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A fresh zero usage record. */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Every token of a usage record: input with cache reads and writes, plus output. */
export function totalTokens(u: Usage): number {
  return u.input + u.cacheRead + u.cacheWrite + u.output;
}

/** Adds `b` into `a` (mutating `a`) and returns `a`. */
export function addUsage(a: Usage, b: Usage): Usage {
  a.input += b.input;
  a.output += b.output;
  a.cacheRead += b.cacheRead;
  a.cacheWrite += b.cacheWrite;
  return a;
}

export interface TextBlock {
  type: "text";
  text: string;
}

export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  /** Provider signature that must be echoed back with the block (Anthropic). */
  signature?: string;
  /** Redacted thinking payload (Anthropic `redacted_thinking`). */
  redacted?: string;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type AssistantBlock = TextBlock | ThinkingBlock | ToolCall;

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "aborted" | "refusal" | "pause_turn";

export interface UserMessage {
  role: "user";
  content: string | TextBlock[];
}

export interface AssistantMessage {
  role: "assistant";
  content: AssistantBlock[];
  stopReason: StopReason;
  usage: Usage;
  model?: string;
  /**
   * A call stopped mid-stream: what it is known to have spent (the provider's partial report plus
   * an estimate of the streamed output). Counted in totals (a resumed session's too); never an
   * anchor for the context size, so `usage` stays empty.
   */
  abortedUsage?: Usage;
}

/** An image a tool returned (an MCP tool's `image` content): base64 data and its mime type. */
export interface ToolImage {
  mimeType: string;
  /** Base64-encoded bytes. */
  data: string;
}

export interface ToolResult {
  toolCallId: string;
  toolName: string;
  /** The text the model sees (an image is named here too, e.g. `[image: image/png, 12 KB]`). */
  content: string;
  isError: boolean;
  /** Images sent to the model with the text (providers that take images; others see the text only). */
  images?: ToolImage[];
}

/** One message holding every result of one assistant message's tool calls. */
export interface ToolResultMessage {
  role: "toolResult";
  results: ToolResult[];
}

export type AgentMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** The tool calls of an assistant message, in order. */
export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((b): b is ToolCall => b.type === "toolCall");
}

/**
 * finalAssistantText: scanning back from the end, the first assistant message with a non-empty
 * text block; returns its first non-empty text block ("" when there is none).
 */
export function finalAssistantText(messages: readonly AgentMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    for (const block of m.content) {
      if (block.type === "text" && block.text.trim() !== "") return block.text;
    }
  }
  return "";
}

/** The plain text of a user message. */
export function userText(message: UserMessage): string {
  return typeof message.content === "string" ? message.content : message.content.map((b) => b.text).join("");
}
