/** Agent files shaped like the public Claude Code collections: current fields, MCP tools, sub-folders, loose YAML, aliases. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childSystemPrompt, childToolGate, selectChildToolPool } from "../../src/subagents/runtime/child-prompt.js";
import { loadProfiles } from "../../src/subagents/profiles/profiles.js";
import { buildSystemPrompt } from "../../src/core/system-prompt.js";
import type { AnyTool } from "../../src/protocol/tool.js";
import { builtinTools } from "../../src/tools/index.js";
import { echoTool } from "../helpers/fake-tools.js";
import { harness, isChild, profile } from "../helpers/subagent-harness.js";

function project() {
  const cwd = mkdtempSync(join(tmpdir(), "ink-coll-cwd-"));
  const inkHome = mkdtempSync(join(tmpdir(), "ink-coll-home-"));
  const claudeHome = mkdtempSync(join(tmpdir(), "ink-coll-claude-"));
  return { cwd, inkHome, claudeHome, agents: join(cwd, ".claude", "agents") };
}

function put(dir: string, name: string, text: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
}

const mcpTool = (name: string): AnyTool => ({ ...echoTool, name, description: `${name} tool` }) as AnyTool;

describe("agent files from public collections", () => {
  it("current Claude Code fields load: permissionMode plan and bypassPermissions are honoured, effort sets thinking, memory/hooks are named once", () => {
    const d = project();
    put(d.agents, "planner.md", "---\nname: planner\ndescription: Plans changes\npermissionMode: plan\neffort: high\nmemory: project\nhooks:\n  Stop: []\n---\nPlan.");
    put(d.agents, "loose.md", "---\nname: loose\ndescription: Does things\npermissionMode: bypassPermissions\n---\nGo.");
    const load = loadProfiles({ ...d, trust: "trusted-by-flag" });
    const planner = load.profiles.find((p) => p.name === "planner")!;
    expect(planner.permissionMode).toBe("plan");
    expect(planner.thinking).toEqual({ type: "on", budgetTokens: 32000, level: "high" });
    expect(planner.warnings!.join("\n")).toContain("memory, hooks have no Ink equivalent yet and were ignored");
    const loose = load.profiles.find((p) => p.name === "loose")!;
    expect(loose.permissionMode).toBe("yolo");
    expect(loose.warnings).toBeUndefined();
  });

  it("permissionMode: plan lets the child run read-only tools only, with a refusal naming the file", async () => {
    const tools = builtinTools();
    const gate = childToolGate(() => ({ allow: true }), { name: "planner", path: "/x/planner.md", permissionMode: "plan" })!;
    const agent = { id: "c", label: "planner", depth: 1 };
    const read = tools.find((t) => t.name === "read")!;
    const write = tools.find((t) => t.name === "write")!;
    expect(await gate({ type: "toolCall", id: "1", name: "read", arguments: {} }, agent, read)).toEqual({ allow: true });
    expect(await gate({ type: "toolCall", id: "2", name: "write", arguments: {} }, agent, write)).toMatchObject({ allow: false, reason: expect.stringContaining("permissionMode: plan in /x/planner.md") });
  });

  it("MCP tools the session lacks are left out (the child still runs); mcp__<server> means all of that server's tools", () => {
    const pool = [...builtinTools(), mcpTool("mcp__github__search"), mcpTool("mcp__github__issue"), mcpTool("mcp__db__query")];
    const skipped: string[] = [];
    const tools = selectChildToolPool(pool, profile("gh", { tools: ["read", "mcp__github", "mcp__slack__post", "mcp__db__nope"] }), skipped);
    expect(tools.map((t) => t.name)).toEqual(["read", "mcp__github__search", "mcp__github__issue"]);
    expect(skipped).toEqual(["mcp__slack__post", "mcp__db__nope"]);
    expect(() => selectChildToolPool(pool, profile("typo", { tools: ["raed"] }))).toThrow(/unknown tool "raed"/);
  });

  it("a delegation to an agent listing absent MCP tools runs with what exists and says so", async () => {
    const h = harness((r) => (isChild(r) ? { text: "done" } : r.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "look", agent: "gh" } }] } : { text: "ok" }), { profiles: [profile("gh", { tools: ["echo", "mcp__github__search"] })] });
    try {
      await h.run("go");
      const child = h.provider.requests.find(isChild)!;
      expect(child.tools.map((t) => t.name)).toEqual(["echo"]);
      expect(h.events.some((e) => e.type === "warning" && e.message.includes("lists MCP tools this session does not have (mcp__github__search"))).toBe(true);
    } finally {
      h.cleanup();
    }
  });

  it("agents in sub-folders load, as Claude Code reads them", () => {
    const d = project();
    put(join(d.agents, "engineering", "backend"), "api.md", "---\nname: api-designer\ndescription: Designs APIs\n---\nDesign.");
    put(join(d.agents, ".hidden"), "x.md", "---\nname: hidden\ndescription: no\n---\n");
    const names = loadProfiles({ ...d, trust: "trusted-by-flag" }).profiles.map((p) => p.name);
    expect(names).toContain("api-designer");
    expect(names).not.toContain("hidden");
  });

  it("an unquoted description with `: ` and <example> blocks loads line by line, with a warning saying how to fix it", () => {
    const d = project();
    put(d.agents, "examples.md", "---\nname: code-reviewer\ndescription: Use this agent when: the user asks for a review. Examples: <example>Context: a PR\nuser: review it\n</example>\ntools: Read, Grep\nmaxTurns: 8\nmodel: opus\n---\nReview.");
    const load = loadProfiles({ ...d, trust: "trusted-by-flag" });
    expect(load.problems).toEqual([]);
    const p = load.profiles.find((x) => x.name === "code-reviewer")!;
    expect(p.description).toContain("Examples: <example>Context: a PR");
    expect(p.tools).toEqual(["read", "grep"]);
    expect(p.maxTurns).toBe(8);
    expect(p.model).toBe("claude-opus-4-6");
    expect(p.warnings!.join("\n")).toMatch(/not valid YAML .*quote the value, or write it as a block/);
  });

  it("model aliases follow the current families; an unknown one runs on the parent's model, with a warning", () => {
    const d = project();
    put(d.agents, "a.md", "---\nname: a\ndescription: A\nmodel: opus\n---\n");
    put(d.agents, "b.md", "---\nname: b\ndescription: B\nmodel: gpt-4o\n---\n");
    put(d.agents, "c.md", "---\nname: c\ndescription: C\nmodel: fable\n---\n");
    const load = loadProfiles({ ...d, trust: "trusted-by-flag" });
    // the offline table's id; at dispatch the alias is the newest opus the provider lists
    expect(load.profiles.find((p) => p.name === "a")).toMatchObject({ model: "claude-opus-4-6", modelAlias: "opus" });
    expect(load.profiles.find((p) => p.name === "c")).toMatchObject({ model: expect.stringMatching(/^claude-fable-/), modelAlias: "fable" });
    const b = load.profiles.find((p) => p.name === "b")!;
    expect(b.model).toBeUndefined();
    expect(b.warnings!.join()).toContain('model "gpt-4o" is neither a model id');
  });

  it("many warnings become one summary line; every one stays listed for /agents", () => {
    const d = project();
    for (let i = 0; i < 6; i++) put(d.agents, `w${i}.md`, `---\nname: w${i}\ndescription: W\ntools: Read, WebFetch, Task\n---\n`);
    const load = loadProfiles({ ...d, trust: "trusted-by-flag" });
    expect(load.warnings).toHaveLength(12);
    const summary = load.notices.filter((n) => n.startsWith("agent files:"));
    expect(summary).toEqual(["agent files: 12 warnings in 6 files; tools with no Ink equivalent were skipped (WebFetch ×6, Task ×6) — /agents lists each one"]);
    expect(load.notices.some((n) => n.includes("has no Ink equivalent"))).toBe(false);
  });

  it("a child is told only what it has: its own tools, no delegation section and no roster", () => {
    const pool = builtinTools();
    const parent = buildSystemPrompt({ cwd: "/w", tools: [...pool, { ...echoTool, name: "task", description: "delegate" } as AnyTool], agentList: "- scout: Finds things", projectContext: "# Tools\nour own heading in AGENTS.md" });
    const tools = selectChildToolPool(pool, profile("scout", { tools: ["read", "grep"] }));
    const system = childSystemPrompt(parent, { body: "Only read." }, tools);
    const toolSection = system.split("\n\n# ").find((s) => s.startsWith("Tools\n"))!;
    expect(toolSection.split("\n").slice(1).map((l) => l.split(":")[0])).toEqual(["- read", "- grep"]);
    expect(system).not.toContain("# Delegation");
    expect(system).not.toContain("# Available agents");
    expect(system).not.toContain("- scout: Finds things");
    expect(system).toContain("# Project context\n# Tools\nour own heading in AGENTS.md");
    expect(system).toContain("# Subagent mode");
    expect(system.endsWith("# Agent profile\n\nOnly read.")).toBe(true);
  });
});

describe("a roster too long to list", () => {
  it("find_agent ranks agents by name and description words; only the main agent gets it, and only past the cap", async () => {
    const { rankAgents, createAgentSearchTool } = await import("../../src/subagents/tools/agent-search-tool.js");
    const many = Array.from({ length: 30 }, (_, i) => profile(`filler-${String(i).padStart(2, "0")}`, { description: "General helper for misc chores" }));
    const roster = [...many, profile("db-migrator", { description: "Writes and reviews database migrations" }), profile("react-reviewer", { description: "Reviews React components and hooks" })];
    expect(rankAgents(roster, "review react components").map((p) => p.name)[0]).toBe("react-reviewer");
    expect(rankAgents(roster, "database migration").map((p) => p.name)[0]).toBe("db-migrator");
    expect(rankAgents(roster, "kubernetes")).toEqual([]);
    const tool = createAgentSearchTool(roster);
    const out = await tool.execute({ query: "migrations" }, { cwd: "/", signal: new AbortController().signal, toolCallId: "f" });
    expect(out.output.split("\n")[0]).toBe("- db-migrator: Writes and reviews database migrations");
    // The session: past ROSTER_MAX_AGENTS the main agent has find_agent and the roster says so; a child never has it.
    const d = project();
    for (const p of roster) put(d.agents, `${p.name}.md`, `---\nname: ${p.name}\ndescription: ${p.description}\n---\n`);
    const { AgentSession } = await import("../../src/host/agent-session.js");
    const { createScriptedProvider } = await import("../../src/providers/scripted.js");
    const session = new AgentSession({ cwd: d.cwd, inkHome: d.inkHome, provider: createScriptedProvider([]), model: "m", interactive: false, trust: true, approval: {} });
    try {
      expect(session.tools.map((t) => t.name)).toContain("find_agent");
      expect(session.system).toContain("search them all with find_agent");
      expect(selectChildToolPool(session.tools).map((t) => t.name)).not.toContain("find_agent");
    } finally {
      session.close();
    }
  });
});

describe("an untrusted project's agents", () => {
  it("the notice names the folder that holds them (.claude/agents, not .ink/agents)", () => {
    const d = project();
    put(d.agents, "a.md", "---\nname: a\ndescription: A\n---\n");
    const notice = loadProfiles({ ...d, trust: "untrusted" }).notices.find((n) => n.startsWith("Skipped"))!;
    expect(notice).toContain(`Skipped 1 project agent profile(s) in ${d.agents}: this project is not trusted`);
    expect(notice).not.toContain(join(".ink", "agents"));
  });
});
