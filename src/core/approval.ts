/**
 * Approval policy: the `onToolCall` check for every agent (main and children alike). It applies
 * the permission decision (src/permissions/decide.ts) with the agent's own working directory;
 * an `ask` goes to the person through `ask`, or — headless — becomes a denial the model sees.
 */
import { homedir } from "node:os";
import type { AgentInfo } from "../protocol/events.js";
import type { ToolCall } from "../protocol/messages.js";
import { decide, type PermissionMode } from "../permissions/decide.js";
import { hiddenPaths } from "../permissions/hidden-paths.js";
import { parseRules, type PermissionRule, type RuleKind } from "../permissions/rules.js";
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
  rules?: RuleLists;
  /** Each settings file's own rules, so a reason can name the file a rule came from. */
  ruleFiles?: ReadonlyArray<{ path: string; rules?: RuleLists }>;
  /** The main agent's working directory (children pass their own through AgentInfo.cwd). */
  cwd?: string;
  /** Settings' `additionalDirectories`, absolute: files there are treated as inside the working directory. */
  roots?: readonly string[];
  /** Settings' `disableBypassPermissionsMode: "disable"`: yolo (the session's, a switch's or an agent file's) counts as default. */
  noBypass?: boolean;
  /** Asks the person (interactive UI). Absent in headless mode. */
  ask?: (call: ToolCall, agent: AgentInfo, why?: AskReason) => Promise<ToolDecision>;
}

/** Why a call is put to the person; `firm`: a session-wide "always" for the tool must not answer it (see Verdict). */
export interface AskReason {
  reason: string;
  firm: boolean;
}

type RuleLists = { allow?: readonly string[]; ask?: readonly string[]; deny?: readonly string[] };

/**
 * An approval policy whose mode can change while it runs. `personal` is the check for a command
 * the person typed themselves (`!cmd`): it is not put to them again, whatever the mode; only a
 * deny rule refuses it, and the reason names the rule and where it was written.
 */
export type ApprovalPolicy = OnToolCall & { mode: PermissionMode; personal: OnToolCall; hookAllowed: OnToolCall; /** Settings disable yolo (see ApprovalOptions.noBypass). */ noBypass?: boolean };

/** `path` with the home directory written `~`. */
function shortPath(path: string): string {
  const home = homedir();
  return home !== "" && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** Settings rules of one kind, each `source` saying which file it came from (`bash(rm *) in ~/.ink/settings.json`). */
function settingsRules(options: ApprovalOptions, kind: RuleKind): PermissionRule[] {
  return parseRules(options.rules?.[kind], kind).map((rule) => {
    const file = options.ruleFiles?.find((f) => f.rules?.[kind]?.some((r) => r.trim() === rule.source));
    return file ? { ...rule, source: `${rule.source} in ${shortPath(file.path)}` } : rule;
  });
}

/** Rules given on the command line, their `source` saying so (`bash(rm*) from --deny`). */
function flagRules(list: readonly string[] | undefined, kind: "allow" | "deny"): PermissionRule[] {
  return parseRules(list, kind).map((rule) => ({ ...rule, source: `${rule.source} from --${kind}` }));
}

/**
 * The mode a call is decided in: the session's, or a child's own from its agent file. Plan (the
 * session's or the agent's) wins; a session in yolo keeps its children in yolo; otherwise an agent's
 * accept-edits or yolo (bypassPermissions) applies to its own calls.
 */
export function agentMode(session: PermissionMode, agent: AgentInfo["permissionMode"]): PermissionMode {
  if (agent === "plan" || session === "plan") return "plan";
  if (session === "yolo") return "yolo";
  return agent === "accept-edits" || agent === "yolo" ? agent : session;
}

/** Creates the `onToolCall` check for a run. Throws for a malformed rule (naming it). */
export function createApprovalPolicy(options: ApprovalOptions): ApprovalPolicy {
  const rules: PermissionRule[] = [
    ...settingsRules(options, "allow"),
    ...flagRules(options.allow, "allow"),
    ...settingsRules(options, "ask"),
    ...settingsRules(options, "deny"),
    ...flagRules(options.deny, "deny"),
  ];
  const denyRules = rules.filter((r) => r.kind === "deny");
  // `hookAllowed`: a PreToolUse hook answered "allow". That answers the plain approval question
  // and nothing more: a deny rule, a wall (.git/, plan mode) and a firm ask (an ask rule, a secret,
  // a change outside the working directory) stand as they would without the hook.
  const judge = async (call: ToolCall, agent: AgentInfo, tool: Parameters<OnToolCall>[2], hookAllowed: boolean): Promise<ToolDecision> => {
    const who = agent.depth > 0 ? `subagent ${agent.label} (${agent.id})` : "the agent";
    const cwd = agent.cwd ?? options.cwd ?? process.cwd();
    const mode = agentMode(policy.mode, agent.permissionMode);
    const verdict = decide({ tool: call.name, args: call.arguments, readOnly: tool.readOnly, readOnlyHint: tool.readOnlyHint, cwd, mode: options.noBypass && mode === "yolo" ? "default" : mode, rules, ...(options.roots ? { roots: options.roots } : {}) });
    if (verdict.kind === "allow") return { allow: true };
    if (verdict.kind === "deny") return { allow: false, reason: `${verdict.reason}; do the task without it${hookAllowed ? " (a PreToolUse hook's allow never overrides a deny)" : ""}` };
    if (hookAllowed && verdict.firm !== true) return { allow: true };
    if (agent.permissionMode === "dont-ask") return { allow: false, reason: `${call.name} needs approval (${verdict.reason}) and agent "${agent.profile ?? agent.label}" runs with permissionMode: dontAsk, so what would ask is refused; ${who} must do without it` };
    if (options.ask) return options.ask(call, agent, { reason: verdict.reason, firm: verdict.firm === true });
    const hookNote = hookAllowed ? " A PreToolUse hook allowed it, but a hook's allow does not answer this question." : "";
    return {
      allow: false,
      reason: `${call.name} needs approval (${verdict.reason}) and this run cannot ask (headless); ${who} must do without it.${hookNote} The user can rerun with --allow ${call.name} (or a narrower rule such as --allow '${suggestRule(call)}'), add an allow rule to settings, or use --yolo.`,
    };
  };
  const policy = ((call, agent, tool) => judge(call, agent, tool, false)) as ApprovalPolicy;
  policy.hookAllowed = (call, agent, tool) => judge(call, agent, tool, true);
  policy.mode = options.yolo ? "yolo" : (options.mode ?? "default");
  if (options.noBypass && policy.mode === "yolo") policy.mode = "default";
  if (options.noBypass) policy.noBypass = true;
  policy.hides = (tool, cwd) => hiddenPaths(denyRules, tool, cwd);
  // The deny rules alone, in yolo (nothing else refuses, and an ask is no question for the person who typed it).
  policy.personal = async (call, agent, tool) => {
    const verdict = decide({ tool: call.name, args: call.arguments, readOnly: tool.readOnly, cwd: agent.cwd ?? options.cwd ?? process.cwd(), mode: "yolo", rules: denyRules });
    return verdict.kind === "deny" ? { allow: false, reason: `${verdict.reason}; your own command is not run` } : { allow: true };
  };
  return policy;
}
