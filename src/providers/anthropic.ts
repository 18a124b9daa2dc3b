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
import { classifyAnthropicError, describeCause, type ErrorContext } from "./classify-error.js";
import { ProviderError } from "../protocol/provider-error.js";
import { abortableSleep, backoffDelay, DEFAULT_RETRY_POLICY, giveUpError, isRetryable, retryLabel, type RetryPolicy, type SleepFn } from "./retry.js";
import { IdleWatch, StreamIdleError, streamIdleMsFromEnv } from "./stream-idle.js";
import type { ModelRequest, Provider, ProviderEvent, ProviderStream } from "../protocol/provider.js";
import { MODEL_CACHE_MAX_AGE_MS, resolveModelAlias, type ModelCatalog, type ServedModel } from "../protocol/model-catalog.js";
import { readModelCache, writeModelCache } from "./model-cache.js";

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
  /** Cut a response that sends no content (pings do not count) for this long (default INK_STREAM_IDLE_MS, else 180 000 ms). */
  idleTimeoutMs?: number;
  /** Ink's home: the model list is cached in its `cache/models.json`; undefined = no cache (fetched when asked). */
  inkHome?: string;
  /** A cached model list older than this is fetched again (default 24 h). */
  modelCacheMaxAgeMs?: number;
  /** The effort a model that takes one gets when a request sets no thinking (Claude Code's `effortLevel`). */
  defaultEffort?: string;
}

const DEFAULT_BASE_URL = "https://api.anthropic.com";
const DEFAULT_CONTEXT_WINDOW = 200_000;

