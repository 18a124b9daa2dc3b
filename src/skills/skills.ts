/**
 * Discovering Agent Skills at start-up: every `<root>/<folder>/SKILL.md` of the project's
 * `.ink/skills`, `.claude/skills`, `.agents/skills` (only when the project is trusted) and the
 * user's `$INK_HOME/skills`, `~/.claude/skills`, `~/.agents/skills`. Ink's own folders win a name
 * clash over Claude Code's, which win over `.agents`; the project wins over the user within each.
 * A malformed skill is a problem (path + reason) and is skipped; nothing here throws.
 */
import { readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { join, resolve, sep } from "node:path";
import { readHead } from "../context/project-context.js";
import { errorMessage } from "../protocol/error-message.js";
import { agentsHomeDir } from "../settings/paths.js";
import type { ProfileProblem } from "../subagents/profiles/profile-files.js";
import { parseSkill, type Skill, type SkillSource } from "./skill-parse.js";

export type { Skill, SkillSource } from "./skill-parse.js";

/** What start-up got: usable skills (sorted by name), malformed ones, and notices for the person. */
export interface SkillLoad {
  skills: Skill[];
  problems: ProfileProblem[];
  notices: string[];
}

/** The project's skill folders, in rising precedence. */
export const PROJECT_SKILL_DIRS = [".agents/skills", ".claude/skills", ".ink/skills"] as const;

function realDir(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return resolve(dir);
  }
}

/** The SKILL.md files of one skills root (`<root>/<folder>/SKILL.md`, folders sorted); problems for what is not a skill. */
/** The characters of a SKILL.md read at most; a larger one is skipped (as cheaply as a small one is read). */
export const SKILL_MAX_CHARS = 256 * 1024;

/**
 * The SKILL.md files of one skills root (`<root>/<folder>/SKILL.md`, folders sorted); problems for
 * what is not a skill. Read as context files are: regular files only (a FIFO never blocks), only
 * the head; with `within` (a project's real root), a SKILL.md whose real path is outside it is refused.
 */
function readSkillRoot(root: string, source: SkillSource, problems: ProfileProblem[], within?: string): Skill[] {
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => !n.startsWith(".")).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") problems.push({ path: root, reason: `cannot read the skills folder: ${errorMessage(error)}; fix its permissions or remove it` });
    return [];
  }
  const skills: Skill[] = [];
  for (const name of names) {
    const dir = join(root, name);
    const path = join(dir, "SKILL.md");
    try {
      if (!statSync(dir).isDirectory()) {
        if (name.endsWith(".md")) problems.push({ path: dir, reason: `a skill is a folder holding SKILL.md; move this file to ${join(root, name.slice(0, -3), "SKILL.md")}` });
        continue;
      }
      let info: Stats;
      try {
        info = statSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") problems.push({ path: dir, reason: "this skill folder has no SKILL.md; add one (front matter `name:` and `description:`, then the instructions) or remove the folder" });
        else problems.push({ path, reason: `cannot read the file: ${errorMessage(error)}; fix its permissions or remove it` });
        continue;
      }
      if (!info.isFile()) {
        problems.push({ path, reason: "SKILL.md is not a regular file (a FIFO, device or folder); replace it with a file" });
        continue;
      }
      if (within !== undefined) {
        const real = realpathSync.native(path);
        if (real !== within && !real.startsWith(within.endsWith(sep) ? within : within + sep)) {
          problems.push({ path, reason: `SKILL.md resolves to ${real}, outside the project ${within}; a project's skills are read only from inside it — copy the file in or remove the link` });
          continue;
        }
      }
      const head = readHead(path, SKILL_MAX_CHARS);
      if (!head) {
        problems.push({ path, reason: "cannot read the file; fix its permissions or remove it" });
        continue;
      }
      if (head.partial || head.text.length > SKILL_MAX_CHARS) {
        problems.push({ path, reason: `SKILL.md is ${head.size} bytes, over the ${SKILL_MAX_CHARS / 1024} KB a skill may hold; shorten it (put details in files beside it that the skill names)` });
        continue;
      }
      const raw = head.text;
      const parsed = parseSkill(raw, { path, dir, source });
      if (!parsed.ok) problems.push({ path, reason: parsed.reason });
      else skills.push(parsed.skill);
    } catch (error) {
      problems.push({ path: dir, reason: `cannot read it: ${errorMessage(error)}` });
    }
  }
  return skills;
}

