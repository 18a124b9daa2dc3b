/**
 * Parsing one agent profile file: YAML front matter (gray-matter) validated by the zod schema,
 * and the trimmed markdown body as the profile's system text. Only YAML front matter is
 * accepted — gray-matter's JavaScript engine would evaluate code from the file.
 */
import { isLooseTextError, lineFrontMatter, parseYamlFrontMatter, yamlErrorLine } from "../../context/front-matter.js";
import type { ThinkingConfig } from "../../protocol/provider.js";
import { CLAUDE_MODEL_ALIASES } from "../../protocol/model-catalog.js";
import { formatSchemaIssues, PROFILE_KEYS, PROFILE_PERMISSION_MODES, profileFrontMatterSchema, unknownKeys, unknownKeysWarning, UNSUPPORTED_KEYS } from "./profile-schema.js";
import { errorMessage } from "../../protocol/error-message.js";

/**
 * Where a profile came from: the project's `.ink/agents/`, the user's `$INK_HOME/agents/`, or
 * Claude Code's `.claude/agents/` (project) and `~/.claude/agents/` (user).
 */
export type ProfileSource = "project" | "user" | "claude-project" | "claude-user";

/** Claude Code's tool names → Ink's. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = { Read: "read", Grep: "grep", Glob: "find", LS: "ls", Edit: "edit", MultiEdit: "edit", Write: "write", Bash: "bash", Skill: "skill" };

/** Claude Code's model aliases → the offline table's ids (`inherit` = the parent's model); at dispatch an alias is the newest of its line the provider lists. */
export { CLAUDE_MODEL_ALIASES };

const INK_TOOL_NAMES = ["read", "bash", "grep", "find", "ls", "edit", "write", "skill"];

/** Terminal colour names a pane can use (the UI's named colours). */
export const PANE_COLORS = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "gray", "grey", "blackBright", "redBright", "greenBright", "yellowBright", "blueBright", "magentaBright", "cyanBright", "whiteBright"] as const;

/** Claude Code's agent colours that are not terminal colour names, as the nearest colour. */
const CLAUDE_COLORS: Readonly<Record<string, string>> = { purple: "magenta", orange: "#ff8700", pink: "#ff5fd7" };

/**
 * The pane colour for a profile's `color:` — a terminal colour name (any case), one of Claude
 * Code's `purple`/`orange`/`pink`, or `#rrggbb` — or undefined when it is none of these.
 */
export function paneColor(value: string): string | undefined {
  if (/^#[0-9a-fA-F]{6}$/.test(value)) return value.toLowerCase();
  const lower = value.toLowerCase();
  return PANE_COLORS.find((c) => c.toLowerCase() === lower) ?? CLAUDE_COLORS[lower];
}

/** Maps a Claude Code tool list; unknown names are skipped with a warning naming the file. */
export function mapClaudeTools(names: readonly string[], path: string, key: string, warnings: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const mapped = name.startsWith("mcp__") || INK_TOOL_NAMES.includes(name) ? name : CLAUDE_TOOL_NAMES[name];
    if (mapped === undefined) {
      const why = name === "Task" ? "subagents do not delegate further in Ink" : `Ink tools: ${INK_TOOL_NAMES.join(", ")}, plus mcp__<server>__<tool>`;
      warnings.push(`${path}: ${key} "${name}" has no Ink equivalent and was skipped (${why})`);
      continue;
    }
    if (!out.includes(mapped)) out.push(mapped);
  }
  return out;
}

