/**
 * Settings: `$INK_HOME/settings.json` (the user's) and, in a trusted project only,
 * `<project>/.ink/settings.json`. Both are JSON validated with zod; unknown keys are warnings
 * (named with the file and a suggestion), a bad value is a SettingsError naming the file, the key
 * and the fix. Permission rules are kept per scope (deny > ask > allow across every scope is the
 * permission layer's job); every other key takes the project's value over the user's, and
 * `sources` says which file each effective value came from. Endpoints, keys and MCP servers of an
 * untrusted project are never read: an untrusted project's file is not even opened. A project file
 * may not set `envPassthrough` (which secrets reach tools is the user's choice only), `sandbox` nor
 * `mcpServers` (a project's servers live in its `.mcp.json`); both are ignored with a warning.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { closestWord } from "../protocol/edit-distance.js";
import { parseCostBudget, parseThinking, parseTimeout, parseTokenBudget } from "../protocol/field-parsers.js";
import { claudeProjectRules } from "./claude-rules.js";

/** A value that one of the shared field parsers (with their own messages) must accept. */
function checkedBy(parse: (value: unknown) => { ok: true } | { ok: false; message: string }) {
  return (value: unknown, ctx: z.RefinementCtx) => {
    const result = parse(value);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.message });
  };
}

const RULE_LIST = 'must be a list of rules such as ["bash(git status*)", "edit(src/**)", "mcp__docs__*"]';

/** A permission rule list of one scope. */
export const permissionRulesSchema = z
  .object({
    allow: z.array(z.string(), { error: RULE_LIST }).optional(),
    ask: z.array(z.string(), { error: RULE_LIST }).optional(),
    deny: z.array(z.string(), { error: RULE_LIST }).optional(),
    /** Mode used when no --permission-mode is given. */
    defaultMode: z.enum(["default", "accept-edits", "plan", "yolo"]).optional(),
  })
  .strict();

export type PermissionRules = z.infer<typeof permissionRulesSchema>;

