/**
 * Runs a search job (`grep`/`find` matching) in a worker thread so the main thread never blocks:
 * items are streamed to the worker as the walk finds them; results come back in item order. Each
 * item has a time budget: when one overruns (e.g. a catastrophic regex on a long line), the worker
 * is terminated, the item is reported as skipped, and a fresh worker goes on with the next item.
 * Aborting terminates the worker at once, wherever the matching is.
 */
import { Worker } from "node:worker_threads";
import type { ItemResult, SearchItem, SearchJob } from "./search-match.js";
import { workerEntryUrl } from "./worker-entry.js";

/** The worker entry module (`src/tools/search-worker.ts`, built to `search-worker.js`). */
export const SEARCH_WORKER = "search-worker";
/** Default time one item may take before it is skipped. */
export const ITEM_BUDGET_MS = 2_000;
const BATCH = 256;

export interface SearchRunOptions {
  signal: AbortSignal;
  /** Time one item may take (default `ITEM_BUDGET_MS`). */
  itemBudgetMs?: number;
  /** The search stops once this many items overran their budget (default 3). */
  maxSlowItems?: number;
  /** Receives every matched or skipped item, in item order; return false to stop the search. */
  onResult(item: SearchItem, result: ItemResult): boolean | void;
}

export interface SearchOutcome {
  aborted: boolean;
  /** `onResult` returned false, or too many items were slow. */
  stopped: boolean;
  /** Relative paths of the items skipped for overrunning the budget. */
  slow: string[];
  /** Set when the job could not run (invalid pattern, worker failed to start). */
  error?: string;
}

/** Runs `job` over `items`; resolves when every item was handled, the search stopped, or the signal aborted. Never rejects. */
export async function runSearch(job: SearchJob, items: AsyncIterable<SearchItem> | Iterable<SearchItem>, options: SearchRunOptions): Promise<SearchOutcome> {
  let url: URL;
  try {
    url = await workerEntryUrl(SEARCH_WORKER);
  } catch (err) {
    return { aborted: false, stopped: false, slow: [], error: err instanceof Error ? err.message : String(err) };
  }
  return new Promise<SearchOutcome>((resolve) => new SearchRun(url, job, options, resolve).feed(items));
}

class SearchRun {
  private readonly all: SearchItem[] = [];
  private readonly slow: string[] = [];
  private readonly budget: number;
  private worker?: Worker;
  private progress = new Int32Array(new SharedArrayBuffer(4));
  private ready = false;
  private posted = 0;
  private finished = 0;
  private walkDone = false;
  private settled = false;
  private lastSeen = { index: -1, at: 0 };
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.end({ aborted: true });

  constructor(
    private readonly url: URL,
    private readonly job: SearchJob,
    private readonly options: SearchRunOptions,
    private readonly resolve: (outcome: SearchOutcome) => void,
  ) {
    this.budget = options.itemBudgetMs ?? ITEM_BUDGET_MS;
    this.timer = setInterval(() => this.watch(), Math.max(20, Math.min(250, this.budget / 4)));
    options.signal.addEventListener("abort", this.onAbort, { once: true });
    if (options.signal.aborted) this.end({ aborted: true });
    else this.start(0);
  }

  /** Streams the items to the worker in batches as they come. */
  async feed(items: AsyncIterable<SearchItem> | Iterable<SearchItem>): Promise<void> {
    try {
      for await (const item of items) {
        if (this.settled) return;
        this.all.push(item);
        if (this.all.length - this.posted >= BATCH) this.flush();
      }
    } catch (err) {
      this.end({ error: `the file walk failed: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    this.walkDone = true;
    this.flush();
    this.checkDone();
  }

  private start(from: number): void {
    this.ready = false;
    this.progress = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(this.url, { workerData: { job: this.job, progress: this.progress.buffer } });
    this.worker = worker;
    this.finished = from;
    this.posted = from;
    worker.on("message", (m: { type: string; index?: number; result?: ItemResult; upTo?: number; message?: string }) => {
      if (this.worker !== worker || this.settled) return;
      this.lastSeen = { index: this.lastSeen.index, at: Date.now() };
      if (m.type === "ready") {
        this.ready = true;
      } else if (m.type === "error") {
        this.end({ error: m.message });
      } else if (m.type === "result") {
        if (this.options.onResult(this.all[m.index!]!, m.result!) === false) this.end({ stopped: true });
      } else if (m.type === "done") {
        this.finished = Math.max(this.finished, m.upTo!);
        this.checkDone();
      }
    });
    worker.on("error", (err) => {
      if (this.worker === worker) this.end({ error: `the search worker failed: ${err.message}` });
    });
    worker.on("exit", (code) => {
      if (this.worker === worker && !this.settled) this.end({ error: `the search worker exited unexpectedly (code ${code})` });
    });
    this.flush();
  }

  private flush(): void {
    if (!this.worker || this.settled || this.posted >= this.all.length) return;
    this.worker.postMessage({ items: this.all.slice(this.posted), base: this.posted });
    this.posted = this.all.length;
  }

  /** Watchdog: the item in progress overran its budget → skip it with a fresh worker. */
  private watch(): void {
    if (this.settled || !this.ready || this.finished >= this.posted) {
      this.lastSeen = { index: -1, at: Date.now() };
      return;
    }
    const index = Math.max(Atomics.load(this.progress, 0), this.finished);
    const now = Date.now();
    if (index !== this.lastSeen.index) {
      this.lastSeen = { index, at: now };
      return;
    }
    if (now - this.lastSeen.at < this.budget) return;
    const old = this.worker!;
    this.worker = undefined;
    void old.terminate();
    this.slow.push(this.all[index]!.rel);
    if (this.slow.length >= (this.options.maxSlowItems ?? 3)) return this.end({ stopped: true });
    this.lastSeen = { index: -1, at: now };
    this.start(index + 1);
    this.checkDone();
  }

  private checkDone(): void {
    if (this.walkDone && this.finished >= this.all.length) this.end({});
  }

  private end(outcome: Partial<SearchOutcome>): void {
    if (this.settled) return;
    this.settled = true;
    clearInterval(this.timer);
    this.options.signal.removeEventListener("abort", this.onAbort);
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.resolve({ aborted: false, stopped: false, slow: this.slow, ...outcome });
  }
}
