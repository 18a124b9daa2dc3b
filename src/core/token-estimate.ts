/**
 * Token estimates for context management (SPEC §6): a cheap count (≈ characters / 4 of each
 * message's content plus a small per-message overhead), anchored on the real `usage` the provider
 * reported for the latest assistant message when there is one — a real count beats a guess.
 */
import { totalTokens, type AgentMessage, type AssistantMessage, type Usage } from "../protocol/messages.js";
import type { ToolSpec } from "../protocol/provider.js";

/** Characters per token assumed by the estimate. */
export const CHARS_PER_TOKEN = 4;
/** Tokens added per message for role markers and block framing. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Estimated tokens of a piece of text. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}


/**
 * Tokens counted for one image in a tool result: the most a full-size image costs (the Messages
 * API scales images down to about 1.15 megapixels, ≈ 1,600 tokens), not its base64 length.
 */
export const IMAGE_TOKENS = 1600;

/**
 * Estimated tokens of one message: its content as JSON, / 4, plus the per-message overhead; an
 * image in a tool result counts IMAGE_TOKENS instead of its data.
 */
export function estimateMessageTokens(message: AgentMessage): number {
  if (message.role === "toolResult") {
    let images = 0;
    const results = message.results.map((r) => {
      if (!r.images?.length) return r;
      images += r.images.length;
      return { ...r, images: undefined };
    });
    return textTokens(JSON.stringify(results)) + images * IMAGE_TOKENS + MESSAGE_OVERHEAD_TOKENS;
  }
  const content = message.content;
  const json = typeof content === "string" ? content : JSON.stringify(content);
  return textTokens(json) + MESSAGE_OVERHEAD_TOKENS;
}

export interface EstimateOptions {
  /**
   * Whether an assistant message's `usage` may anchor the estimate (default: always). Compaction
   * uses it to ignore usage recorded before a compaction, which counts history no longer sent.
   */
  usageUsable?: (message: AssistantMessage) => boolean;
}

/**
 * Estimated size in tokens of a model call with this system prompt, history and tools. When the
 * last assistant message carrying real usage (total > 0, and usable per `options`) exists, the
 * result is that usage plus the estimate of the messages after it; otherwise everything is
 * estimated from characters.
 */
export function estimateTokens(system: string, messages: readonly AgentMessage[], tools?: readonly ToolSpec[], options: EstimateOptions = {}): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.usage || totalTokens(m.usage) <= 0) continue;
    if (options.usageUsable && !options.usageUsable(m)) break;
    return totalTokens(m.usage) + sumMessages(messages, i + 1);
  }
  const toolTokens = tools && tools.length > 0 ? textTokens(JSON.stringify(tools)) : 0;
  return textTokens(system) + toolTokens + sumMessages(messages, 0);
}

/** Sum of the message estimates from index `from` to the end. */
function sumMessages(messages: readonly AgentMessage[], from: number): number {
  let total = 0;
  for (let i = from; i < messages.length; i++) total += estimateMessageTokens(messages[i]!);
  return total;
}

/**
 * The usage the next model call with this history is expected to report, for a budget to check
 * before it is sent; undefined before any reply carried usage (nothing measured to anchor on). Its
 * input is the request as it will be sent: the last reply's usage (everything that call read and
 * wrote) plus the messages appended since (tool results, messages sent meanwhile). What the last
 * call read or wrote to the prompt cache is read from it again; the rest is new input (written to
 * the cache when the last call used it). Its output is the last reply's output.
 */
export function estimateNextRequest(messages: readonly AgentMessage[]): Usage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.usage || totalTokens(m.usage) <= 0) continue;
    const last = m.usage;
    const fresh = last.input + last.output + sumMessages(messages, i + 1);
    const cached = last.cacheRead + last.cacheWrite;
    return cached > 0 ? { input: 0, cacheRead: cached, cacheWrite: fresh, output: last.output } : { input: fresh, cacheRead: 0, cacheWrite: 0, output: last.output };
  }
  return undefined;
}
