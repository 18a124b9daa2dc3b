/**
 * The `anthropic` provider: the real Messages API through `@anthropic-ai/sdk`, streaming, with
 * tool use, extended thinking, prompt caching, error classification and Ink's own retry policy
 * (the SDK's retries are off so retries are visible as `retry` events and honour the abort signal).
 */
import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { EventStream } from "../protocol/event-stream.js";
import type { AssistantMessage } from "../protocol/messages.js";
import { buildRequestBody } from "./anthropic-convert.js";
import { anthropicKeySet } from "./anthropic-key.js";
import { TurnAssembler } from "./anthropic-turn.js";
import { classifyAnthropicError, type ErrorContext } from "./classify-error.js";
import { ProviderError } from "../protocol/provider-error.js";
import { abortableSleep, backoffDelay, DEFAULT_RETRY_POLICY, giveUpError, isRetryable, type RetryPolicy, type SleepFn } from "./retry.js";
import type { ModelRequest, Provider, ProviderEvent, ProviderStream } from "../protocol/provider.js";

export interface AnthropicProviderOptions {
  /** API key; defaults to ANTHROPIC_API_KEY. */
  apiKey?: string;
  /** API base URL; defaults to ANTHROPIC_BASE_URL, then https://api.anthropic.com. */
  baseURL?: string;
  /** Retries after the first attempt for transient failures (default 8). */
  maxRetries?: number;
  /** First backoff delay (default 1000 ms). */
  baseDelayMs?: number;
  /** Cap on one backoff delay (default 30 000 ms). */
  maxDelayMs?: number;
  /** Stop retrying when the next wait would end later than this after the first attempt (default 5 min). */
  maxRetryWindowMs?: number;
  /** Model used when a request names none; defaults to INK_MODEL, then "claude-sonnet-4-5". */
  defaultModel?: string;
  /** Sleep used between retries (injectable for tests); must reject when the signal aborts. */
  sleep?: SleepFn;
  /** Jitter source in [0, 1) (injectable for tests). */
  random?: () => number;
}

const DEFAULT_BASE_URL = "https://api.anthropic.com";
const DEFAULT_CONTEXT_WINDOW = 200_000;

/** True when ANTHROPIC_API_KEY is set (non-empty). */
export function anthropicAvailable(): boolean {
  return anthropicKeySet();
}

function missingKeyMessage(ctx: ErrorContext): string {
  const where = ctx.customBaseURL ? ` (requests would go to ANTHROPIC_BASE_URL=${ctx.baseURL})` : "";
  return `ANTHROPIC_API_KEY is not set${where}. Set ANTHROPIC_API_KEY to a valid Anthropic API key to use the anthropic provider.`;
}

/**
 * Creates the anthropic provider. `stream(request)` starts one streaming Messages API call and
 * returns its events; the stream ends with the full AssistantMessage or fails with a
 * ProviderError (see classifyAnthropicError). Overload, rate-limit, connection and 5xx failures
 * are retried with backoff — only while nothing of the attempt has reached the consumer — each
 * wait announced by a `retry` event. Aborting `request.signal` fails the stream at once with
 * kind "aborted" and closes the HTTP request.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): Provider {
  const apiKey = (options.apiKey ?? process.env.ANTHROPIC_API_KEY ?? "").trim();
  const customBase = (options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? "").trim();
  const ctx: ErrorContext = { baseURL: customBase || DEFAULT_BASE_URL, customBaseURL: customBase !== "" };
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    maxRetryWindowMs: options.maxRetryWindowMs ?? DEFAULT_RETRY_POLICY.maxRetryWindowMs,
    random: options.random,
  };
  const sleep = options.sleep ?? abortableSleep;
  const defaultModel = options.defaultModel ?? (process.env.INK_MODEL?.trim() || "claude-sonnet-4-5");
  const client =
    apiKey === ""
      ? undefined
      : new Anthropic({
          apiKey,
          baseURL: ctx.baseURL,
          maxRetries: 0,
          // The SDK logs to the console, which would corrupt the TUI; ANTHROPIC_LOG still opts in.
          logLevel: process.env.ANTHROPIC_LOG ? undefined : "off",
        });

  /** One HTTP attempt: streams events through `emit` and returns the assembled message. */
  async function attempt(body: MessageCreateParamsStreaming, out: ProviderStream, emit: (e: ProviderEvent) => void, signal?: AbortSignal): Promise<AssistantMessage> {
    const sse = await client!.messages.create(body, { signal });
    const turn = new TurnAssembler(emit);
    for await (const event of sse) {
      if (out.ended) break; // aborted: leaving the loop closes the response
      turn.accept(event);
    }
    if (signal?.aborted) throw new ProviderError("aborted", "Request aborted");
    if (!turn.stopped) {
      throw new ProviderError("network", `The Anthropic API stream from ${ctx.baseURL} ended before the message was complete (connection lost?)`);
    }
    return turn.finish();
  }

  async function run(request: ModelRequest, out: ProviderStream): Promise<void> {
    const { signal } = request;
    const onAbort = (): void => out.fail(new ProviderError("aborted", "Request aborted"));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (!client) throw new ProviderError("auth", missingKeyMessage(ctx));
      const body = buildRequestBody(request, request.model || defaultModel);
      const started = Date.now();
      for (let attemptNo = 1; ; attemptNo++) {
        let streamed = false;
        const emit = (e: ProviderEvent): void => {
          streamed = true;
          out.push(e);
        };
        try {
          out.end(await attempt(body, out, emit, signal));
          return;
        } catch (raw) {
          const err = classifyAnthropicError(raw, ctx, signal);
          if (err.kind === "aborted" || streamed || !isRetryable(err)) throw err;
          const elapsed = Date.now() - started;
          if (attemptNo > policy.maxRetries) throw giveUpError(err, attemptNo, elapsed);
          const delayMs = backoffDelay(attemptNo, policy, err.retryAfterMs);
          if (elapsed + delayMs > policy.maxRetryWindowMs) throw giveUpError(err, attemptNo, elapsed);
          out.push({ type: "retry", attempt: attemptNo, delayMs, reason: err.message });
          await sleep(delayMs, signal);
          if (signal?.aborted) throw new ProviderError("aborted", "Request aborted");
        }
      }
    } catch (e) {
      out.fail(classifyAnthropicError(e, ctx, signal));
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  return {
    name: "anthropic",
    defaultModel,
    // Anthropic's own API serves claude-* models; a compatible server (ANTHROPIC_BASE_URL) names its own.
    ownsModel: (model: string) => ctx.customBaseURL || model.startsWith("claude"),
    contextWindow: () => DEFAULT_CONTEXT_WINDOW,
    stream(request: ModelRequest): ProviderStream {
      const out: ProviderStream = new EventStream();
      void run(request, out);
      return out;
    },
  };
}