/** What Ink uses of one entry of the API's model list. */
function servedModel(info: Anthropic.Models.ModelInfo): ServedModel {
  const caps = info.capabilities;
  const effort = caps?.effort?.supported ? (["low", "medium", "high", "xhigh", "max"] as const).filter((e) => caps.effort[e]?.supported) : [];
  return {
    id: info.id,
    ...(info.line ? { line: info.line } : {}),
    ...(info.created_at ? { createdAt: info.created_at } : {}),
    ...(effort.length > 0 ? { effort } : {}),
    ...(caps?.thinking ? { adaptive: caps.thinking.types?.adaptive?.supported === true, budget: caps.thinking.types?.enabled?.supported === true } : {}),
  };
}

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
  const idleMs = options.idleTimeoutMs ?? streamIdleMsFromEnv();
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

  const maxAge = options.modelCacheMaxAgeMs ?? MODEL_CACHE_MAX_AGE_MS;
  let catalog: ModelCatalog | undefined = options.inkHome ? readModelCache(ctx.baseURL, options.inkHome) : undefined;
  let fetching: Promise<ModelCatalog | undefined> | undefined;
  /** Aborts the fetch in flight (stopBackground). */
  let stopFetch: AbortController | undefined;

  /** The provider's list (`GET /v1/models`, every page), retired models left out; cached. Never rejects. */
  async function fetchModels(): Promise<ModelCatalog | undefined> {
    const stop = (stopFetch = new AbortController());
    try {
      const models: ServedModel[] = [];
      for await (const info of client!.models.list({ limit: 100 }, { timeout: 15_000, signal: stop.signal })) {
        if (info.lifecycle === "retired") continue;
        models.push(servedModel(info));
        if (models.length >= 2000) break;
      }
      catalog = { source: ctx.baseURL, fetchedAt: Date.now(), models };
      if (options.inkHome) writeModelCache(catalog, options.inkHome);
    } catch {
      // no list (offline, an older compatible server, stopped): the cache or the offline table serves
    } finally {
      if (stopFetch === stop) stopFetch = undefined;
    }
    return catalog;
  }

  /** The last model name asked for and the id it stands for (an alias resolved once, when the name changes). */
  let resolved: { name: string; id: string } | undefined;
  /** The id `name` stands for: an alias is resolved against the list when the name changes, so a list refreshed mid-session never moves a run to another model. */
  function modelId(name: string): string {
    if (resolved?.name !== name) resolved = { name, id: resolveModelAlias(name, catalog?.models) };
    return resolved.id;
  }

  function refreshModels(force = false): Promise<ModelCatalog | undefined> {
    if (!client) return Promise.resolve(catalog);
    if (!force && catalog && Date.now() - catalog.fetchedAt < maxAge) return Promise.resolve(catalog);
    fetching ??= fetchModels().finally(() => (fetching = undefined));
    return fetching;
  }

  /**
   * One HTTP attempt: streams events through `emit` and returns the assembled message;
   * `progress.responded` turns true once the server answered (a later failure is a dropped stream).
   */
  async function attempt(body: MessageCreateParamsStreaming, out: ProviderStream, emit: (e: ProviderEvent) => void, progress: { responded: boolean }, signal?: AbortSignal): Promise<AssistantMessage> {
    // The SDK swallows `ping` events, so only content resets the idle clock.
    // One signal for the request: the caller's abort or the idle cut (AbortSignal.any needs Node 20.3).
    const cut = new AbortController();
    const relay = (): void => cut.abort();
    if (signal?.aborted) cut.abort();
    signal?.addEventListener("abort", relay, { once: true });
    const watch = new IdleWatch(idleMs, relay);
    try {
      const sse = await client!.messages.create(body, { signal: cut.signal });
      progress.responded = true;
      watch.touch();
      const turn = new TurnAssembler(emit);
      for await (const event of sse) {
        if (out.ended) break; // aborted: leaving the loop closes the response
        watch.touch();
        turn.accept(event);
      }
      if (signal?.aborted) throw new ProviderError("aborted", "Request aborted");
      if (watch.fired) throw new StreamIdleError(ctx.baseURL, idleMs);
      return finishTurn(turn);
    } catch (err) {
      if (watch.fired && !signal?.aborted) throw new StreamIdleError(ctx.baseURL, idleMs);
      throw err;
    } finally {
      watch.stop();
      signal?.removeEventListener("abort", relay);
    }
  }

  function finishTurn(turn: TurnAssembler): AssistantMessage {
    if (!turn.stopped) {
      throw new ProviderError("network", `The Anthropic API stream from ${ctx.baseURL} ended before the message was complete (connection lost?)`);
    }
    return turn.finish();
  }

  /**
   * A connection failure after the server had answered: the stream was cut mid-response. Said as
   * such (not "could not reach"), and, when part of the answer had already streamed out, why it
   * is not retried.
   */
  function droppedError(err: ProviderError, raw: unknown, streamed: boolean): ProviderError {
    const cause = raw instanceof ProviderError ? "it ended before the message was complete" : describeCause(raw);
    const head = `The connection to the Anthropic API at ${ctx.baseURL} dropped mid-response (${cause})`;
    const message = streamed ? `${head} after part of the answer had streamed; not retried, since that part was already shown and would repeat` : head;
    return new ProviderError("network", message, { cause: err.cause ?? raw });
  }

  async function run(request: ModelRequest, out: ProviderStream): Promise<void> {
    const { signal } = request;
    const onAbort = (): void => out.fail(new ProviderError("aborted", "Request aborted"));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (!client) throw new ProviderError("auth", missingKeyMessage(ctx));
      const body = buildRequestBody(request, modelId(request.model || defaultModel), catalog?.models, options.defaultEffort);
      const started = Date.now();
      const maxAttempts = policy.maxRetries + 1;
      for (let attemptNo = 1; ; attemptNo++) {
        let streamed = false;
        const progress = { responded: false };
        const emit = (e: ProviderEvent): void => {
          streamed = true;
          out.push(e);
        };
        try {
          out.end(await attempt(body, out, emit, progress, signal));
          return;
        } catch (raw) {
          const classified = classifyAnthropicError(raw, ctx, signal);
          const stalled = raw instanceof StreamIdleError;
          const dropped = classified.kind === "network" && progress.responded && !stalled;
          const err = dropped ? droppedError(classified, raw, streamed) : classified;
          if (err.kind === "aborted" || streamed || !isRetryable(err)) throw err;
          const elapsed = Date.now() - started;
          if (attemptNo > policy.maxRetries) throw giveUpError(err, attemptNo, elapsed);
          const delayMs = backoffDelay(attemptNo, policy, err.retryAfterMs);
          if (elapsed + delayMs > policy.maxRetryWindowMs) throw giveUpError(err, attemptNo, elapsed);
          out.push({ type: "retry", attempt: attemptNo, maxAttempts, delayMs, reason: err.message, label: stalled ? "stream stalled" : retryLabel(err, dropped) });
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
    describeModels: () => (ctx.customBaseURL ? `the models of ${ctx.baseURL}` : "claude-* models, e.g. claude-opus-4-5, claude-sonnet-4-5, claude-haiku-4-5"),
    contextWindow: () => DEFAULT_CONTEXT_WINDOW,
    modelCatalog: () => catalog,
    refreshModels,
    stopBackground: () => stopFetch?.abort(),
    stream(request: ModelRequest): ProviderStream {
      const out: ProviderStream = new EventStream();
      void run(request, out);
      return out;
    },
  };
}
