/**
 * `find_agent`: lets the main agent search a roster too long to list in its system prompt (more
 * than ROSTER_MAX_AGENTS profiles). Words of the query are matched against each agent's name and
 * description (name hits weigh most, every word counts, simple plural/stem variants match); the
 * best matches come back as `- name: description` lines, ready to pass as `task({agent})`.
 */
import { z } from "zod";
import type { Tool, ToolOutput } from "../../protocol/tool.js";
import type { AgentProfile } from "../profiles/profile-parse.js";

const schema = z.object({
  query: z.string().min(1).describe("What the helper should be good at, in a few words (e.g. 'review react components', 'database migrations')."),
  limit: z.number().int().min(1).max(30).optional().describe("Most agents returned (default 8)."),
});

/** The words of `text`, lowercased, with a crude stem (so `migrations` finds `migration`, `reviewer` finds `review`). */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 1).map((w) => w.replace(/(ers|er|ing|ions|ion|es|s)$/, "") || w);
}

/** The profiles (or skills: anything named and described) best matching `query`, best first (ties by name); none when nothing matches. */
export function rankAgents<T extends { name: string; description: string }>(profiles: readonly T[], query: string, limit = 8): T[] {
  const wanted = [...new Set(words(query))];
  const scored = profiles.map((p) => {
    const name = new Set(words(p.name.replace(/[-_]/g, " ")));
    const description = words(p.description);
    let score = 0;
    for (const w of wanted) {
      if (name.has(w)) score += 5;
      score += Math.min(3, description.filter((d) => d === w).length);
    }
    return { p, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.p.name < b.p.name ? -1 : 1))
    .slice(0, limit)
    .map((s) => s.p);
}

/** Creates the tool over `profiles` (only worth giving the model when the roster is cut). */
export function createAgentSearchTool(profiles: readonly AgentProfile[]): Tool<typeof schema> {
  return {
    name: "find_agent",
    description: `Search the ${profiles.length} helper agents (too many to list) by what they are good at; returns the best matches to pass as task's agent.`,
    schema,
    concurrent: true,
    readOnly: true,
    async execute(args): Promise<ToolOutput> {
      const found = rankAgents(profiles, args.query, args.limit ?? 8);
      if (found.length === 0) return { output: `No agent matches "${args.query}". Try other words, or omit agent to use the general-purpose subagent.`, isError: false };
      return { output: found.map((p) => `- ${p.name}: ${p.description.replace(/\s+/g, " ").slice(0, 300)}`).join("\n"), isError: false };
    },
  };
}
