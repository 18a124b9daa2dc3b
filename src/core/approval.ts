/**
 * Approval policy: the `onToolCall` check for every agent (main and children alike). It applies
 * the permission decision (src/permissions/decide.ts) with the agent's own working directory;
 * an `ask` goes to the person through `ask`, or — headless — becomes a denial the model sees.
 */
import type { AgentInfo } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";
import { decide, type PermissionMode } from "../permissions/decide.js";
import { parseRules, type PermissionRule } from "../permissions/rules.js";
import { suggestRule } from "../permissions/save-rule.js";
import type { OnToolCall, ToolDecision } from "./tool-runner.js";

export interface ApprovalOptions {
  /** Allow every tool (same as mode "yolo"). */
  yolo?: boolean;
  /** The permission mode (default "default"). */
  mode?: PermissionMode;
  /** Allow rules from the command line (`--allow bash(git status*)`, or a bare tool name). */
  allow?: readonly string[];
  /** Deny rules from the command line. */
  deny?: readonly string[];
  /** Rules from the settings files (every scope, already merged). */
  rules?: { allow?: readonly string[]; ask?: readonly string[]; deny?: readonly string[] };
  /** The main agent's working directory (children pass their own through AgentInfo.cwd). */
  cwd?: string;
  /** Asks the person (interactive UI). Absent in headless mode. */
  ask?: (call: ToolCall, agent: AgentInfo, why?: AskReason) => Promise<ToolDecision>;
}

/** Why a call is put to the person; `firm`: a session-wide "always" for the tool must not answer it (see Verdict). */
export interface AskReason {
  reason: string;
  firm: boolean;
}

/** An approval policy whose mode can change while it runs. */
export type ApprovalPolicy = OnToolCall & { mode: PermissionMode };

/** Creates the `onToolCall` check for a run. Throws for a malformed rule (naming it). */
export function createApprovalPolicy(options: ApprovalOptions): ApprovalPolicy {
  const rules: PermissionRule[] = [
    ...parseRules(options.rules?.allow, "allow"),
    ...parseRules(options.allow, "allow"),
    ...parseRules(options.rules?.ask, "ask"),
    ...parseRules(options.rules?.deny, "deny"),
    ...parseRules(options.deny, "deny"),
  ];
  const policy = (async (call, agent, tool) => {
    const who = agent.depth > 0 ? `subagent ${agent.label} (${agent.id})` : "the agent";
    const cwd = agent.cwd ?? options.cwd ?? process.cwd();
    const verdict = decide({ tool: call.name, args: call.arguments, readOnly: tool.readOnly, cwd, mode: policy.mode, rules });
    if (verdict.kind === "allow") return { allow: true };
    if (verdict.kind === "deny") return { allow: false, reason: `${verdict.reason}; do the task without it` };
    if (options.ask) return options.ask(call, agent, { reason: verdict.reason, firm: verdict.firm === true });
    return {
      allow: false,
      reason: `${call.name} needs approval (${verdict.reason}) and this run cannot ask (headless); ${who} must do without it. The user can rerun with --allow ${call.name} (or a narrower rule such as --allow '${suggestRule(call)}'), add an allow rule to settings, or use --yolo.`,
    };
  }) as ApprovalPolicy;
  policy.mode = options.yolo ? "yolo" : (options.mode ?? "default");
  return policy;
}
