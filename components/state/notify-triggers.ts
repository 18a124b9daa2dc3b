/**
 * What deserves a terminal notification, read from successive stream states: a child that ended,
 * an agent that started waiting for an approval, a background child's report that started a turn
 * of the main agent, and a main run that ended after running long enough that the person may
 * have looked elsewhere. Pure (the clock is passed in).
 */
import { childTitle } from "../../src/subagents/runtime/child-label.js";
import { shortId } from "../../src/session/ids.js";
import type { ChildView, StreamState, TranscriptItem } from "./transcript-types.js";

/** A main run shorter than this (ms) ends without a notification: the person was likely watching. */
export const MAIN_RUN_NOTIFY_MS = 10_000;

function findChild(items: readonly TranscriptItem[], toolId: string): ChildView | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "tool" && item.id === toolId) return item.child;
  }
  return undefined;
}

/** Follows the stream; `update` returns the notification texts the new state calls for. */
export class NotifyTracker {
  /** Running children seen so far: child id → the tool call id of its pane. */
  private running = new Map<string, string>();
  private waiting: ReadonlySet<string> = new Set();
  private runStartedAt: number | undefined;
  private primed = false;
  private deliveryTurns = 0;

  /** The texts for what changed since the last update (none on the first: what was there already is not news). */
  update(state: StreamState, waiting: ReadonlySet<string>, now: number): string[] {
    const out: string[] = [];
    const primed = this.primed;
    this.primed = true;
    for (const item of state.live) {
      if (item.kind === "tool" && item.child?.status === "running" && !this.running.has(item.child.childId)) this.running.set(item.child.childId, item.id);
    }
    for (const [childId, toolId] of this.running) {
      const child = findChild(state.live, toolId) ?? findChild(state.finished, toolId);
      if (child?.status === "running") continue;
      this.running.delete(childId);
      if (child && primed) out.push(`${childTitle(child)} ${child.status === "ok" ? "finished" : child.status}`);
    }
    for (const id of waiting) {
      if (primed && !this.waiting.has(id)) out.push(`${id === "main" ? "the main agent" : this.nameOf(state, id)} is waiting for your approval`);
    }
    this.waiting = waiting;
    const deliveries = state.deliveryTurns ?? 0;
    if (primed && deliveries > this.deliveryTurns) out.push("a background report started a turn of the main agent");
    this.deliveryTurns = deliveries;
    if (state.running && this.runStartedAt === undefined) this.runStartedAt = now;
    if (!state.running && this.runStartedAt !== undefined) {
      if (primed && now - this.runStartedAt >= MAIN_RUN_NOTIFY_MS) out.push("the run finished");
      this.runStartedAt = undefined;
    }
    return out;
  }

  private nameOf(state: StreamState, childId: string): string {
    const toolId = state.childIndex[childId];
    const child = toolId === undefined ? undefined : (findChild(state.live, toolId) ?? findChild(state.finished, toolId));
    return child ? childTitle(child) : `child [${shortId(childId)}]`;
  }
}
