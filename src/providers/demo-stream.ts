/**
 * Streams a planned demo reply the way a real provider would: the text in small word chunks, then
 * each tool call as start / partial-JSON deltas / end, a usage estimate, and finally the complete
 * AssistantMessage. Pauses `delayMs` between chunks and fails with ProviderError("aborted") as
 * soon as the request's signal aborts.
 */
import { EventStream } from "../protocol/event-stream.js";
import type { AssistantMessage, AssistantBlock, ToolCall, Usage } from "../protocol/messages.js";
import { ProviderError } from "../protocol/provider-error.js";
import type { ModelRequest, ProviderEvent, ProviderStream } from "../protocol/provider.js";

/** One tool call the demo wants made (the id is assigned when streaming). */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the demo model says in one turn. */
export interface DemoReply {
  text: string;
  calls: PlannedCall[];
}

/** Splits text into chunks of a few words; joining the chunks gives back the text exactly. */
export function chunkText(text: string, wordsPerChunk = 3): string[] {
  const tokens = text.match(/\s+|\S+\s*/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerChunk) chunks.push(tokens.slice(i, i + wordsPerChunk).join(""));
  return chunks;
}

/** Splits a JSON string into pieces of about `size` characters. */
function chunkJson(json: string, size = 24): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out.length > 0 ? out : [json];
}

/** A rough token count (~4 characters a token). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Input-token estimate of a request: system prompt, messages and tool declarations. */
function inputTokens(request: ModelRequest): number {
  try {
    return estimateTokens(request.system ?? "") + estimateTokens(JSON.stringify(request.messages ?? [])) + estimateTokens(JSON.stringify(request.tools ?? []));
  } catch {
    return 0;
  }
}

/** Resolves after `ms`, or rejects with an aborted ProviderError when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new ProviderError("aborted", "aborted"));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProviderError("aborted", "aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * streamReply: starts streaming `reply` for `request` and returns the stream at once. Call ids
 * are `demo-<turn>-<n>` (n from 1). Stop reason is "tool_use" when there are calls, else
 * "end_turn". Never throws; an abort fails the stream with ProviderError kind "aborted".
 */
export function streamReply(request: ModelRequest, reply: DemoReply, turn: number, delayMs: number): ProviderStream {
  const stream = new EventStream<ProviderEvent, AssistantMessage>();
  const calls: ToolCall[] = reply.calls.map((c, i) => ({ type: "toolCall", id: `demo-${turn}-${i + 1}`, name: c.name, arguments: c.arguments }));
  const emit = async (event: ProviderEvent): Promise<void> => {
    await pause(delayMs, request.signal);
    stream.push(event);
  };
  const run = async (): Promise<void> => {
    for (const text of chunkText(reply.text)) await emit({ type: "text_delta", text });
    for (const call of calls) {
      await emit({ type: "toolcall_start", id: call.id, name: call.name });
      for (const partialJson of chunkJson(JSON.stringify(call.arguments))) await emit({ type: "toolcall_delta", id: call.id, partialJson });
      await emit({ type: "toolcall_end", call });
    }
    const outputText = reply.text + calls.map((c) => c.name + JSON.stringify(c.arguments)).join("");
    const usage: Usage = { input: inputTokens(request), output: estimateTokens(outputText), cacheRead: 0, cacheWrite: 0 };
    await emit({ type: "usage", usage });
    if (request.signal?.aborted) throw new ProviderError("aborted", "aborted");
    const content: AssistantBlock[] = [];
    if (reply.text !== "") content.push({ type: "text", text: reply.text });
    content.push(...calls);
    stream.end({ role: "assistant", content, stopReason: calls.length > 0 ? "tool_use" : "end_turn", usage, model: request.model });
  };
  run().catch((err: unknown) => {
    stream.fail(err instanceof ProviderError ? err : new ProviderError("api", `demo model failed: ${String(err)}`, { cause: err }));
  });
  return stream;
}