/** A loaded agent profile (SPEC §4). */
export interface AgentProfile {
  name: string;
  description: string;
  /** Tool names the agent may use; undefined = every tool of the parent except `task`. */
  tools?: string[];
  model?: string;
  /** The alias `model:` was written as (`opus`, …): at dispatch it becomes the newest of its line the provider lists; `model` holds the offline table's id. */
  modelAlias?: string;
  thinking?: ThinkingConfig;
  timeoutMs?: number;
  maxTurns?: number;
  /** Budget of each child of this agent (budget.ts); the task call's own arguments win. */
  maxTokens?: number;
  maxCostUsd?: number;
  /** Tool names removed from the child's pool. */
  disallowedTools?: string[];
  /** Pane colour. */
  color?: string;
  /** `worktree:` default for this agent's children (the task call may override). */
  worktree?: boolean;
  /** `background:` default for this agent's children (the task call may override). */
  background?: boolean;
  /** Extra MCP servers for this agent's children (unvalidated; the MCP layer checks each entry). */
  mcpServers?: Record<string, unknown>;
  /**
   * The mode this agent's children run in (front matter `permissionMode`, Claude Code's names mapped):
   * `plan` read-only tools only; `accept-edits` edits and writes in the working directory without
   * asking; `yolo` (bypassPermissions) what yolo allows; `dont-ask` a call that would ask is refused.
   * A session in plan mode keeps its children in plan; a session in yolo keeps them in yolo.
   */
  permissionMode?: "plan" | "accept-edits" | "yolo" | "dont-ask";
  /** Skill names to preload (front matter `skills:`). */
  skills?: string[];
  /** The preloaded skills' instructions, resolved at start-up (see preloadProfileSkills); they go into the child's system prompt. */
  preloadedSkills?: Array<{ name: string; body: string }>;
  /** Non-fatal problems met while reading the file (e.g. an unmapped Claude Code tool). */
  warnings?: string[];
  /** The markdown body (trimmed): appended to the child's system prompt. May be empty. */
  body: string;
  /** Absolute path of the file. */
  path: string;
  source: ProfileSource;
  /** sha256 (hex) of the raw file. */
  hash: string;
}

/** A parsed profile, or why the file is not one. */
export type ProfileParse = { ok: true; profile: AgentProfile } | { ok: false; reason: string };

/** Where the text came from, carried into the profile. */
export interface ProfileOrigin {
  path: string;
  source: ProfileSource;
  hash: string;
}

const FORMAT_HINT = "a profile starts with a `---` line, then YAML with at least `name:` and `description:`, then a closing `---` line";

/**
 * Parses the text of one profile file. Contract: never throws; a malformed file yields a reason
 * naming the field (or the YAML error) and how to fix it.
 */
