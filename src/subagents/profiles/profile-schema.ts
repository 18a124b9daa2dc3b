/**
 * The zod schema of an agent profile's front matter (SPEC §4) and the field parsers behind it:
 * `name`, `description`, `tools`, `model`, `thinking`, `timeout`, `maxTurns`, `maxTokens`, `maxCostUsd`. Every failure
 * message names what is wrong and how to write it instead.
 */
import { z } from "zod";
import { editDistance as distance } from "../../protocol/edit-distance.js";
import { parseThinking, parseTimeout, show, type FieldResult } from "../../protocol/field-parsers.js";
import { parseCostBudget, parseTokenBudget } from "../../protocol/field-parsers.js";
export { MAX_TIMEOUT_MS, MIN_THINKING_BUDGET, MIN_TIMEOUT_MS, parseDuration, parseThinking, parseTimeout, THINKING_BUDGETS } from "../../protocol/field-parsers.js";

/** Allowed profile names: lowercase letters, digits, `-` and `_`, starting with a letter or digit. */
export const PROFILE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The front-matter keys a profile may use. */
export const PROFILE_KEYS = ["name", "description", "tools", "model", "thinking", "timeout", "maxTurns", "maxTokens", "maxCostUsd", "disallowedTools", "color", "worktree", "isolation", "background", "mcpServers", "skills", "permissionMode", "effort", "memory", "hooks"] as const;

/** Claude Code agent fields Ink reads but does not act on: each is named once in the profile's warnings. */
export const UNSUPPORTED_KEYS = ["memory", "hooks"] as const;


/** A zod field whose value is produced by a hand-written parser with its own messages. */
function field<T>(parse: (value: unknown) => FieldResult<T>) {
  return z.unknown().transform((value, ctx): T => {
    const result = parse(value);
    if (result.ok) return result.value;
    ctx.addIssue({ code: "custom", message: result.message });
    return z.NEVER;
  });
}

/**
 * `tools`: a comma-separated string (MCP tool names pass: `mcp__server__tool`) ("read, grep") or a
 * YAML list (flow `["Read", "Grep"]` or block); at least one name, except that an empty list
 * (`tools: []`) means no tools. A flow list read as text (front matter read line by line) is split too.
 */
