/**
 * TurnAssembler: folds the raw Messages API stream events of one call into Ink `ProviderEvent`s
 * and the final `AssistantMessage`.
 */
import type { RawMessageStreamEvent, StopReason as ApiStopReason } from "@anthropic-ai/sdk/resources/messages/messages";
import { emptyUsage, type AssistantBlock, type AssistantMessage, type StopReason, type Usage } from "../protocol/messages.js";
import type { ProviderEvent } from "../protocol/provider.js";

type OpenBlock =
  | { kind: "text"; text: string }
  | { kind: "thinking"; thinking: string; signature: string }
  | { kind: "redacted"; data: string }
  | { kind: "tool"; id: string; name: string; json: string }
  | { kind: "ignored" };

/** Maps the API's stop_reason to Ink's. Unknown or missing reasons count as "end_turn". */
export function mapStopReason(reason: ApiStopReason | string | null | undefined): StopReason {
  switch (reason) {
    case "tool_use":
    case "max_tokens":
    case "stop_sequence":
    case "refusal":
    case "pause_turn":
    case "end_turn":
      return reason;
    case "model_context_window_exceeded":
      return "max_tokens";
    default:
      return "end_turn";
  }
}

/**
 * Parses accumulated tool input JSON. Empty input is `{}`; unparsable or non-object input also
 * becomes `{}` (the tool's schema check then reports the missing arguments to the model).
 */
export function parseToolInput(json: string): Record<string, unknown> {
  if (json.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toBlock(open: OpenBlock): AssistantBlock | undefined {
  switch (open.kind) {
    case "text":
      return { type: "text", text: open.text };
    case "thinking":
      return { type: "thinking", thinking: open.thinking, ...(open.signature ? { signature: open.signature } : {}) };
    case "redacted":
      return { type: "thinking", thinking: "", redacted: open.data };
    case "tool":
      return { type: "toolCall", id: open.id, name: open.name, arguments: parseToolInput(open.json) };
    case "ignored":
      return undefined;
  }
}

/**
 * Consumes raw stream events one by one (`accept`), calling `emit` for each Ink event.
 * Content events are emitted as they arrive; one `usage` event carrying the call's total usage is
 * emitted when the API reports final counts (`message_delta`). `finish()` returns the message.
 */
export class TurnAssembler {
  private readonly open = new Map<number, OpenBlock>();
  private readonly done: Array<{ index: number; block: AssistantBlock }> = [];
  private readonly usage: Usage = emptyUsage();
  private stopReason: StopReason = "end_turn";
  private model: string | undefined;
  private usageEmitted = false;
  /** True once `message_stop` arrived. */
  stopped = false;

  constructor(private readonly emit: (event: ProviderEvent) => void) {}

  /** Applies one raw stream event. */
  accept(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start": {
        this.model = event.message.model;
        const u = event.message.usage;
        this.usage.input = u.input_tokens ?? 0;
        this.usage.output = u.output_tokens ?? 0;
        this.usage.cacheRead = u.cache_read_input_tokens ?? 0;
        this.usage.cacheWrite = u.cache_creation_input_tokens ?? 0;
        break;
      }
      case "content_block_start":
        this.startBlock(event.index, event.content_block);
        break;
      case "content_block_delta":
        this.applyDelta(event.index, event.delta);
        break;
      case "content_block_stop":
        this.closeBlock(event.index);
        break;
      case "message_delta": {
        if (event.delta.stop_reason) this.stopReason = mapStopReason(event.delta.stop_reason);
        const u = event.usage;
        if (u.input_tokens != null) this.usage.input = u.input_tokens;
        if (u.output_tokens != null) this.usage.output = u.output_tokens;
        if (u.cache_read_input_tokens != null) this.usage.cacheRead = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens != null) this.usage.cacheWrite = u.cache_creation_input_tokens;
        this.emitUsage();
        break;
      }
      case "message_stop":
        this.stopped = true;
        break;
    }
  }

  private startBlock(index: number, block: Extract<RawMessageStreamEvent, { type: "content_block_start" }>["content_block"]): void {
    switch (block.type) {
      case "text":
        this.open.set(index, { kind: "text", text: block.text ?? "" });
        if (block.text) this.emit({ type: "text_delta", text: block.text });
        break;
      case "thinking":
        this.open.set(index, { kind: "thinking", thinking: block.thinking ?? "", signature: block.signature ?? "" });
        if (block.thinking) this.emit({ type: "thinking_delta", text: block.thinking });
        break;
      case "redacted_thinking":
        this.open.set(index, { kind: "redacted", data: block.data });
        break;
      case "tool_use":
        this.open.set(index, { kind: "tool", id: block.id, name: block.name, json: "" });
        this.emit({ type: "toolcall_start", id: block.id, name: block.name });
        break;
      default:
        // Server-side tool blocks and other kinds Ink does not request.
        this.open.set(index, { kind: "ignored" });
    }
  }

  private applyDelta(index: number, delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"]): void {
    const block = this.open.get(index);
    if (!block) return;
    if (delta.type === "text_delta" && block.kind === "text") {
      block.text += delta.text;
      this.emit({ type: "text_delta", text: delta.text });
    } else if (delta.type === "thinking_delta" && block.kind === "thinking") {
      block.thinking += delta.thinking;
      this.emit({ type: "thinking_delta", text: delta.thinking });
    } else if (delta.type === "signature_delta" && block.kind === "thinking") {
      block.signature += delta.signature;
    } else if (delta.type === "input_json_delta" && block.kind === "tool") {
      block.json += delta.partial_json;
      this.emit({ type: "toolcall_delta", id: block.id, partialJson: delta.partial_json });
    }
  }

  private closeBlock(index: number): void {
    const open = this.open.get(index);
    if (!open) return;
    this.open.delete(index);
    const block = toBlock(open);
    if (!block) return;
    this.done.push({ index, block });
    if (block.type === "toolCall") this.emit({ type: "toolcall_end", call: block });
  }

  private emitUsage(): void {
    this.usageEmitted = true;
    this.emit({ type: "usage", usage: { ...this.usage } });
  }

  /** Closes any block left open and returns the complete assistant message. */
  finish(): AssistantMessage {
    for (const index of [...this.open.keys()]) this.closeBlock(index);
    if (!this.usageEmitted) this.emitUsage();
    const content = [...this.done].sort((a, b) => a.index - b.index).map((d) => d.block);
    return { role: "assistant", content, stopReason: this.stopReason, usage: { ...this.usage }, ...(this.model ? { model: this.model } : {}) };
  }
}
