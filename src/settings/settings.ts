/**
 * Settings: `$INK_HOME/settings.json` (the user's) and, in a trusted project only,
 * `<project>/.ink/settings.json`; beside them Claude Code's permission rules (claude-rules.ts). Both are JSON validated with zod; unknown keys are warnings
 * (named with the file and a suggestion), a bad value is a SettingsError naming the file, the key
 * and the fix. Permission rules are kept per scope (deny > ask > allow across every scope is the
 * permission layer's job); every other key takes the project's value over the user's, and
 * `sources` says which file each effective value came from. Endpoints, keys and MCP servers of an
 * untrusted project are never read: an untrusted project's file is not even opened. A project file
 * may not set `envPassthrough` (which secrets reach tools is the user's choice only), `sandbox` nor
 * `mcpServers` (a project's servers live in its `.mcp.json`); both are ignored with a warning.
 */
import { parseJsonAt } from "./json-error.js";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { closestWord } from "../protocol/edit-distance.js";
import { claudeProjectSettings, claudeUserRules } from "./claude-rules.js";
import { claudeHomeDir } from "./paths.js";
import { settingsSchema, type ScopedSettings, type Settings, type SettingsKey, type SettingsScope } from "./settings-schema.js";

export { permissionRulesSchema, settingsSchema } from "./settings-schema.js";
export type { PermissionRules, ScopedSettings, Settings, SettingsKey, SettingsScope } from "./settings-schema.js";

/** Thrown for a settings file that cannot be used; the message names the file and the fix. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
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
  /** Claude Code's `effortLevel` from a trusted project's files (the local one wins): the effort a model that takes one gets when no thinking level is set. */
  effortLevel?: string;
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
    raw = parseJsonAt(text);
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
    throw new SettingsError(`${path}: invalid settings — ${problems.join("; ")}. Fix the value (see docs/settings.md) or remove the key.`);
  }
  return { scope, path, settings: parsed.data };
}

export interface LoadSettingsOptions {
  inkHome: string;
  /** The project directory (the working directory). */
  projectDir: string;
  /** Read the project's `.ink/settings.json` (only when the project is trusted). */
  trusted: boolean;
  /** Claude Code's home, whose `settings.json` permission rules are read first (default `$INK_CLAUDE_HOME`, else `~/.claude`). */
  claudeHome?: string;
}

/** Loads the user's and (when trusted) the project's settings. Throws SettingsError for an unusable file. */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const warnings: string[] = [];
  const scopes: ScopedSettings[] = [];
  let effortLevel: string | undefined;
  // Claude Code's user rules come first, the lowest precedence (not when its home is Ink's own, as some setups point it).
  const claudeHome = resolve(options.claudeHome ?? claudeHomeDir());
  if (join(claudeHome, "settings.json") !== resolve(userSettingsPath(options.inkHome))) scopes.push(...claudeUserRules(claudeHome, options.projectDir, warnings));
  const user = readSettingsFile(userSettingsPath(options.inkHome), "user", warnings);
  if (user) scopes.push(user);
  if (options.trusted) {
    const project = readSettingsFile(projectSettingsPath(options.projectDir), "project", warnings);
    if (project) scopes.push(project);
    const claude = claudeProjectSettings(options.projectDir, warnings);
    scopes.push(...claude.scopes);
    effortLevel = claude.effortLevel;
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
      ...(withRules.some((s) => s.settings.permissions!.additionalDirectories) ? { additionalDirectories: withRules.flatMap((s) => s.settings.permissions!.additionalDirectories ?? []) } : {}),
      // Any scope may turn yolo off; none turns it back on.
      ...(withRules.some((s) => s.settings.permissions!.disableBypassPermissionsMode === "disable") ? { disableBypassPermissionsMode: "disable" as const } : {}),
    };
    sources.permissions = withRules.map((s) => s.path).join(" + ");
  }
  return { effective: effective as Settings, sources, scopes, warnings, ...(effortLevel ? { effortLevel } : {}) };
}
