/**
 * Approval policy: decides before a tool runs. Read-only tools and `task` run freely (a child's
 * own calls are judged one by one); `bash`, `edit`, `write` need `--yolo`, an `--allow <tool>`
 * rule, or the person's answer through `ask`. Headless runs have no `ask`, so they refuse with a
 * reason the model sees.
 */
import type { AgentInfo } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";
import type { OnToolCall, ToolDecision } from "./tool-runner.js";

export interface ApprovalOptions {
  /** Allow every tool. */
  yolo?: boolean;
  /** Tool names allowed without asking. */
  allow?: readonly string[];
  /** Tool names always refused. */
  deny?: readonly string[];
  /** Asks the person (interactive UI). Absent in headless mode. */
  ask?: (call: ToolCall, agent: AgentInfo) => Promise<ToolDecision>;
}

/** Creates the `onToolCall` check for a run. */
export function createApprovalPolicy(options: ApprovalOptions): OnToolCall {
  const allow = new Set(options.allow ?? []);
  const deny = new Set(options.deny ?? []);
  return async (call, agent, tool) => {
    const who = agent.depth > 0 ? `subagent ${agent.label} (${agent.id})` : "the agent";
    if (deny.has(call.name)) return { allow: false, reason: `${call.name} is denied by configuration; do the task without it` };
    const allowedByPrefix = [...allow].some((a) => a.endsWith("*") && call.name.startsWith(a.slice(0, -1)));
    if (options.yolo || tool.readOnly || call.name === "task" || allow.has(call.name) || allowedByPrefix) return { allow: true };
    if (options.ask) return options.ask(call, agent);
    return {
      allow: false,
      reason: `${call.name} needs approval and this run cannot ask (headless). ${who} may only use read-only tools; the user can rerun with --allow ${call.name} or --yolo.`,
    };
  };
}
