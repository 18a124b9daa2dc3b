/**
 * Permission rules from Claude Code's project settings (`.claude/settings.json`, and the person's
 * `.claude/settings.local.json`), mapped to Ink's rule syntax — read only for a trusted project —
 * and from Claude Code's user settings (`~/.claude/settings.json`: allow/ask/deny only, always).
 * `Bash(npm run test:*)` → `bash(npm run test)` + `bash(npm run test *)`; `Read(./secrets/**)` →
 * the same path rule for read, grep, find and ls (Claude Code applies Read rules to every
 * file-reading tool); `Edit(src/**)` → edit and write; `Glob` → find, `LS` → ls. Paths follow
 * Claude Code: `//abs` is absolute, `/x` is relative to the project root, `~/x` is the home
 * directory, and a pattern without `/` (`*.env`) matches at any depth. A rule that has no Ink
 * counterpart (`WebFetch(domain:…)`) is skipped with a warning naming the file; `defaultMode:
 * "bypassPermissions"` is never taken from a project. Beside the rules, a project's `effortLevel`.
 */
import { join } from "node:path";
import { EFFORT_LEVELS } from "../protocol/model-catalog.js";
import { readJsonObject } from "./json-object.js";
import type { PermissionRules, ScopedSettings } from "./settings-schema.js";

const TOOLS: Readonly<Record<string, readonly string[]>> = {
  Bash: ["bash"],
  Read: ["read", "grep", "find", "ls"],
  Edit: ["edit", "write"],
  MultiEdit: ["edit"],
  Write: ["write"],
  Glob: ["find"],
  Grep: ["grep"],
  LS: ["ls"],
  Task: ["task"],
};

const MODES: Readonly<Record<string, PermissionRules["defaultMode"]>> = { default: "default", acceptEdits: "accept-edits", plan: "plan" };

/** Ink rules for one Claude Code rule, or a reason it cannot be mapped. */
export function mapClaudeRule(rule: string, projectDir: string): { rules: string[] } | { problem: string } {
  const m = /^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$/s.exec(rule);
  if (!m) return { problem: `"${rule}" is not a rule Ink understands` };
  const [, tool, spec] = m as unknown as [string, string, string | undefined];
  const pattern = spec?.trim();
  if (tool.startsWith("mcp__")) return pattern ? { problem: `"${rule}": Ink's MCP rules name the tool only` } : { rules: [tool] };
  const ours = TOOLS[tool];
  if (!ours) return { problem: `"${rule}": Ink has no ${tool} tool` };
  if (pattern === undefined || pattern === "" || pattern === "*") return { rules: [...ours] };
  if (tool === "Task") return { problem: `"${rule}": Ink's task rules cannot name an agent; write "Task" to cover every delegation` };
  if (tool === "Bash") {
    const prefix = /^(.*?):\*$/s.exec(pattern);
    return { rules: prefix ? [`bash(${prefix[1]})`, `bash(${prefix[1]} *)`] : [`bash(${pattern})`] };
  }
  let path = pattern;
  if (path.startsWith("//")) path = path.slice(1);
  else if (path.startsWith("/")) path = join(projectDir, path);
  else if (!path.startsWith("~/") && !path.includes("/")) path = `**/${path}`;
  return { rules: ours.map((t) => `${t}(${path})`) };
}

/** The keys of a Claude Code settings file that Ink reads (hooks: src/hooks/config.ts); `$schema` is no setting. */
const READ_KEYS = new Set(["permissions", "hooks", "effortLevel", "$schema"]);
/** The `permissions` keys Ink reads. */
const READ_PERMISSION_KEYS = new Set(["allow", "ask", "deny", "defaultMode", "disableBypassPermissionsMode", "additionalDirectories"]);

/** One warning naming the keys of a Claude Code settings file that Ink does not read (never silent). */
function noteUnread(file: Record<string, unknown>, path: string, warnings: string[]): void {
  const keys = Object.keys(file).filter((k) => !READ_KEYS.has(k));
  const perms = file.permissions;
  if (perms !== null && typeof perms === "object" && !Array.isArray(perms)) keys.push(...Object.keys(perms).filter((k) => !READ_PERMISSION_KEYS.has(k)).map((k) => `permissions.${k}`));
  if (keys.length > 0) warnings.push(`${path}: ${keys.map((k) => `"${k}"`).join(", ")} ${keys.length === 1 ? "is a Claude Code setting" : "are Claude Code settings"} Ink does not read (it reads permissions, hooks and effortLevel; see docs/claude-code.md)`);
}

