/**
 * BackgroundChildren: the session-level home of children that work beside the person. It owns
 * the session's child controller (background children are not tied to any main turn), the
 * session's event channel (child events while no main run carries them), and each background
 * child's report until it is delivered to the main agent — exactly once, by `take` (a note at the
 * main agent's next turn boundary, or a turn of its own) or by `wait` (the `task_wait` tool).
 * Foreground children register too, so the person can move them to the background (Ctrl-B, Esc).
 */
import type { AgentEvent } from "../../protocol/events.js";
import type { BackgroundReport } from "../../protocol/background-report.js";

/** Where a child stands, for `/tasks` and `task_wait`. */
export type ChildState = "running" | "done" | "delivered";

/** One row of `list()`. */
export interface ChildRow {
  childId: string;
  profile?: string;
  /** Its description (else it is named by its prompt's first words, see childTitle). */
  description?: string;
  prompt: string;
  background: boolean;
  state: ChildState;
  /** How it ended (once done). */
  status?: string;
  startedAt: number;
}

interface Entry extends ChildRow {
  report?: BackgroundReport;
  /** Moves a foreground child to the background (its pending `task` call returns). */
  detach?: () => void;
}

/** What the session does around deliveries. */
export interface BackgroundHooks {
  /** A background child ended: save its report (it waits for delivery). */
  onFinished?: (report: BackgroundReport, details?: unknown) => void;
  /** Reports were delivered (taken): save that they were. */
  onDelivered?: (childIds: string[]) => void;
  /** True while no main run is going (a finished child then asks for a turn of its own). */
  isMainIdle?: () => boolean;
  now?: () => number;
}

