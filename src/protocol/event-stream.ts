/**
 * EventStream: the one streaming primitive of Ink. A producer `push`es events and finally
 * `end`s with a result (or `fail`s with an error); any number of consumers iterate the events
 * with `for await` and/or await `result()`. Events pushed before a consumer starts iterating are
 * buffered for it, so no consumer misses the beginning of a stream.
 */
export class EventStream<E, R> implements AsyncIterable<E> {
  private readonly events: E[] = [];
  private readonly waiters: Array<() => void> = [];
  private done = false;
  private readonly resultPromise: Promise<R>;
  private resolveResult!: (value: R) => void;
  private rejectResult!: (error: unknown) => void;

  constructor() {
    this.resultPromise = new Promise<R>((resolve, reject) => {
      this.resolveResult = resolve;
      this.rejectResult = reject;
    });
    // A failed stream whose result nobody awaits must not crash the process.
    this.resultPromise.catch(() => undefined);
  }

  /** Adds one event. Ignored once the stream has ended. */
  push(event: E): void {
    if (this.done) return;
    this.events.push(event);
    this.wake();
  }

  /** Ends the stream with its result. Later calls are ignored. */
  end(result: R): void {
    if (this.done) return;
    this.done = true;
    this.resolveResult(result);
    this.wake();
  }

  /** Ends the stream with an error: iteration stops, `result()` rejects. */
  fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.rejectResult(error);
    this.wake();
  }

  /** True once `end` or `fail` was called. */
  get ended(): boolean {
    return this.done;
  }

  /** The final result; rejects when the stream failed. */
  result(): Promise<R> {
    return this.resultPromise;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<E> {
    let index = 0;
    for (;;) {
      if (index < this.events.length) {
        yield this.events[index++]!;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}
