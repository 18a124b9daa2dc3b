/**
 * The provider contract: one streaming call per model turn. Every provider (anthropic, demo,
 * scripted) emits the same `ProviderEvent`s and resolves the same `AssistantMessage`, so the loop,
 * the UI and the tests never care which one is behind it.
 */
import type { EventStream } from "./event-stream.js";
import type { AgentMessage, AssistantMessage, ToolCall, Usage } from "./messages.js";
import type { ModelCatalog } from "./model-catalog.js";

/** What the model sees of a tool: name, description and a JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Extended thinking: off, or on with a token budget; `level` is the named level it was given as
 * (sent as the effort setting to a model that takes one, see requestThinking).
 */
export type ThinkingConfig = { type: "off" } | { type: "on"; budgetTokens: number; level?: "minimal" | "low" | "medium" | "high" | "max" };

/** One model call. */
export interface ModelRequest {
  system: string;
  messages: AgentMessage[];
  tools: ToolSpec[];
  model: string;
  maxTokens: number;
  thinking?: ThinkingConfig;
  signal?: AbortSignal;
}

/** Streamed pieces of one model call. */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | { type: "toolcall_start"; id: string; name: string }
  | { type: "toolcall_delta"; id: string; partialJson: string }
  | { type: "toolcall_end"; call: ToolCall }
  | { type: "usage"; usage: Usage }
  | RetryEvent;

/**
 * A failed attempt of a model call that will be tried again: `attempt` (1-based) of at most
 * `maxAttempts` failed with `reason` (the whole error message), summed up as `label` (short, e.g.
 * `429 rate limited`, `connection dropped`); the next attempt starts after `delayMs`. Nothing of
 * the failed attempt reached the consumer. A consumer shows one live line per agent for it and
 * drops that line at the agent's next progress (the retried call streams) or error (it gave up).
 */
export interface RetryEvent {
  type: "retry";
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  reason: string;
  label: string;
}

/** The providers Ink knows (`--provider`); a `name/…` model string names one only when `name` is among them. */
export const PROVIDER_NAMES = ["anthropic", "demo"] as const;

/** A stream of events ending in the complete assistant message (or failing with a ProviderError). */
export type ProviderStream = EventStream<ProviderEvent, AssistantMessage>;

export interface Provider {
  /** Registry name: "anthropic", "demo", "scripted". */
  readonly name: string;
  /** Model used when none is given. */
  readonly defaultModel: string;
  /** True when `model` is served by this provider (profiles may only pick models of the parent's provider). Absent = any model. */
  ownsModel?(model: string): boolean;
  /** The models it serves, in a few words, for an error that refuses another (`claude-* models, e.g. …`). */
  describeModels?(): string;
  /** Context window of a model, in tokens. */
  contextWindow(model: string): number;
  /** The provider's own model list as last had (cache or fetch), or undefined when none is known. */
  modelCatalog?(): ModelCatalog | undefined;
  /** Fetches the model list when the cached one is missing or older than its age limit (`force`: always); resolves to the list, or undefined when it cannot be had. Never rejects. */
  refreshModels?(force?: boolean): Promise<ModelCatalog | undefined>;
  /** Stops its background work (a model list still being fetched is dropped, uncached), so the process can exit at once; it can still be used. */
  stopBackground?(): void;
  /** Starts one model call. Must honour `request.signal`: on abort the stream fails with a ProviderError of kind "aborted". */
  stream(request: ModelRequest): ProviderStream;
}
