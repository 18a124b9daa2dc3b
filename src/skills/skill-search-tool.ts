/**
 * `find_skill`: lets the model search the skills when there are more than the system prompt lists
 * (ROSTER_MAX_AGENTS), as `find_agent` does for agents. Same ranking (name hits weigh most); the
 * matches come back as `- name: description` lines, ready to pass to `skill {name}`. Only the
 * skills the model may load are searched (not those with `disable-model-invocation: true`).
 */
import { z } from "zod";
import type { Tool, ToolOutput } from "../protocol/tool.js";
import { rankAgents } from "../subagents/tools/agent-search-tool.js";
import type { Skill } from "./skill-parse.js";

const schema = z.object({
  query: z.string().min(1).describe("What the skill should help with, in a few words (e.g. 'fill pdf forms', 'release notes')."),
  limit: z.number().int().min(1).max(30).optional().describe("Most skills returned (default 8)."),
});

/** Creates the tool over `skills` (only worth giving the model when the skill list is cut). */
export function createSkillSearchTool(skills: readonly Skill[]): Tool<typeof schema> {
  return {
    name: "find_skill",
    description: `Search the ${skills.length} skills (too many to list) by what they do; returns the best matches to load with the skill tool.`,
    schema,
    concurrent: true,
    readOnly: true,
    async execute(args): Promise<ToolOutput> {
      const found = rankAgents(skills, args.query, args.limit ?? 8);
      if (found.length === 0) return { output: `No skill matches "${args.query}". Try other words.`, isError: false };
      return { output: found.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, " ").slice(0, 300)}`).join("\n"), isError: false };
    },
  };
}
