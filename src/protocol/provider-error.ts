/**
 * ProviderError: every failure of a model call, classified so callers can react — retry
 * (overloaded, rate_limited), compact and retry (context_overflow), tell the user to fix their key
 * (auth), stop quietly (aborted), or report the API's own message (api, network).
 */
export type ProviderErrorKind = "overloaded" | "rate_limited" | "context_overflow" | "auth" | "aborted" | "network" | "api";

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  /** Server-requested wait before a retry, in ms (from `retry-after`). */
  readonly retryAfterMs?: number;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** True when `err` says the conversation no longer fits the model's context window. */
export function isContextOverflowError(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === "context_overflow";
}

/** True when `err` is (or wraps) an abort. */
export function isAbortError(err: unknown): boolean {
  if (err instanceof ProviderError) return err.kind === "aborted";
  return err instanceof Error && (err.name === "AbortError" || err.name === "APIUserAbortError");
}

/** Transient failures, worth trying again later: overload, rate limit, connection failure, and 5xx server errors. */
export function isTransientProviderError(err: ProviderError): boolean {
  if (err.kind === "overloaded" || err.kind === "rate_limited" || err.kind === "network") return true;
  return err.kind === "api" && err.status !== undefined && [500, 502, 503, 504].includes(err.status);
}

/** The first error code (`ECONNRESET`, `UND_ERR_SOCKET`…) in `err`'s cause chain, if any. */
export function errorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 5; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}
