/**
 * The rules a session runs under, read from the settings files (settings.json and, trusted, the
 * project's): permission rules and mode (the approval policy), the hooks around every tool call
 * and prompt, and the session tree's budget (maxTokens / maxCostUsd).
 */
import { createApprovalPolicy, type ApprovalOptions, type ApprovalPolicy } from "../core/approval.js";
import type { OnToolCall } from "../core/tool-runner.js";
import { SessionHooks } from "../hooks/session-hooks.js";
import { withToolHooks } from "../hooks/tool-hooks.js";
import { checkSettingsRules } from "../permissions/settings-rules.js";
import { realPathOf } from "../permissions/paths.js";
import { existsSync, statSync } from "node:fs";
import { loadSettings, type LoadedSettings } from "../settings/settings.js";
import { treeLimits, unpricedCostBudget } from "../subagents/runtime/budget.js";
import { TreeBudget } from "../subagents/runtime/tree-budget.js";

export interface SessionRules {
  settings: LoadedSettings;
  hooks: SessionHooks;
  /** Asks the person (or a rule answers); its `mode` is the permission mode in force. */
  policy: ApprovalPolicy;
  /** The policy wrapped in the PreToolUse / PostToolUse hooks: what every agent's tool call goes through. */
  onToolCall: OnToolCall;
  treeBudget: TreeBudget;
}

/**
 * Loads the settings of `cwd` and builds the session's rules from them (throws on a malformed
 * permission rule). `report` shows a hook's warning; `transcriptPath` is what hooks are told.
 */
export function loadSessionRules(o: { inkHome: string; cwd: string; trusted: boolean; sessionId: string; approval: ApprovalOptions; transcriptPath: () => string | undefined; report: (message: string) => void }): SessionRules {
  const settings = loadSettings({ inkHome: o.inkHome, projectDir: o.cwd, trusted: o.trusted });
  checkSettingsRules(settings.scopes);
  const rules = settings.effective.permissions;
  const ruleFiles = settings.scopes.map((s) => ({ path: s.path, rules: s.settings.permissions }));
  const hooks = SessionHooks.load({ inkHome: o.inkHome, trusted: o.trusted, sessionId: o.sessionId, cwd: o.cwd, transcriptPath: o.transcriptPath, permissionMode: () => policy.mode, report: o.report, envPassthrough: settings.effective.envPassthrough });
  const noBypass = rules?.disableBypassPermissionsMode === "disable";
  const roots = additionalRoots(rules?.additionalDirectories, o.cwd, settings.sources.permissions ?? "settings", o.report);
  const policy = createApprovalPolicy({ ...o.approval, ask: hooks.permissionRequest(hooks.notifying(o.approval.ask)), cwd: o.cwd, rules, ruleFiles, mode: o.approval.mode ?? rules?.defaultMode, noBypass, ...(roots.length ? { roots } : {}) });
  if (noBypass && (o.approval.yolo || (o.approval.mode ?? rules?.defaultMode) === "yolo")) o.report(`yolo is disabled by "disableBypassPermissionsMode": "disable" in ${settings.sources.permissions}; running in default mode`);
  const onToolCall = withToolHooks(policy, hooks.hooks);
  onToolCall.hides = policy.hides; // what deny rules hide from grep/find/ls, whatever a hook answers
  return { settings, hooks, policy, onToolCall, treeBudget: new TreeBudget(treeLimits(settings.effective)) };
}

/**
 * Settings' `additionalDirectories` as absolute paths (relative to the project, `~/` the home):
 * the tools read and change files there as inside the project. One that is not a directory is
 * left out with a notice naming it and the file.
 */
export function additionalRoots(dirs: readonly string[] | undefined, cwd: string, source: string, report: (message: string) => void): string[] {
  const roots: string[] = [];
  for (const dir of dirs ?? []) {
    const abs = realPathOf(cwd, dir);
    if (existsSync(abs) && statSync(abs).isDirectory()) {
      if (!roots.includes(abs)) roots.push(abs);
    } else report(`"permissions.additionalDirectories" entry "${dir}" (${source}) is not a directory (${abs}); it was left out — fix the path or remove it`);
  }
  return roots;
}

/** The notice for a cost budget in settings that `model`'s unpriced usage cannot count toward; undefined when none. */
export function unpricedTreeBudgetNotice(rules: SessionRules, model: string): string | undefined {
  const unpriced = unpricedCostBudget(rules.treeBudget.meter.limits, model, `settings (${rules.settings.sources.maxCostUsd})`);
  return unpriced && `${unpriced}; only priced usage counts toward it, and a child on a model without a price is not started`;
}