/** Inputs of `loadSkills`. */
export interface LoadSkillsOptions {
  cwd: string;
  inkHome: string;
  /** The project's gated files may be used (see project-setup.ts). */
  trusted: boolean;
  /** Claude Code's home (`~/.claude`). */
  claudeHome: string;
  /** The `~/.agents` home (default agentsHomeDir()). */
  agentsHome?: string;
}

/** Loads every skill. Contract: never throws; each unusable folder is a problem and the rest still load. */
export function loadSkills(opts: LoadSkillsOptions): SkillLoad {
  const out: SkillLoad = { skills: [], problems: [], notices: [] };
  const cwd = resolve(opts.cwd);
  const user: Array<[string, SkillSource]> = [
    [join(opts.agentsHome ?? agentsHomeDir(), "skills"), "agents-user"],
    [join(opts.claudeHome, "skills"), "claude-user"],
    [join(resolve(opts.inkHome), "skills"), "user"],
  ];
  const project: Array<[string, SkillSource]> = [
    [join(cwd, ".agents", "skills"), "agents-project"],
    [join(cwd, ".claude", "skills"), "claude-project"],
    [join(cwd, ".ink", "skills"), "project"],
  ];
  const userRoots = new Set(user.map(([dir]) => realDir(dir)));
  const layers: Skill[][] = [];
  let skipped = 0;
  for (let i = 0; i < 3; i++) {
    const [userDir, userSource] = user[i]!;
    const [projectDir, projectSource] = project[i]!;
    layers.push(readSkillRoot(userDir, userSource, out.problems));
    // When the project folder *is* a user folder (cwd = home), it is read once, as the user's.
    if (userRoots.has(realDir(projectDir))) continue;
    if (opts.trusted) layers.push(readSkillRoot(projectDir, projectSource, out.problems, realDir(cwd)));
    else skipped += countSkillFolders(projectDir);
  }
  if (skipped > 0) out.notices.push(`Skipped ${skipped} project skill(s) in ${PROJECT_SKILL_DIRS.join(", ")}: trust this project to load them (run with --trust, or accept the trust question in the TUI).`);
  // Rising precedence: agents-user, agents-project, claude-user, claude-project, user, project.
  const order: SkillSource[] = ["agents-user", "agents-project", "claude-user", "claude-project", "user", "project"];
  const all = layers.flat().sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source));
  const merged = new Map<string, Skill>();
  for (const skill of all) {
    const shadowed = merged.get(skill.name);
    if (shadowed !== undefined) out.notices.push(`Skill "${skill.name}" (${shadowed.source}: ${shadowed.path}) is shadowed by the ${skill.source} skill ${skill.path}.`);
    merged.set(skill.name, skill);
  }
  out.skills = [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

/** Folders holding a SKILL.md under `root` (nothing is parsed). */
function countSkillFolders(root: string): number {
  try {
    return readdirSync(root).filter((n) => {
      try {
        return statSync(join(root, n, "SKILL.md")).isFile();
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
}

/**
 * Resolves each profile's `skills:` against the loaded skills: their instructions go into the
 * profile (`preloadedSkills`, placed in the child's system prompt). An unknown name is skipped
 * with a notice naming the profile's file. Returns the notices.
 */
export function preloadProfileSkills(profiles: ReadonlyArray<{ name: string; path: string; skills?: string[]; preloadedSkills?: Array<{ name: string; body: string }> }>, skills: readonly Skill[]): string[] {
  const notices: string[] = [];
  const byName = new Map(skills.map((s) => [s.name, s] as const));
  for (const profile of profiles) {
    if (!profile.skills) continue;
    profile.preloadedSkills = [];
    for (const name of profile.skills) {
      const skill = byName.get(name);
      if (skill) profile.preloadedSkills.push({ name: skill.name, body: skill.body });
      else notices.push(`${profile.path}: agent "${profile.name}" preloads skill "${name}", which is not loaded; it was skipped (skills: ${[...byName.keys()].join(", ") || "none"})`);
    }
  }
  return notices;
}
