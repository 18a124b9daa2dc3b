/** A counting semaphore: at most `limit` holders at once; waiters start in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
  }

  /** Holders right now. */
  get running(): number {
    return this.active;
  }

  /** Waiting callers right now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.active--;
        this.queue.shift()?.();
      };
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.active++;
        resolve(release);
      };
      const onAbort = () => {
        const i = this.queue.indexOf(grant);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new Error("aborted while waiting for a subagent slot"));
      };
      if (signal?.aborted) return reject(new Error("aborted while waiting for a subagent slot"));
      if (this.active < this.limit) return grant();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(grant);
    });
  }
}
