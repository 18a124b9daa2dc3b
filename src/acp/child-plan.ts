/**
 * The main agent's children as an ACP plan (`session/update` with `plan`): one entry per `task`
 * call of the turn, in the order the model made them — pending when called, in progress once the
 * child runs, completed when it has ended (an ending other than "ok" is named in the entry, as
 * ACP has no failed status). Ink has no todo list; its children are its plan.
 */
import type { PlanEntry } from "@agentclientprotocol/sdk/unstable";
import type { AgentEvent, SubagentSummary } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";
import { toolTitle } from "./tool-calls.js";

type SubagentStart = Extract<AgentEvent, { type: "subagent_start" }>;

/** The entries of one agent's `task` calls, keyed by the call's id. */
export class ChildPlan {
  private readonly entries = new Map<string, { what: string; label?: string; status: PlanEntry["status"]; ending?: string }>();

  /** A `task` call was made: its entry is pending. False for other tools (nothing changed). */
  called(call: ToolCall): boolean {
    if (call.name !== "task") return false;
    this.entries.set(call.id, { what: toolTitle(call).replace(/^task(?: \([^)]*\))?: /, ""), status: "pending" });
    return true;
  }

  /** The child of task call `parentToolCallId` runs now (a person's resume makes a new entry). */
  started(event: SubagentStart): void {
    const entry = this.entries.get(event.parentToolCallId) ?? { what: event.description ?? event.prompt.split("\n")[0]!.slice(0, 80), status: "pending" };
    entry.label = `${event.profile ?? "general"} [${event.childId}]`;
    if (event.description) entry.what = event.description;
    entry.status = "in_progress";
    this.entries.set(event.parentToolCallId, entry);
  }

  /** The child of task call `parentToolCallId` ended. False when the call is not in the plan. */
  ended(parentToolCallId: string, summary: SubagentSummary): boolean {
    const entry = this.entries.get(parentToolCallId);
    if (!entry) return false;
    entry.status = "completed";
    if (summary.status !== "ok") entry.ending = summary.status === "aborted" ? "stopped" : summary.status === "timeout" ? "timed out" : "failed";
    return true;
  }

  /** A task call returned without a child having run (refused, cancelled before it started): completed, "not run". */
  returned(call: ToolCall): boolean {
    const entry = this.entries.get(call.id);
    if (!entry || entry.status === "completed") return false;
    entry.status = "completed";
    entry.ending = "not run";
    return true;
  }

  /** The whole plan, as ACP wants it on every change. */
  get current(): PlanEntry[] {
    return [...this.entries.values()].map((e) => ({
      content: `${e.label ? `${e.label}: ` : ""}${e.what}${e.ending ? ` (${e.ending})` : ""}`,
      priority: "medium",
      status: e.status,
    }));
  }
}
