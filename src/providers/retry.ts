/**
 * Retry policy for model calls: which ProviderErrors are worth retrying, how long to wait
 * (exponential backoff with jitter, honouring the server's retry-after), when to give up, and an
 * abortable sleep.
 */
import { isTransientProviderError, ProviderError } from "../protocol/provider-error.js";
import { causeCode } from "./classify-error.js";

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 requests). */
  maxRetries: number;
  /** Delay before the first retry, before jitter. */
  baseDelayMs: number;
  /** Cap on one computed backoff delay. */
  maxDelayMs: number;
  /** Give up when the next wait would end later than this after the first attempt started. */
  maxRetryWindowMs: number;
  /** Source of jitter in [0, 1); Math.random by default. */
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 8,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryWindowMs: 5 * 60_000,
};

/** Sleeps `ms`; rejects with ProviderError("aborted") as soon as `signal` aborts. */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default SleepFn: a timer that the abort signal cancels. */
export const abortableSleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    const aborted = (): ProviderError => new ProviderError("aborted", "Request aborted");
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Transient failures: overload, rate limit, connection failure, and 5xx server errors. */
export function isRetryable(err: ProviderError): boolean {
  return isTransientProviderError(err);
}

/**
 * The wait before retry number `retry` (1-based): the server's retry-after when given, otherwise
 * min(maxDelay, base * 2^(retry-1)) with "equal jitter" (between half and all of it).
 */
export function backoffDelay(retry: number, policy: RetryPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.max(0, Math.round(retryAfterMs));
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const random = policy.random ?? Math.random;
  return Math.round(exp / 2 + (random() * exp) / 2);
}

const GIVE_UP_LABEL: Record<string, string> = {
  overloaded: "Anthropic API overloaded",
  rate_limited: "Anthropic API rate limited",
  network: "Anthropic API unreachable",
  api: "Anthropic API error",
};

/** The final error after retries ran out: same kind/status, message saying how long we tried. */
export function giveUpError(last: ProviderError, attempts: number, elapsedMs: number): ProviderError {
  const label = GIVE_UP_LABEL[last.kind] ?? "Anthropic API error";
  const seconds = (elapsedMs / 1000).toFixed(elapsedMs < 10_000 ? 1 : 0);
  return new ProviderError(last.kind, `${label}; gave up after ${attempts} attempts over ${seconds}s. Last error: ${last.message}`, {
    status: last.status,
    retryAfterMs: last.retryAfterMs,
    cause: last,
  });
}

/** A connection failure named by its cause's code: refused, host not found, timed out, reset. */
function connectionLabel(err: ProviderError): string {
  const code = causeCode(err.cause) ?? "";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (/TIMEDOUT|TIMEOUT/.test(code)) return "connection timed out";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") return "connection reset";
  return "connection failed";
}

/**
 * A transient failure in a few words, for a one-line status: `429 rate limited`, `529 overloaded`,
 * `503 server error`, `connection refused`; `dropped` (the response had begun) gives `connection dropped`.
 */
export function retryLabel(err: ProviderError, dropped = false): string {
  switch (err.kind) {
    case "rate_limited":
      return `${err.status ?? 429} rate limited`;
    case "overloaded":
      return err.status !== undefined ? `${err.status} overloaded` : "overloaded";
    case "network":
      return dropped ? "connection dropped" : connectionLabel(err);
    default:
      return err.status !== undefined ? `${err.status} server error` : "API error";
  }
}
