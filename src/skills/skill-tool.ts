/**
 * The `skill` tool and the skill roster. The model sees each skill's name and description in the
 * system prompt (capped like the agent roster); it calls `skill {name}` to load one, and gets the
 * instructions plus the list of files beside SKILL.md (read with `read`, run with `bash`, as the
 * instructions say). Chosen over "the model reads SKILL.md itself" because it works for skills
 * outside the working directory, needs no path in the prompt, and shows as one clear call.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Tool } from "../protocol/tool.js";
import { clipBytes, ROSTER_MAX_AGENTS, ROSTER_MAX_BYTES, ROSTER_MAX_DESCRIPTION_BYTES } from "../subagents/profiles/profiles.js";
import type { Skill } from "./skill-parse.js";

export const skillSchema = z.object({ name: z.string().min(1).describe("The skill's name, as listed under Skills in the system prompt") });

/** Most files listed beside a SKILL.md. */
export const SKILL_MAX_FILES = 100;

/** Files under a skill's folder (relative, `/`-separated, sorted), without SKILL.md and dot entries; at most `max`. */
export function skillFiles(dir: string, max = SKILL_MAX_FILES): { files: string[]; more: boolean } {
  const files: string[] = [];
  let more = false;
  const walk = (rel: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, rel)).filter((n) => !n.startsWith(".") && n !== "node_modules").sort();
    } catch {
      return;
    }
    for (const n of names) {
      const child = rel === "" ? n : `${rel}/${n}`;
      if (child === "SKILL.md") continue;
      try {
        const st = statSync(join(dir, child));
        if (st.isDirectory()) {
          if (depth < 4) walk(child, depth + 1);
        } else if (st.isFile()) {
          if (files.length >= max) more = true;
          else files.push(child);
        }
      } catch {
        // unreadable entries are left out
      }
    }
  };
  walk("", 0);
  return { files, more };
}

/** What `skill {name}` returns: the instructions, then the files beside them. */
export function skillText(skill: Skill): string {
  const { files, more } = skillFiles(skill.dir);
  const lines = [`# Skill: ${skill.name}`, `(from ${skill.path})`, "", skill.body || "(this skill has no instructions beyond its description)"];
  if (files.length > 0) {
    lines.push("", `Files beside SKILL.md, in ${skill.dir} (read or run them when the instructions say so):`, ...files.map((f) => `- ${f}`));
    if (more) lines.push(`- … more files not listed (first ${SKILL_MAX_FILES} shown)`);
  }
  if (skill.allowedTools) lines.push("", `The skill expects these tools: ${skill.allowedTools.join(", ")} (calls still go through the usual approval).`);
  return lines.join("\n");
}

/** Creates the `skill` tool over the loaded skills (read-only; safe to overlap). */
export function createSkillTool(skills: readonly Skill[]): Tool<typeof skillSchema> {
  const byName = new Map(skills.map((s) => [s.name, s] as const));
  return {
    name: "skill",
    description: "Loads an Agent Skill by name: returns its instructions and the files beside it. Call it when a skill listed under Skills fits the request, before doing the work.",
    schema: skillSchema,
    concurrent: true,
    readOnly: true,
    async execute(args) {
      const skill = byName.get(args.name.trim()) ?? [...byName.values()].find((s) => s.name.toLowerCase() === args.name.trim().toLowerCase());
      if (!skill) return { output: `unknown skill "${args.name}"; available skills: ${[...byName.keys()].join(", ") || "(none)"}`, isError: true };
      return { output: skillText(skill), isError: false };
    },
  };
}

/**
 * The skill list for the system prompt: `- name: description` per line, with the agent roster's
 * caps (16 skills, 512 bytes per description, 12 KB in all; then "… and N more"). "" for none.
 */
export function formatSkillList(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const header = "Skills: instructions for particular jobs. When one fits the request, load it with the skill tool (skill {name}) and follow it.";
  const lines = [header];
  let bytes = Buffer.byteLength(header) + 1;
  let shown = 0;
  for (const skill of skills) {
    if (shown >= ROSTER_MAX_AGENTS) break;
    const line = `- ${skill.name}: ${clipBytes(skill.description.replace(/\s+/g, " ").trim(), ROSTER_MAX_DESCRIPTION_BYTES)}`;
    const n = Buffer.byteLength(line) + 1;
    if (bytes + n > ROSTER_MAX_BYTES - 64) break;
    lines.push(line);
    bytes += n;
    shown++;
  }
  if (shown < skills.length) lines.push(`… and ${skills.length - shown} more (not listed to keep this short; search them all with find_skill, or call skill with a name the user gives)`);
  return lines.join("\n");
}

/** Lines for `/skills`: each skill with its source and path, then the skipped files and notices. */
export function describeSkills(load: { skills: readonly Skill[]; problems: ReadonlyArray<{ path: string; reason: string }>; notices: readonly string[] }): string[] {
  const lines =
    load.skills.length === 0
      ? ["No skills loaded (create .ink/skills/<name>/SKILL.md, .claude/skills/<name>/SKILL.md or ~/.ink/skills/<name>/SKILL.md)."]
      : ["Skills:", ...load.skills.map((s) => `  ${s.name} — ${s.description.replace(/\s+/g, " ")} (${s.source}: ${s.path})`)];
  if (load.problems.length > 0) lines.push("Skipped:", ...load.problems.map((p) => `  ${p.path}: ${p.reason}`));
  if (load.notices.length > 0) lines.push("Notices:", ...load.notices.map((n) => `  ${n}`));
  return lines;
}