/** Every key a settings file may hold. */
export const settingsSchema = z
  .object({
    /** Default model id. */
    model: z.string().trim().min(1, 'must be a model id such as "claude-sonnet-4-5"; remove the key for the provider\'s default').optional(),
    /** Default provider. */
    provider: z.enum(["anthropic", "demo"]).optional(),
    /** Extended thinking: off | low | medium | high | a token budget. */
    thinking: z.union([z.string(), z.number(), z.boolean()], { error: 'must be off, low, medium, high or a token budget ≥ 1024, e.g. "thinking": "medium"' }).superRefine(checkedBy(parseThinking)).optional(),
    /** Subagents running at once. */
    maxChildren: z.number({ error: 'must be a whole number from 1 to 64, e.g. "maxChildren": 4' }).int('must be a whole number from 1 to 64, e.g. "maxChildren": 4').min(1, "must be at least 1 (one subagent at a time)").max(64, "must be at most 64").optional(),
    /** Headless limit for each subagent: ms, or "90s" / "5m" / "1h". */
    childTimeout: z.union([z.number(), z.string()], { error: 'must be milliseconds (e.g. 600000) or a duration such as "90s", "5m" or "1h"' }).superRefine(checkedBy(parseTimeout)).optional(),
    /** How long a subagent may stay paused on rate limits / overload / lost connections in all before it fails: ms or "30m". */
    childPauseLimit: z.union([z.number(), z.string()], { error: 'must be milliseconds (e.g. 1800000) or a duration such as "90s", "30m" or "1h"' }).superRefine(checkedBy(parseTimeout)).optional(),
    /** Token budget of the whole session tree (the main agent and every child): a number or "500k". */
    maxTokens: z.union([z.number(), z.string()], { error: 'must be a number of tokens such as 500000 or "500k"' }).superRefine(checkedBy(parseTokenBudget)).optional(),
    /** Cost budget in USD of the whole session tree: a number or "$5". */
    maxCostUsd: z.union([z.number(), z.string()], { error: 'must be an amount in US dollars such as 5 or "$5"' }).superRefine(checkedBy(parseCostBudget)).optional(),
    permissions: permissionRulesSchema.optional(),
    /** MCP servers by name; each entry is validated by the MCP layer. */
    mcpServers: z.record(z.string(), z.unknown(), { error: 'must be an object of servers by name, e.g. {"docs": {"command": "npx", "args": ["my-mcp-server"]}}' }).optional(),
    /** Colour theme of the terminal UI. */
    theme: z.enum(["dark", "light", "auto"]).optional(),
    /** Draw the TUI inline (in the terminal's scrollback) instead of full-screen. */
    inline: z.boolean({ error: "must be true or false" }).optional(),
    /** Full-screen: the mouse wheel scrolls the transcript (default true; false leaves the mouse to the terminal). */
    mouse: z.boolean({ error: "must be true or false" }).optional(),
    /** Hooks in Claude Code's format (event → [{matcher, hooks: [{type: "command", command, timeout}]}]); checked by src/hooks/config.ts. */
    hooks: z.record(z.string(), z.unknown(), { error: 'must be an object of hook events, e.g. {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}' }).optional(),
    /** Also start the MCP servers of Claude Code's ~/.claude.json (user settings only). */
    claudeMcpServers: z.boolean({ error: "must be true or false" }).optional(),
    /** Terminal notifications when a child ends or waits for an approval and when a long run ends: off, bell (BEL, the default) or desktop (OSC 9/777 where the terminal shows them, else BEL). */
    notify: z.enum(["off", "bell", "desktop"], { error: 'must be "off", "bell" or "desktop", e.g. "notify": "desktop"' }).optional(),
    /** Environment variables (names, `*` wildcards allowed) that tools' processes may inherit although they look like secrets. User settings only. */
    envPassthrough: z.array(z.string(), { error: 'must be a list of variable names, e.g. ["GITHUB_TOKEN", "AWS_*"]' }).optional(),
    /** What unattended bash calls (yolo, background and worktree children) may also do: write these paths, keep the network. User settings only. */
    sandbox: z
      .object(
        {
          allowWrite: z
            .array(z.string().refine((p) => p.startsWith("/") || p.startsWith("~/"), { message: 'each path must be absolute or start with "~/", e.g. "~/.npm"' }), { error: 'must be a list of absolute paths, e.g. ["~/.npm", "/srv/cache"]' })
            .optional(),
          network: z.enum(["on", "off"], { error: 'must be "on" or "off", e.g. "network": "on"' }).optional(),
        },
        { error: 'must be an object such as {"allowWrite": ["~/.npm"], "network": "on"}' },
      )
      .strict()
      .optional(),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
export type SettingsKey = keyof Settings;

/** Where a value came from; "claude": a trusted project's `.claude/settings*.json` (permission rules only). */
export type SettingsScope = "user" | "project" | "claude";

/** Thrown for a settings file that cannot be used; the message names the file and the fix. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
}

/** One file's settings. */
export interface ScopedSettings {
  scope: SettingsScope;
  path: string;
  settings: Settings;
}

/** The settings in force. */
export interface LoadedSettings {
  /** Project values over user values (permissions: see `scopes`). */
  effective: Settings;
  /** For each key set in `effective`, the file it came from. */
  sources: Partial<Record<SettingsKey, string>>;
  /** Every file that was read, user first. */
  scopes: ScopedSettings[];
  /** Unknown keys and ignored values, one line each, naming the file. */
  warnings: string[];
}

/** The user's settings file. */
export function userSettingsPath(inkHome: string): string {
  return join(inkHome, "settings.json");
}

/** A project's settings file. */
export function projectSettingsPath(projectDir: string): string {
  return join(projectDir, ".ink", "settings.json");
}

const KNOWN_KEYS = Object.keys(settingsSchema.shape) as SettingsKey[];

/** Reads and validates one settings file; undefined when it does not exist. */
export function readSettingsFile(path: string, scope: SettingsScope, warnings: string[]): ScopedSettings | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new SettingsError(`${path}: cannot read settings (${code ?? String(err)}); fix its permissions or remove it`);
  }
  if (text.trim() === "") return { scope, path, settings: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${path}: not valid JSON (${(err as Error).message}); fix the file or remove it`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new SettingsError(`${path}: settings must be a JSON object like {"permissions": {"allow": ["bash(git status*)"]}}`);
  const record = { ...(raw as Record<string, unknown>) };
  for (const key of Object.keys(record)) {
    if ((KNOWN_KEYS as string[]).includes(key)) continue;
    const near = closestWord(key, KNOWN_KEYS);
    warnings.push(`${path}: unknown setting "${key}" ignored${near ? ` (did you mean "${near}"?)` : ""}; known settings: ${KNOWN_KEYS.join(", ")}`);
    delete record[key];
  }
  if (scope === "project" && record.mcpServers !== undefined) {
    warnings.push(`${path}: "mcpServers" is ignored in a project's settings; put the project's MCP servers in .mcp.json beside it (Claude Code's format), or yours in ${"$INK_HOME"}/settings.json`);
    delete record.mcpServers;
  }
  if (scope === "project" && record.claudeMcpServers !== undefined) {
    warnings.push(`${path}: "claudeMcpServers" is ignored in a project's settings (only ${"$INK_HOME"}/settings.json may turn on your ~/.claude.json servers)`);
    delete record.claudeMcpServers;
  }
  if (scope === "project" && record.envPassthrough !== undefined) {
    warnings.push(`${path}: "envPassthrough" is ignored in a project's settings (only ${"$INK_HOME"}/settings.json may pass secrets to tools)`);
    delete record.envPassthrough;
  }
  if (scope === "project" && record.sandbox !== undefined) {
    warnings.push(`${path}: "sandbox" is ignored in a project's settings (only ${"$INK_HOME"}/settings.json may widen what unattended commands can write and reach)`);
    delete record.sandbox;
  }
  const parsed = settingsSchema.safeParse(record);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `"${i.path.join(".") || "(root)"}": ${i.message}`);
    throw new SettingsError(`${path}: invalid settings — ${problems.join("; ")}. Fix the value (see README "Settings") or remove the key.`);
  }
  return { scope, path, settings: parsed.data };
}

