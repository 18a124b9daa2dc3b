/**
 * retryStatus: the one live line of an agent whose model call waits to be tried again —
 * `429 rate limited · retrying in 4s · attempt 4/10` — counting down on the UI clock.
 */
import type { AgentEvent } from "../../src/protocol/events.js";
import type { RetryView } from "./transcript-types.js";
import { pausedText } from "../../src/subagents/runtime/budget.js";

/** The view of a `retry` event received at `at` (UI clock, ms). */
export function retryView(event: Extract<AgentEvent, { type: "retry" }>, at: number): RetryView {
  return { label: event.label, attempt: event.attempt, maxAttempts: event.maxAttempts, until: at + event.delayMs, delayMs: event.delayMs, reason: event.reason };
}

/** The view of a child's `paused` event received at `at` (UI clock, ms). */
export function pausedView(event: Extract<AgentEvent, { type: "paused" }>, at: number): RetryView {
  return { label: event.label, attempt: 0, maxAttempts: 0, until: at + event.delayMs, delayMs: event.delayMs, reason: event.reason, paused: true };
}

/** The view of a `budget_paused` event: `paused: budget of 50k tokens reached` until the person answers. */
export function budgetPausedView(event: Extract<AgentEvent, { type: "budget_paused" }>, at: number): RetryView {
  const label = `${event.scope === "tree" ? "the session's " : ""}${pausedText(event)}`;
  return { label, attempt: 0, maxAttempts: 0, until: at, delayMs: 0, reason: `${label} (spent ${event.spent})`, paused: true, budget: true };
}

/**
 * The status at `now`: whole seconds left (rounded up, never more than the wait announced — the
 * clock a frame is drawn with may be a tick older than the event), `retrying now` once the wait is
 * over; the attempt coming next.
 */
export function retryStatus(view: RetryView, now: number): string {
  if (view.budget) return `paused: ${view.label}`;
  const left = Math.ceil(Math.min(view.until - now, view.delayMs) / 1000);
  const when = left > 0 ? `retrying in ${formatWait(left)}` : "retrying now";
  if (view.paused) return `paused: ${view.label} · ${when}`;
  return `${view.label} · ${when} · attempt ${Math.min(view.attempt + 1, view.maxAttempts)}/${view.maxAttempts}`;
}

function formatWait(seconds: number): string {
  return seconds < 120 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** Events that show an agent's retried call went on (it streams) or ended (it gave up, the run ended): its retry line goes. */
export function endsRetry(event: AgentEvent): boolean {
  switch (event.type) {
    case "text_delta":
    case "thinking_delta":
    case "toolcall_start":
    case "toolcall_delta":
    case "usage":
    case "message":
    case "turn_end":
    case "error":
    case "agent_end":
    case "resumed":
      return true;
    default:
      return false;
  }
}