/** The `allow`/`ask`/`deny` lists of one Claude Code settings file's `permissions` (`raw`), mapped to Ink rules (paths relative to `projectDir`); a rule that cannot be mapped is a warning. */
function fileRules(path: string, raw: Record<string, unknown>, projectDir: string, warnings: string[]): PermissionRules {
  const permissions: PermissionRules = {};
  for (const kind of ["allow", "ask", "deny"] as const) {
    const list = raw[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      warnings.push(`${path}: "permissions.${kind}" must be a list of rules such as ["Bash(npm run test:*)"]; it was ignored`);
      continue;
    }
    permissions[kind] = list.flatMap((rule: unknown, i) => {
      const mapped = typeof rule === "string" ? mapClaudeRule(rule, projectDir) : { problem: "not a string" };
      if ("problem" in mapped) {
        warnings.push(`${path}: "permissions.${kind}[${i}]" skipped: ${mapped.problem}`);
        return [];
      }
      return mapped.rules;
    });
  }
  return permissions;
}

/** The `permissions` object of a Claude Code settings file, or undefined when it has none. */
function permissionsOf(file: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const raw = file?.permissions;
  return raw === undefined || raw === null || typeof raw !== "object" || Array.isArray(raw) ? undefined : (raw as Record<string, unknown>);
}

/**
 * Claude Code's user settings (`<claudeHome>/settings.json`, read whatever the project's trust):
 * only its `permissions.allow`/`ask`/`deny`, mapped as a project's are (paths relative to the
 * project), as the lowest-precedence scope. Its other keys are Claude Code's own (its model, env,
 * hooks, …) and are not read, without a warning: they are no project's. Never throws.
 */
export function claudeUserRules(claudeHome: string, projectDir: string, warnings: string[]): ScopedSettings[] {
  const path = join(claudeHome, "settings.json");
  const raw = permissionsOf(readJsonObject(path, warnings));
  if (!raw) return [];
  return [{ scope: "claude", path, settings: { permissions: fileRules(path, raw, projectDir, warnings) } }];
}

/**
 * The project's Claude Code settings files (trusted projects only): those that hold rules as
 * settings scopes, and `effortLevel` (the local file's over the shared one's; a value the API has
 * no effort level for is a warning). Never throws.
 */
export function claudeProjectSettings(projectDir: string, warnings: string[]): { scopes: ScopedSettings[]; effortLevel?: string } {
  const out: ScopedSettings[] = [];
  let effortLevel: string | undefined;
  for (const rel of [".claude/settings.json", ".claude/settings.local.json"]) {
    const path = join(projectDir, rel);
    const file = readJsonObject(path, warnings);
    if (file) noteUnread(file, path, warnings);
    const effort = file?.effortLevel;
    if (typeof effort === "string" && (EFFORT_LEVELS as readonly string[]).includes(effort)) effortLevel = effort;
    else if (effort !== undefined) warnings.push(`${path}: "effortLevel" ${JSON.stringify(effort)} is not an effort level (${EFFORT_LEVELS.join(", ")}); it was ignored`);
    const raw = permissionsOf(file);
    if (!raw) continue;
    const permissions = fileRules(path, raw, projectDir, warnings);
    const mode = raw.defaultMode;
    if (typeof mode === "string" && MODES[mode]) permissions.defaultMode = MODES[mode];
    else if (mode !== undefined) warnings.push(`${path}: "permissions.defaultMode" ${JSON.stringify(mode)} is not taken from a project's Claude Code settings (Ink reads default, acceptEdits and plan)`);
    if (raw.disableBypassPermissionsMode === "disable") permissions.disableBypassPermissionsMode = "disable";
    const extra = raw.additionalDirectories;
    if (Array.isArray(extra) && extra.every((d) => typeof d === "string")) permissions.additionalDirectories = extra.map((d) => (d.startsWith("/") || d.startsWith("~/") ? d : join(projectDir, d)));
    else if (extra !== undefined) warnings.push(`${path}: "permissions.additionalDirectories" must be a list of directories such as ["../shared"]; it was ignored`);
    out.push({ scope: "claude", path, settings: { permissions } });
  }
  return { scopes: out, ...(effortLevel ? { effortLevel } : {}) };
}
