/**
 * Leases: a running session renews its lock on a timer (a heartbeat written into the lock file)
 * and learns when the lock was removed or taken over, so it can stop writing and stop its run.
 */
import type { SessionLock } from "./lock.js";

/** Default time between two renewals (ms). */
export const LEASE_INTERVAL_MS = 10_000;

export interface Lease {
  /** Renews once now; false (and `onLost` called, once) when the lock is no longer ours. */
  check(): boolean;
  /** Stops the timer (call before releasing the lock). */
  stop(): void;
}

/**
 * Starts renewing `lock` every `intervalMs` (default 10 s; the timer never keeps the process
 * alive). `onLost(reason)` is called once when a renewal finds the lock gone or someone else's.
 */
export function startLease(lock: SessionLock, onLost: (reason: string) => void, intervalMs = LEASE_INTERVAL_MS): Lease {
  let lost = false;
  const check = (): boolean => {
    if (lost) return false;
    const renewed = lock.renew();
    if (renewed.ok) return true;
    lost = true;
    clearInterval(timer);
    onLost(renewed.reason);
    return false;
  };
  const timer = setInterval(check, intervalMs);
  timer.unref?.();
  return { check, stop: () => clearInterval(timer) };
}
