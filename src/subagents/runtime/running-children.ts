/**
 * The children running now, by id: each one's stop switch and its inbox — messages sent to it
 * while it works (by the person from its pane, or by the parent with `task` + `resume`), read at
 * its next turn boundary.
 */
import type { SteerMessage } from "../../core/loop.js";
import type { SteerSource } from "../../protocol/events.js";
import { steerContent } from "../../protocol/steer-message.js";

/** A running child's stop switch and the messages waiting for its next turn boundary. */
export interface RunningChild {
  stop: AbortController;
  inbox: SteerMessage[];
  /** Set while the child is paused on a transient failure: ends the pause now. */
  wake?: () => void;
}

/** Running children, keyed by child id. */
export type RunningChildren = Map<string, RunningChild>;

/** Stops one running child (its parent goes on and gets an "aborted" result). False when no such child runs. */
export function stopChild(running: RunningChildren, childId: string): boolean {
  const child = running.get(childId);
  if (!child) return false;
  child.stop.abort();
  return true;
}

/** Ends a paused child's wait: it tries again now. False when no such child is paused. */
export function wakeChild(running: RunningChildren, childId: string): boolean {
  const wake = running.get(childId)?.wake;
  if (!wake) return false;
  wake();
  return true;
}

/**
 * Queues `text` for a running child: it enters the child's history as a user message at its next
 * turn boundary (see LoopOptions.takeMessages). False when no such child runs (or it is stopping).
 */
export function messageChild(running: RunningChildren, childId: string, text: string, from: SteerSource): boolean {
  const child = running.get(childId);
  if (!child || child.stop.signal.aborted) return false;
  child.inbox.push({ text, from, content: steerContent(text, from) });
  return true;
}