export function parseProfile(raw: string, origin: ProfileOrigin): ProfileParse {
  const text = raw.replace(/^\uFEFF/, "");
  if (!/^---[^\S\r\n]*\r?\n/.test(text) && !/^---[a-z]+[^\S\r\n]*\r?\n/i.test(text)) {
    return { ok: false, reason: `no front matter: ${FORMAT_HINT}` };
  }
  if (!/\r?\n---[^\S\r\n]*(\r?\n|$)/.test(text.slice(3))) {
    return { ok: false, reason: `the front matter is never closed: add a \`---\` line after the YAML; ${FORMAT_HINT}` };
  }
  let data: unknown;
  let content: string;
  let yamlError: string | undefined;
  const warnings: string[] = [];
  try {
    ({ data, content } = parseYamlFrontMatter(text));
  } catch (error) {
    // Agent files in the wild often carry an unquoted description with `: ` or `<example>` blocks,
    // which is not valid YAML; Claude Code reads them, so read them line by line too, and say how to fix them.
    const fix = "quote the value, or write it as a block (`description: >` with the text indented on the next lines)";
    const lenient = isLooseTextError(error) ? lineFrontMatter(text, PROFILE_KEYS) : undefined;
    if (lenient === undefined) return { ok: false, reason: `invalid YAML front matter: ${yamlErrorLine(error)}; ${FORMAT_HINT}` };
    yamlError = `invalid YAML front matter: ${yamlErrorLine(error)}; ${fix}`;
    ({ data, content } = lenient);
    warnings.push(`${origin.path}: its front matter is not valid YAML (${yamlErrorLine(error)}); read it line by line instead — to fix it, ${fix}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, reason: `front matter is not a set of \`key: value\` lines; ${FORMAT_HINT}` };
  }
  const parsed = profileFrontMatterSchema.safeParse(data);
  if (!parsed.success) return { ok: false, reason: yamlError ?? `invalid front matter: ${formatSchemaIssues(parsed.error.issues)}` };
  const fields = parsed.data;
  const profile: AgentProfile = {
    name: fields.name,
    description: fields.description,
    body: content.trim(),
    path: origin.path,
    source: origin.source,
    hash: origin.hash,
  };
  if (fields.tools !== undefined) profile.tools = fields.tools;
  if (fields.model !== undefined) profile.model = fields.model;
  if (fields.thinking !== undefined) profile.thinking = fields.thinking;
  else if (fields.effort !== undefined) profile.thinking = fields.effort;
  if (fields.timeout !== undefined) profile.timeoutMs = fields.timeout;
  if (fields.maxTurns !== undefined) profile.maxTurns = fields.maxTurns;
  if (fields.maxTokens !== undefined) profile.maxTokens = fields.maxTokens;
  if (fields.maxCostUsd !== undefined) profile.maxCostUsd = fields.maxCostUsd;
  if (fields.disallowedTools !== undefined) profile.disallowedTools = fields.disallowedTools;
  if (fields.color !== undefined) {
    const color = paneColor(fields.color);
    if (color !== undefined) profile.color = color;
    else warnings.push(`${origin.path}: color "${fields.color}" is not a colour the pane can show and was ignored (use ${PANE_COLORS.slice(0, 8).join(", ")}, a …Bright variant, purple, orange, pink or #rrggbb)`);
  }
  if (fields.worktree !== undefined) profile.worktree = fields.worktree;
  if (fields.isolation !== undefined) {
    if (fields.isolation === "worktree") profile.worktree ??= true;
    else warnings.push(`${origin.path}: isolation "${fields.isolation}" is not one Ink has and was ignored (only \`isolation: worktree\`, a child in its own git worktree)`);
  }
  if (fields.background !== undefined) profile.background = fields.background;
  if (fields.mcpServers !== undefined) profile.mcpServers = fields.mcpServers;
  const mode = fields.permissionMode === undefined ? undefined : PROFILE_PERMISSION_MODES[fields.permissionMode];
  if (mode !== undefined && mode !== "default") profile.permissionMode = mode;
  else if (mode === undefined && fields.permissionMode !== undefined) warnings.push(`${origin.path}: permissionMode "${fields.permissionMode}" is not a mode Ink knows and was ignored (use default, plan, acceptEdits, bypassPermissions or dontAsk)`);
  const unknown = unknownKeys(data);
  if (unknown.length > 0) warnings.push(`${origin.path}: ${unknownKeysWarning(unknown)}`);
  const unsupported = UNSUPPORTED_KEYS.filter((k) => fields[k] !== undefined);
  if (unsupported.length > 0) warnings.push(`${origin.path}: ${unsupported.join(", ")} ${unsupported.length === 1 ? "has" : "have"} no Ink equivalent yet and ${unsupported.length === 1 ? "was" : "were"} ignored`);
  if (fields.skills !== undefined) profile.skills = fields.skills;
  if (origin.source === "claude-project" || origin.source === "claude-user") adaptClaude(profile, warnings);
  else if (profile.model !== undefined && CLAUDE_MODEL_ALIASES[profile.model] !== undefined) {
    profile.modelAlias = profile.model;
    profile.model = CLAUDE_MODEL_ALIASES[profile.model];
  }
  if (warnings.length) profile.warnings = warnings;
  return { ok: true, profile };
}

/** Claude Code's names → Ink's: tools, disallowedTools, and the model (`inherit` = none, aliases = ids). */
function adaptClaude(profile: AgentProfile, warnings: string[]): void {
  if (profile.tools && profile.tools.length > 0) {
    profile.tools = mapClaudeTools(profile.tools, profile.path, "tool", warnings);
    if (profile.tools.length === 0) warnings.push(`${profile.path}: none of its tools exist in Ink, so agent "${profile.name}" runs with no tools; list some of ${INK_TOOL_NAMES.join(", ")} or remove \`tools:\` to give it every tool`);
  }
  if (profile.disallowedTools) profile.disallowedTools = mapClaudeTools(profile.disallowedTools, profile.path, "disallowed tool", warnings);
  if (profile.model === "inherit") delete profile.model;
  else if (profile.model !== undefined && CLAUDE_MODEL_ALIASES[profile.model] !== undefined) {
    profile.modelAlias = profile.model;
    profile.model = CLAUDE_MODEL_ALIASES[profile.model];
  }
  else if (profile.model !== undefined && !profile.model.startsWith("claude-")) {
    warnings.push(`${profile.path}: model "${profile.model}" is neither a model id (claude-…) nor an alias Ink knows (${Object.keys(CLAUDE_MODEL_ALIASES).join(", ")}, inherit); agent "${profile.name}" runs on the parent's model`);
    delete profile.model;
  }
}

