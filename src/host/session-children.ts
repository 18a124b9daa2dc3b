/**
 * The session's children, as AgentSession exposes them (it extends SessionChildrenApi): the
 * running children by id (stop, wake, message), and the children beside the main agent
 * (background-children.ts) wired to the session file and its main runs — a finished background
 * child's task record and report are saved, and so is their delivery; a report that waits once
 * the main agent is idle asks for a turn.
 */
import type { AgentEvent } from "../protocol/events.js";
import type { MainSessionFile } from "../session/main-session-file.js";
import { BackgroundChildren, type ChildRow } from "../subagents/runtime/background-children.js";
import { messageChild, stopChild, wakeChild, type RunningChildren } from "../subagents/runtime/running-children.js";
import type { TaskDetails } from "../session/types.js";

/** The children half of AgentSession's public API; `file` is read when something is saved. */
export abstract class SessionChildrenApi {
  protected readonly running: RunningChildren = new Map();
  /** Children beside the main agent: background runs, their reports until delivered, the session's event channel. */
  protected readonly children: BackgroundChildren;
  /** Main-agent runs going on now (a finished background child starts a turn only when none is). */
  protected mainRuns = 0;

  protected constructor(file: () => MainSessionFile | undefined) {
    this.children = new BackgroundChildren({
      isMainIdle: () => this.mainRuns === 0,
      onFinished: (report, details) => {
        const record = (details as TaskDetails | undefined)?.taskRecord;
        if (record) file()?.recordLater({ type: "task_record", record });
        file()?.recordLater({ type: "background_report", report });
      },
      onDelivered: (childIds) => file()?.recordLater({ type: "background_delivered", childIds }),
    });
  }

  /** Call when a main run ends: after the last one, a report that arrived after its last turn boundary asks for a turn of its own. */
  protected mainRunEnded(): void {
    if (--this.mainRuns > 0 || !this.children.hasUndelivered) return;
    this.children.emit({ type: "background_ready", childIds: this.children.list().filter((c) => c.state === "done").map((c) => c.childId), mainIdle: true });
  }

  /** Ids of the children running now. */
  get runningChildren(): string[] {
    return [...this.running.keys()];
  }

  /** Stops one running child; the main agent goes on with its "aborted" result. False when it is not running. */
  stopChild(childId: string): boolean {
    return stopChild(this.running, childId);
  }

  /** A paused child (transient failure) tries again now; false when it is not paused. */
  wakeChild(childId: string): boolean {
    return wakeChild(this.running, childId);
  }

  /** Sends the person's `text` to running child `childId`: it reads it at its next turn boundary. False when it is not running. */
  messageChild(childId: string, text: string): boolean {
    return messageChild(this.running, childId, text, "user");
  }

  /**
   * Listens to the session's own channel: events of background children (and of children moved
   * there) and deliveries, whether or not a main run is going. Every mode subscribes once.
   */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.children.subscribe(listener);
  }

  /** Moves running foreground child `childId` (all, without one) to the background; their `task` calls return at once. Ids moved. */
  moveToBackground(childId?: string): string[] {
    return this.children.moveToBackground(childId);
  }

  /** This session's children with their state (`/tasks`). */
  get childRows(): ChildRow[] {
    return this.children.list();
  }

  /** Ids of the background children still running. */
  get backgroundRunning(): string[] {
    return this.children.runningInBackground;
  }

  /** True when a background child's report waits for the main agent. */
  get hasUndeliveredReports(): boolean {
    return this.children.hasUndelivered;
  }

  /** Resolves when no background child runs any more (or `signal` aborts). */
  whenBackgroundIdle(signal?: AbortSignal): Promise<void> {
    return this.children.whenBackgroundIdle(signal);
  }
}
