/**
 * Parsing one Agent Skill (the open SKILL.md format): YAML front matter with `name` and
 * `description` (required) and an optional `allowed-tools`, then the Markdown instructions. Other
 * keys of the format (license, metadata, compatibility, …) are accepted and ignored. Only YAML
 * front matter is read — gray-matter's JavaScript engine would evaluate code from the file.
 */
import { isLooseTextError, lineFrontMatter, parseYamlFrontMatter, yamlErrorLine } from "../context/front-matter.js";
import { errorMessage } from "../protocol/error-message.js";

/**
 * Where a skill came from: `<project>/.ink/skills`, `.claude/skills`, `.agents/skills` (project,
 * trusted only), or the user's `$INK_HOME/skills`, `~/.claude/skills`, `~/.agents/skills`.
 */
export type SkillSource = "project" | "claude-project" | "agents-project" | "user" | "claude-user" | "agents-user";

/** A loaded skill. Its body reaches the model only when used (the `skill` tool) or preloaded by a profile. */
export interface Skill {
  name: string;
  description: string;
  /** `allowed-tools` as written (shown; Ink's approval rules still decide every call). */
  allowedTools?: string[];
  /** `disable-model-invocation: true` (Claude Code): the model is not told of it and cannot load it; a profile's `skills:` still preloads it. */
  disableModelInvocation?: boolean;
  /** The Markdown instructions (trimmed). */
  body: string;
  /** The skill's folder (files beside SKILL.md live here). */
  dir: string;
  /** Absolute path of SKILL.md. */
  path: string;
  source: SkillSource;
}

/** Skill names: letters, digits, `-`, `_` and `.`, starting with a letter or digit, at most 64. */
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const FORMAT_HINT = "a SKILL.md starts with a `---` line, then YAML with `name:` and `description:`, then a closing `---` line and the instructions";

/** The front-matter keys of a SKILL.md (only these open a field when it is read line by line). */
const SKILL_KEYS = ["name", "description", "allowed-tools", "license", "metadata", "model", "version", "disable-model-invocation"];

/** `allowed-tools`: a comma/space separated string or a YAML list of strings. */
function parseAllowedTools(value: unknown): string[] | string {
  const parts = typeof value === "string" ? value.split(/[,\s]+(?![^()]*\))/) : Array.isArray(value) ? value : undefined;
  if (parts === undefined || parts.some((p) => typeof p !== "string")) return "`allowed-tools` must be a comma-separated string or a list of tool names";
  return (parts as string[]).map((p) => p.trim()).filter((p) => p !== "");
}

/**
 * Parses the text of one SKILL.md. Contract: never throws; a malformed file yields a reason naming
 * the field (or the YAML error) and how to fix it.
 */
export function parseSkill(raw: string, origin: { path: string; dir: string; source: SkillSource }): { ok: true; skill: Skill } | { ok: false; reason: string } {
  const text = raw.replace(/^\uFEFF/, "");
  if (!/^---[^\S\r\n]*\r?\n/.test(text)) return { ok: false, reason: `no front matter: ${FORMAT_HINT}` };
  if (!/\r?\n---[^\S\r\n]*(\r?\n|$)/.test(text.slice(3))) return { ok: false, reason: `the front matter is never closed: add a \`---\` line after the YAML; ${FORMAT_HINT}` };
  let data: unknown;
  let content: string;
  try {
    ({ data, content } = parseYamlFrontMatter(text));
  } catch (error) {
    // Skills in the wild carry unquoted descriptions with `: ` in them, as agent files do: read them line by line.
    const lines = isLooseTextError(error) ? lineFrontMatter(text, SKILL_KEYS) : undefined;
    if (lines === undefined || typeof lines.data.name !== "string" || typeof lines.data.description !== "string") return { ok: false, reason: `invalid YAML front matter: ${yamlErrorLine(error)}; ${FORMAT_HINT}` };
    ({ data, content } = lines);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return { ok: false, reason: `front matter is not a set of \`key: value\` lines; ${FORMAT_HINT}` };
  const fields = data as Record<string, unknown>;
  const name = fields.name;
  if (name === undefined || name === null) return { ok: false, reason: "`name` is required; add e.g. `name: pdf-forms` (the folder's name)" };
  if (typeof name !== "string" || !SKILL_NAME_PATTERN.test(name.trim())) {
    return { ok: false, reason: `\`name\` ${JSON.stringify(name)} is not a valid skill name; use 1-64 letters, digits, "-", "_" or ".", starting with a letter or digit` };
  }
  const description = fields.description;
  if (typeof description !== "string" || description.trim() === "") {
    return { ok: false, reason: "`description` is required and must be text; add e.g. `description: Fills in PDF forms. Use when the user asks to fill a PDF.`" };
  }
  const skill: Skill = { name: name.trim(), description: description.trim(), body: content.trim(), dir: origin.dir, path: origin.path, source: origin.source };
  if (fields["allowed-tools"] !== undefined) {
    const tools = parseAllowedTools(fields["allowed-tools"]);
    if (typeof tools === "string") return { ok: false, reason: tools };
    skill.allowedTools = tools;
  }
  const hidden = fields["disable-model-invocation"];
  if (hidden !== undefined && typeof hidden !== "boolean") return { ok: false, reason: `\`disable-model-invocation\` must be true or false, got ${JSON.stringify(hidden)}` };
  if (hidden === true) skill.disableModelInvocation = true;
  return { ok: true, skill };
}

/** The skills the model may see and load (not those with `disable-model-invocation: true`). */
export function modelSkills(skills: readonly Skill[]): Skill[] {
  return skills.filter((s) => s.disableModelInvocation !== true);
}