/** Session-level registry of children: background runs, their reports, and the event channel. */
export class BackgroundChildren {
  /** Aborted when the session closes; every child's signal follows it. */
  private readonly controller = new AbortController();
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: AgentEvent) => void>();
  private readonly changed = new Set<() => void>();

  constructor(private readonly hooks: BackgroundHooks = {}) {}

  /** The session's signal: children run until it aborts (session closed) or they are stopped. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops every child (the session is closing). */
  abortAll(reason = "the session ended"): void {
    this.controller.abort(reason);
  }

  /** Listens to the session's channel; returns the unsubscribe function. */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends `event` to every listener of the session's channel. */
  emit = (event: AgentEvent): void => {
    for (const listener of [...this.listeners]) listener(event);
  };

  /** Registers a child that starts now; `detach` set = it runs in the foreground until detached. */
  register(child: { childId: string; profile?: string; description?: string; prompt: string; background: boolean; detach?: () => void }): void {
    this.entries.set(child.childId, { ...child, state: "running", startedAt: (this.hooks.now ?? Date.now)() });
    this.notify();
  }

  /** A foreground child ended with its `task` call: it needs no delivery. */
  forget(childId: string): void {
    this.entries.delete(childId);
    this.notify();
  }

  /**
   * Moves running foreground child `childId` (every one, without an id) to the background; its
   * pending `task` call returns at once. Returns the ids moved.
   */
  moveToBackground(childId?: string): string[] {
    const moved: string[] = [];
    for (const entry of this.entries.values()) {
      if (entry.background || entry.state !== "running" || !entry.detach) continue;
      if (childId !== undefined && entry.childId !== childId) continue;
      entry.background = true;
      const detach = entry.detach;
      entry.detach = undefined;
      detach();
      moved.push(entry.childId);
    }
    if (moved.length > 0) this.notify();
    return moved;
  }

  /** A background child ended: its report waits for delivery (saved by onFinished). */
  finish(report: BackgroundReport, details?: unknown): void {
    const entry = this.entries.get(report.childId) ?? { childId: report.childId, profile: report.profile, prompt: report.prompt, background: true, state: "running" as const, startedAt: 0 };
    this.entries.set(report.childId, { ...entry, state: "done", status: report.status, report });
    this.hooks.onFinished?.(report, details);
    this.emit({ type: "background_ready", childIds: [report.childId], mainIdle: this.hooks.isMainIdle?.() ?? false });
    this.notify();
  }

  /** Reports of an earlier run of this session that were never delivered (loaded from its file). */
  restore(reports: readonly BackgroundReport[]): void {
    for (const report of reports) this.entries.set(report.childId, { childId: report.childId, profile: report.profile, prompt: report.prompt, background: true, state: "done", status: report.status, report, startedAt: 0 });
  }

  /** True when a finished background child's report waits for delivery. */
  get hasUndelivered(): boolean {
    return [...this.entries.values()].some((e) => e.state === "done");
  }

  /** Background children still running. */
  get runningInBackground(): string[] {
    return [...this.entries.values()].filter((e) => e.background && e.state === "running").map((e) => e.childId);
  }

  /** Every child the session knows of, oldest first (`/tasks`). */
  list(): ChildRow[] {
    return [...this.entries.values()].map(({ report: _r, detach: _d, ...row }) => ({ ...row }));
  }

  /**
   * Takes the waiting reports (of `ids`, or all) in the order they finished: each is delivered
   * exactly once — a later `take` or `wait` never returns it again.
   */
  take(ids?: readonly string[]): BackgroundReport[] {
    const taken: BackgroundReport[] = [];
    for (const entry of this.entries.values()) {
      if (entry.state !== "done" || !entry.report) continue;
      if (ids && !ids.includes(entry.childId)) continue;
      entry.state = "delivered";
      taken.push(entry.report);
    }
    if (taken.length > 0) {
      this.hooks.onDelivered?.(taken.map((r) => r.childId));
      this.notify();
    }
    return taken;
  }

  /**
   * Waits for the background children `ids` (default: every one running or undelivered) and takes
   * each report as it arrives, in completion order (`onReport` hears each at once). Ends when all
   * are taken, after `timeoutMs`, or when `signal` aborts; `pending` = the ids still running then.
   * Ids the session does not know, or already delivered, are listed in `unknown`/`delivered`.
   */
  async wait(opts: { ids?: readonly string[]; timeoutMs?: number; signal?: AbortSignal; onReport?: (r: BackgroundReport) => void }): Promise<{ reports: BackgroundReport[]; pending: string[]; unknown: string[]; delivered: string[] }> {
    const unknown = (opts.ids ?? []).filter((id) => !this.entries.has(id));
    const delivered = (opts.ids ?? []).filter((id) => this.entries.get(id)?.state === "delivered");
    const watched = (opts.ids ?? [...this.entries.keys()]).filter((id) => {
      const e = this.entries.get(id);
      return e && e.state !== "delivered" && (e.background || e.state === "done");
    });
    const reports: BackgroundReport[] = [];
    const pending = () => watched.filter((id) => this.entries.get(id)?.state === "running");
    const drain = () => {
      for (const r of this.take(watched)) {
        reports.push(r);
        opts.onReport?.(r);
      }
    };
    drain();
    if (pending().length > 0 && !opts.signal?.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.changed.delete(onChange);
          opts.signal?.removeEventListener("abort", done);
          resolve();
        };
        const onChange = () => {
          drain();
          if (pending().length === 0) done();
        };
        const timer = opts.timeoutMs !== undefined ? setTimeout(done, opts.timeoutMs) : undefined;
        this.changed.add(onChange);
        opts.signal?.addEventListener("abort", done, { once: true });
      });
    }
    return { reports, pending: pending(), unknown, delivered };
  }

  /** Resolves when no background child runs (or `signal` aborts). */
  async whenBackgroundIdle(signal?: AbortSignal): Promise<void> {
    while (this.runningInBackground.length > 0 && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.changed.delete(done);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        this.changed.add(done);
        signal?.addEventListener("abort", done, { once: true });
      });
    }
  }

  private notify(): void {
    for (const listener of [...this.changed]) listener();
  }
}