export function parseTools(value: unknown): FieldResult<string[]> {
  const hint = 'write e.g. `tools: read, grep` or a YAML list; omit `tools` to give the agent every tool, or write `tools: []` for none';
  let parts: unknown[];
  if (Array.isArray(value) && value.length === 0) return { ok: true, value: [] };
  const flow = typeof value === "string" ? /^\[(.*)\]$/s.exec(value.trim()) : null;
  if (flow) parts = flow[1]!.split(",").map((p) => p.trim().replace(/^(["'])(.*)\1$/, "$2"));
  else if (typeof value === "string") parts = value.split(",");
  else if (Array.isArray(value)) parts = value;
  else return { ok: false, message: `must be a comma-separated string or a list of tool names, got ${show(value)}; ${hint}` };
  const names: string[] = [];
  for (const part of parts) {
    if (typeof part !== "string") return { ok: false, message: `tool names must be strings, got ${show(part)}; ${hint}` };
    const name = part.trim();
    if (name === "") continue;
    if (!/^[A-Za-z0-9_-]+$/.test(name)) {
      return { ok: false, message: `"${name}" is not a tool name (letters, digits, "-" and "_" only); ${hint}` };
    }
    if (!names.includes(name)) names.push(name);
  }
  if (names.length === 0 && !flow) return { ok: false, message: `lists no tool names; ${hint}` };
  return { ok: true, value: names };
}

/** `skills`: skill names, a comma-separated string or a YAML list. */
export function parseSkillNames(value: unknown): FieldResult<string[]> {
  const hint = "write e.g. `skills: pdf-forms, changelog` or a YAML list of skill names";
  const parts = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : undefined;
  if (parts === undefined || parts.some((p) => typeof p !== "string")) return { ok: false, message: `must be skill names, got ${show(value)}; ${hint}` };
  const names = [...new Set((parts as string[]).map((p) => p.trim()).filter((p) => p !== ""))];
  return names.length === 0 ? { ok: false, message: `lists no skill names; ${hint}` } : { ok: true, value: names };
}

/** `name`: required, matching PROFILE_NAME_PATTERN. */
export function parseName(value: unknown): FieldResult<string> {
  if (value === undefined || value === null) return { ok: false, message: "is required; add e.g. `name: scout`" };
  if (typeof value !== "string") return { ok: false, message: `must be a string, got ${show(value)}; write e.g. \`name: scout\`` };
  const name = value.trim();
  if (PROFILE_NAME_PATTERN.test(name)) return { ok: true, value: name };
  const suggestion = name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+|-+$/g, "").slice(0, 64);
  const tip = suggestion !== "" && PROFILE_NAME_PATTERN.test(suggestion) ? ` such as "${suggestion}"` : "";
  return {
    ok: false,
    message: `${show(value)} is not a valid name; use 1-64 lowercase letters, digits, "-" or "_", starting with a letter or digit${tip}`,
  };
}

/** `description`: required, non-empty. */
export function parseDescription(value: unknown): FieldResult<string> {
  const example = "`description: Finds where something lives in the code`";
  if (value === undefined || value === null) return { ok: false, message: `is required; add e.g. ${example}` };
  if (typeof value !== "string") return { ok: false, message: `must be a string, got ${show(value)}` };
  const text = value.trim();
  return text === "" ? { ok: false, message: `is empty; write e.g. ${example}` } : { ok: true, value: text };
}

/** `model`: a non-empty model id. */
export function parseModel(value: unknown): FieldResult<string> {
  if (typeof value !== "string" || value.trim() === "") {
    return { ok: false, message: `must be a model id such as "claude-sonnet-4-5", got ${show(value)}; remove the line to use the parent's model` };
  }
  return { ok: true, value: value.trim() };
}

/** `maxTurns`: a positive integer. */
export function parseMaxTurns(value: unknown): FieldResult<number> {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return { ok: true, value };
  return { ok: false, message: `must be a positive integer (e.g. \`maxTurns: 30\`), got ${show(value)}` };
}

/** The known key an unknown one was probably meant to be. */
export function suggestKey(key: string): string | undefined {
  const squashed = key.toLowerCase().replace(/[_-]/g, "");
  if (squashed === "timeoutms") return "timeout";
  for (const known of PROFILE_KEYS) {
    if (known.toLowerCase() === squashed || distance(key.toLowerCase(), known.toLowerCase()) <= 2) return known;
  }
  return undefined;
}

/**
 * The warning for front-matter keys that are not profile fields (Claude Code adds fields over
 * time; a file written for a newer version still loads): each key is named, with the known key it
 * was probably meant to be.
 */
export function unknownKeysWarning(keys: readonly string[]): string {
  const described = keys.map((key) => {
    const suggestion = suggestKey(key);
    return suggestion === undefined ? `"${key}"` : `"${key}" (did you mean "${suggestion}"?)`;
  });
  const one = keys.length === 1;
  return `unknown key${one ? "" : "s"} ${described.join(", ")} ${one ? "was" : "were"} ignored; keys Ink reads: ${PROFILE_KEYS.join(", ")}`;
}

/** Front-matter keys of `data` that are not profile fields. */
export function unknownKeys(data: object): string[] {
  return Object.keys(data).filter((k) => !(PROFILE_KEYS as readonly string[]).includes(k));
}

/** `permissionMode`: Claude Code's names (and Ink's) → the mode a child of the agent runs in. */
export const PROFILE_PERMISSION_MODES: Readonly<Record<string, "default" | "plan" | "accept-edits" | "yolo" | "dont-ask">> = {
  default: "default",
  plan: "plan",
  acceptEdits: "accept-edits",
  "accept-edits": "accept-edits",
  bypassPermissions: "yolo",
  yolo: "yolo",
  dontAsk: "dont-ask",
  "dont-ask": "dont-ask",
};

/** The front matter of a profile, validated and converted (keys it does not know pass through: see unknownKeys). */
export const profileFrontMatterSchema = z.looseObject(
  {
    name: field(parseName),
    description: field(parseDescription),
    tools: field(parseTools).optional(),
    model: field(parseModel).optional(),
    thinking: field(parseThinking).optional(),
    timeout: field(parseTimeout).optional(),
    maxTurns: field(parseMaxTurns).optional(),
    /** Token budget of each of this agent's children (budget.ts): a number or "50k". */
    maxTokens: field(parseTokenBudget).optional(),
    /** Cost budget in USD of each of this agent's children. */
    maxCostUsd: field(parseCostBudget).optional(),
    /** Tool names removed from the child's pool. */
    disallowedTools: field(parseTools).optional(),
    /** Pane colour (Claude Code's `color:`): a colour name or #rrggbb (see paneColor; an unknown name is a warning). */
    color: z.string({ error: "must be a colour name such as cyan or #rrggbb" }).trim().optional(),
    /** Run the child in its own worktree by default (the call may override). */
    worktree: z.boolean({ error: "must be true or false" }).optional(),
    /** Claude Code's `isolation: worktree`: the same as `worktree: true`. */
    isolation: z.string({ error: "must be worktree (the only isolation Claude Code documents)" }).trim().optional(),
    /** Run the child in the background by default (the call may override). */
    background: z.boolean({ error: "must be true or false" }).optional(),
    /** Extra MCP servers for this agent's children only (same shape as settings.json's mcpServers). */
    /** Skills whose instructions go into this agent's children's system prompt (Claude Code's `skills:`). */
    skills: field(parseSkillNames).optional(),
    mcpServers: z.record(z.string(), z.unknown(), { error: "must be a map of server name to {command, args} or {type: http, url}" }).optional(),
    /** Claude Code's permission mode for this agent (PROFILE_PERMISSION_MODES); an unknown name is a warning. */
    permissionMode: z.string({ error: "must be a mode name such as plan, acceptEdits, bypassPermissions, dontAsk or default" }).trim().optional(),
    /** Claude Code's effort (low, medium, high): the thinking level when `thinking` is not set. */
    effort: field(parseThinking).optional(),
    /** Claude Code fields with no Ink equivalent yet: accepted, named in a warning. */
    memory: z.unknown().optional(),
    hooks: z.unknown().optional(),
  },
);

/** Validated front matter. */
export type ProfileFrontMatter = z.output<typeof profileFrontMatterSchema>;

/** The zod issues as one line, " | " between issues: "`timeout` must be at least 1000 ms ... | `name` is required ...". */
export function formatSchemaIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `\`${issue.path.map(String).join(".")}\` ${issue.message}`))
    .join(" | ");
}
