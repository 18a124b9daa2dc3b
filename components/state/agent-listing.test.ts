import { describe, expect, it } from "vitest";
import type { AgentProfile } from "../../src/subagents/profiles/profile-parse.js";
import { agentListing, summarizeDescription } from "./agent-listing.js";

/** A description shaped like the public collections': a sentence, then `<example>` blocks over many lines. */
const LONG = `Use this agent when you need to review database migrations for safety. It checks locks and rollbacks.

<example>
Context: The user wrote a migration.
user: "Add an index to orders: is this safe?"
assistant: "I'll use the migration-reviewer agent."
<commentary>Migrations need review.</commentary>
</example>`;

const profile = (name: string, description: string, extra: Partial<AgentProfile> = {}): AgentProfile => ({ name, description, body: "", path: `/p/.claude/agents/${name}.md`, source: "project", hash: "h", ...extra });

describe("/agents listing", () => {
  it("a description becomes its first sentence on one line: examples, tags and line breaks left out, long ones clipped", () => {
    expect(summarizeDescription(LONG)).toBe("Use this agent when you need to review database migrations for safety.");
    expect(summarizeDescription("Expert in:\n- React\n- Vue")).toBe("Expert in: - React - Vue");
    const clipped = summarizeDescription(`${"word ".repeat(40)}end.`);
    expect(clipped.length).toBe(72);
    expect(clipped.endsWith("…")).toBe(true);
  });

  it("hundreds of profiles: a count, then exactly one line each, tools cut after four", () => {
    const tools = ["read", "grep", "find", "ls", "bash", "edit", "write", "mcp__db__query"];
    const profiles = Array.from({ length: 300 }, (_, i) => profile(`agent-${String(i).padStart(3, "0")}`, LONG, i === 0 ? { tools } : {}));
    const lines = agentListing({ profiles, notices: [], profileWarnings: ["w1", "w2"] });
    expect(lines[0]).toBe("Agent profiles (300) — /agents <words> lists the ones matching, /agents <name> shows one in full:");
    expect(lines.slice(1, 301).every((l, i) => l.startsWith(`  agent-${String(i).padStart(3, "0")} — Use this agent when`) && !l.includes("\n"))).toBe(true);
    expect(lines[1]).toContain("(project; tools: read, grep, find, ls +4 more)");
    expect(lines.slice(301)).toEqual(["Agent file warnings (2):", "  w1", "  w2"]);
  });

  it("/agents <words> lists the matching profiles best first with a count; nothing matching says so", () => {
    const profiles = [profile("frontend-dev", "Builds React components."), profile("migration-reviewer", LONG), profile("sql-pro", "Writes SQL and reviews migrations.")];
    expect(agentListing({ profiles, notices: [] }, "migrations")).toEqual([
      'Agent profiles matching "migrations" (2 of 3):',
      "  migration-reviewer — Use this agent when you need to review database migrations for safety. (project)",
      "  sql-pro — Writes SQL and reviews migrations. (project)",
    ]);
    expect(agentListing({ profiles, notices: [] }, "kubernetes")).toEqual(['No agent profile matches "kubernetes" (3 loaded) — /agents lists them all.']);
  });

  it("/agents <name> shows that profile in full: file, tools, model and the whole description", () => {
    const profiles = [profile("migration-reviewer", LONG, { tools: ["read", "grep"], model: "claude-opus-4-5", warnings: ["hooks: no Ink equivalent"] })];
    const lines = agentListing({ profiles, notices: [] }, " Migration-Reviewer ");
    expect(lines.slice(0, 4)).toEqual(["Agent profile migration-reviewer (project, /p/.claude/agents/migration-reviewer.md)", "  tools: read, grep", "  model: claude-opus-4-5", "  description:"]);
    expect(lines).toContain('    assistant: "I\'ll use the migration-reviewer agent."');
    expect(lines.slice(-2)).toEqual(["  warnings:", "    hooks: no Ink equivalent"]);
  });
});
