/**
 * Pausing a child on a transient failure (issue #25 item 1): when a model call fails for good
 * (the provider's own retries ran out) with a cause that passes — rate limit, overload, usage
 * limit, 5xx, a lost connection — the child waits and tries again instead of crashing. This module
 * says which failures pause, for how long (bounded backoff honouring retry-after) and sleeps in a
 * way the person can cut short (a key on the child's pane) or the run can abort.
 */
import { errorCode, isTransientProviderError, ProviderError } from "../../protocol/provider-error.js";

/** How long a child may stay paused in all before it ends as a crash (default 30 min). */
export const DEFAULT_PAUSE_LIMIT_MS = 30 * 60_000;
const FIRST_PAUSE_MS = 15_000;
const MAX_PAUSE_MS = 5 * 60_000;

export interface PauseOptions {
  /** Give up (crash with the failure's reason) once paused this long in all; default DEFAULT_PAUSE_LIMIT_MS. 0 = never pause. */
  limitMs?: number;
  /** Receives the function that ends the current pause at once (undefined when not paused). */
  onWake?: (wake: (() => void) | undefined) => void;
}

const USAGE_LIMIT = /usage limits?\b/i;

/**
 * The transient cause of `err` in a few words (`rate limited`, `overloaded`, `usage limit`,
 * `server error 503`, `connection reset`), or undefined when `err` should not pause the child.
 */
export function pauseCause(err: unknown): string | undefined {
  if (!(err instanceof ProviderError)) return undefined;
  // A stream cut for sending only pings was already retried by the provider within its window
  // (each try costs the whole idle limit): pausing would retry it again and again for the pause
  // limit (issue #36 item 11), so a stall ends the child, its error naming INK_STREAM_IDLE_MS.
  if (stalled(err)) return undefined;
  if (err.kind !== "auth" && err.kind !== "context_overflow" && err.kind !== "aborted" && USAGE_LIMIT.test(err.message)) return "usage limit";
  if (!isTransientProviderError(err)) return undefined;
  switch (err.kind) {
    case "rate_limited":
      return "rate limited";
    case "overloaded":
      return "overloaded";
    case "network":
      return connectionCause(err);
    default:
      return `server error ${err.status}`;
  }
}

/** True when `err` (or an error it wraps, e.g. the provider's give-up error) is a stream idle cut. */
function stalled(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e.name === "StreamIdleError") return true;
  return false;
}

function connectionCause(err: ProviderError): string {
  if (/dropped|ended before the message was complete/i.test(err.message)) return "connection dropped";
  const code = errorCode(err.cause) ?? "";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") return "connection reset";
  if (/TIMEDOUT|TIMEOUT/.test(code)) return "connection timed out";
  return "connection lost";
}

/** The wait before try number `n` (1-based): the server's retry-after when given (at most the cap), else 15 s doubling up to 5 min. */
export function pauseDelay(n: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(MAX_PAUSE_MS, Math.max(1000, Math.round(retryAfterMs)));
  return Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.max(0, n - 1));
}

/**
 * Waits `ms`, or less when `wake` is called (see PauseOptions.onWake); resolves false when
 * `signal` aborted meanwhile (never rejects).
 */
export function pauseSleep(ms: number, signal: AbortSignal, onWake?: PauseOptions["onWake"]): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      onWake?.(undefined);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    if (signal.aborted) return done(false);
    signal.addEventListener("abort", onAbort, { once: true });
    onWake?.(() => done(true));
  });
}
