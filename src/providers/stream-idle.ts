/**
 * The model stream's idle timeout: a response that sends nothing but keep-alive pings (or nothing
 * at all) for `idleMs` is cut and fails as a transient `network` error — retried like a dropped
 * connection while nothing of it has been shown. `INK_STREAM_IDLE_MS` sets the limit.
 */
import { ProviderError } from "../protocol/provider-error.js";

/** Default: three minutes without a content event (pings do not count). */
export const DEFAULT_STREAM_IDLE_MS = 180_000;

/** A stream cut for sending no content for too long. */
export class StreamIdleError extends ProviderError {
  override name = "StreamIdleError";
  constructor(baseURL: string, idleMs: number) {
    super("network", `The Anthropic API stream from ${baseURL} sent no content for ${formatSeconds(idleMs)} (only keep-alive pings, or nothing); cut as stalled (INK_STREAM_IDLE_MS sets this limit)`);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The limit from `INK_STREAM_IDLE_MS` (milliseconds ≥ 100), else the default. Throws naming the value when it is not one. */
export function streamIdleMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.INK_STREAM_IDLE_MS?.trim();
  if (!raw) return DEFAULT_STREAM_IDLE_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100) {
    throw new Error(`INK_STREAM_IDLE_MS=${JSON.stringify(env.INK_STREAM_IDLE_MS)} is not a whole number of milliseconds ≥ 100; unset it (default ${DEFAULT_STREAM_IDLE_MS}) or give e.g. INK_STREAM_IDLE_MS=300000`);
  }
  return n;
}

/**
 * Watches one attempt: `touch()` on every content event; after `idleMs` without one, `onIdle`
 * runs once (the caller aborts the request). `stop()` when the attempt ends.
 */
export class IdleWatch {
  private timer: NodeJS.Timeout | undefined;
  fired = false;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    this.touch();
  }

  /** Content arrived: the idle clock starts again. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onIdle();
    }, this.idleMs);
  }

  /** The attempt ended. */
  stop(): void {
    clearTimeout(this.timer);
  }
}
