/**
 * Classification of Anthropic SDK / HTTP failures into Ink `ProviderError`s, so callers can tell
 * an overload from a rate limit, a too-long prompt, a bad key, an abort or a dead server.
 */
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { errorCode, ProviderError } from "../protocol/provider-error.js";
import { errorMessage } from "../protocol/error-message.js";

/** Where the provider was talking to, for messages. */
export interface ErrorContext {
  baseURL: string;
  /** True when the base URL came from ANTHROPIC_BASE_URL / options rather than the default. */
  customBaseURL: boolean;
}

const CONTEXT_OVERFLOW =
  /prompt is too long|exceeds? (the )?(model'?s? )?context (window|limit|length)|exceed context limit|context[_ ]length[_ ]exceeded|too many (input )?tokens|maximum context length|input is too long/i;

/** True when an API message says the prompt does not fit the context window. */
export function isContextOverflowMessage(message: string): boolean {
  return CONTEXT_OVERFLOW.test(message);
}

/** Milliseconds from `retry-after-ms` / `retry-after` (seconds or an HTTP date) headers, if any. */
export function retryAfterFrom(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return undefined;
  const seconds = Number(ra);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function authMessage(status: number, apiMessage: string, ctx: ErrorContext): string {
  const where = ctx.customBaseURL ? ` (requests go to ANTHROPIC_BASE_URL=${ctx.baseURL}; check that it is right too)` : "";
  return `Anthropic API rejected the credentials (${status}: ${apiMessage}). Set a valid ANTHROPIC_API_KEY${where}.`;
}

/** The messages (and error codes) of `err` and its causes, joined: `terminated: other side closed (UND_ERR_SOCKET)`. */
export function describeCause(err: unknown): string {
  let cur: unknown = err;
  const parts: string[] = [];
  for (let depth = 0; cur instanceof Error && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${cur.message} (${code})` : cur.message);
    cur = (cur as { cause?: unknown }).cause;
  }
  return [...new Set(parts.filter((p) => p !== ""))].join(": ");
}

/** The first error code (`ECONNREFUSED`, `UND_ERR_SOCKET`…) in `err`'s cause chain, if any. */
export function causeCode(err: unknown): string | undefined {
  return errorCode(err);
}

/** True for low-level socket/fetch failures (refused, reset, terminated mid-body). */
function isConnectionFailure(err: unknown): boolean {
  let cur: unknown = err;
  for (let depth = 0; cur instanceof Error && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && /^(E(CONN|PIPE|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND)|UND_ERR)/.test(code)) return true;
    if (cur instanceof TypeError && /fetch failed|terminated|network|socket/i.test(cur.message)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Turns any error thrown while calling or streaming from the Messages API into a ProviderError:
 * aborts → "aborted"; 529 / overloaded_error → "overloaded"; 429 / rate_limit_error →
 * "rate_limited" (with retryAfterMs); a 400 or SSE error saying the prompt is too long →
 * "context_overflow"; 401/403 → "auth" naming ANTHROPIC_API_KEY; connection failures → "network"
 * naming the base URL; anything else → "api" with the API's message and status.
 */
export function classifyAnthropicError(err: unknown, ctx: ErrorContext, signal?: AbortSignal): ProviderError {
  if (err instanceof ProviderError) return err;
  if (signal?.aborted || err instanceof APIUserAbortError || (err instanceof Error && err.name === "AbortError")) {
    return new ProviderError("aborted", "Request aborted", { cause: err });
  }
  if (err instanceof APIConnectionError) {
    return new ProviderError("network", `Could not reach the Anthropic API at ${ctx.baseURL}: ${describeCause(err)}`, { cause: err });
  }
  if (err instanceof APIError) {
    const status = typeof err.status === "number" ? err.status : undefined;
    const type = err.type ?? "";
    const apiMessage = err.apiMessage ?? err.message;
    const label = status !== undefined ? `${status} ${type || "error"}` : type || "stream error";
    if (status === 401 || status === 403 || type === "authentication_error" || type === "permission_error") {
      return new ProviderError("auth", authMessage(status ?? 401, apiMessage, ctx), { status, cause: err });
    }
    if (status === 529 || type === "overloaded_error") {
      return new ProviderError("overloaded", `Anthropic API overloaded (${label}): ${apiMessage}`, { status, cause: err });
    }
    if (status === 429 || type === "rate_limit_error") {
      return new ProviderError("rate_limited", `Anthropic API rate limit hit (${label}): ${apiMessage}`, {
        status,
        cause: err,
        retryAfterMs: retryAfterFrom(err.headers),
      });
    }
    if ((status === undefined || status === 400 || status === 413) && isContextOverflowMessage(apiMessage)) {
      return new ProviderError("context_overflow", `Context window exceeded: ${apiMessage}`, { status, cause: err });
    }
    return new ProviderError("api", `Anthropic API error (${label}): ${apiMessage}`, { status, cause: err });
  }
  if (isConnectionFailure(err)) {
    return new ProviderError("network", `Could not reach the Anthropic API at ${ctx.baseURL}: ${describeCause(err)}`, { cause: err });
  }
  const message = errorMessage(err);
  return new ProviderError("api", `Anthropic request failed: ${message}`, { cause: err });
}