export interface LoadSettingsOptions {
  inkHome: string;
  /** The project directory (the working directory). */
  projectDir: string;
  /** Read the project's `.ink/settings.json` (only when the project is trusted). */
  trusted: boolean;
}

/** Loads the user's and (when trusted) the project's settings. Throws SettingsError for an unusable file. */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const warnings: string[] = [];
  const scopes: ScopedSettings[] = [];
  const user = readSettingsFile(userSettingsPath(options.inkHome), "user", warnings);
  if (user) scopes.push(user);
  if (options.trusted) {
    const project = readSettingsFile(projectSettingsPath(options.projectDir), "project", warnings);
    if (project) scopes.push(project);
    scopes.push(...claudeProjectRules(options.projectDir, warnings));
  }
  const effective: Record<string, unknown> = {};
  const sources: Partial<Record<SettingsKey, string>> = {};
  for (const scoped of scopes) {
    for (const [key, value] of Object.entries(scoped.settings)) {
      if (value === undefined || key === "permissions") continue;
      effective[key] = value;
      sources[key as SettingsKey] = scoped.path;
    }
  }
  const withRules = scopes.filter((s) => s.settings.permissions);
  if (withRules.length > 0) {
    effective.permissions = {
      allow: withRules.flatMap((s) => s.settings.permissions!.allow ?? []),
      ask: withRules.flatMap((s) => s.settings.permissions!.ask ?? []),
      deny: withRules.flatMap((s) => s.settings.permissions!.deny ?? []),
      defaultMode: withRules.map((s) => s.settings.permissions!.defaultMode).filter((m) => m !== undefined).pop(),
    };
    sources.permissions = withRules.map((s) => s.path).join(" + ");
  }
  return { effective: effective as Settings, sources, scopes, warnings };
}
