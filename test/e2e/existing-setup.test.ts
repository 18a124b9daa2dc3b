/**
 * Issue #11's "Done when", end to end through the built CLI: a repository set up for Claude Code
 * (AGENTS.md, .claude/agents/reviewer.md) and an MCP server in the user's settings.json work in
 * Ink with no change — the context reaches the model, `reviewer` is a task agent with its tools
 * mapped, and the main agent and the reviewer child both call the MCP tool.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";

const REVIEWER = `---
name: reviewer
description: Reviews a change and reports problems
tools: Read, Grep, Glob, mcp__docs__echo
model: inherit
color: magenta
---
You review code. Quote file:line for every finding.`;

describe("an existing Claude Code setup works in Ink with no change", () => {
  let server: FakeAnthropic;
  beforeAll(async () => {
    server = await startFakeAnthropic();
  });
  afterAll(async () => {
    await server.close();
  });

  it("AGENTS.md reaches main and child, reviewer gets its mapped tools, both call the MCP tool from settings.json", async () => {
    const repo = mkdtempSync(join(tmpdir(), "ink-e2e-setup-"));
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, "AGENTS.md"), "House rule: run npm test before you finish.");
    mkdirSync(join(repo, ".claude", "agents"), { recursive: true });
    writeFileSync(join(repo, ".claude", "agents", "reviewer.md"), REVIEWER);
    const inkHome = mkdtempSync(join(tmpdir(), "ink-e2e-setup-home-"));
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [writeFakeMcpServer()], env: { MODE: "ok" } } } }));
    server.enqueue(
      sseTurn([{ toolUse: { id: "tu_main", name: "mcp__docs__echo", input: { text: "from main" } } }]),
      sseTurn([{ toolUse: { id: "tu_task", name: "task", input: { prompt: "review the change", agent: "reviewer" } } }]),
      sseTurn([{ toolUse: { id: "tu_child", name: "mcp__docs__echo", input: { text: "from reviewer" } } }]),
      sseTurn([{ text: "reviewed: no findings" }]),
      sseTurn([{ text: "all done" }]),
    );
    const run = await runCli(["-p", "review my change", "--trust", "--allow", "mcp__docs__*", "--cwd", repo], {
      env: { INK_HOME: inkHome, INK_CLAUDE_HOME: join(inkHome, "no-claude"), ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url },
    });
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("all done");
    const [main, , child, childAfter, mainAfter] = server.requests.map((r) => r.body);
    expect(JSON.stringify(main.system)).toContain("House rule: run npm test before you finish.");
    expect(JSON.stringify(main.system)).toContain("- reviewer: Reviews a change and reports problems");
    expect(main.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["mcp__docs__echo", "task"]));
    expect(JSON.stringify(main.model)).toEqual(JSON.stringify(child.model));
    expect(JSON.stringify(child.system)).toContain("House rule: run npm test before you finish.");
    expect(JSON.stringify(child.system)).toContain("Quote file:line for every finding.");
    expect(child.tools.map((t: { name: string }) => t.name)).toEqual(["read", "grep", "find", "mcp__docs__echo"]);
    expect(JSON.stringify(childAfter.messages)).toContain("echo: from reviewer");
    expect(JSON.stringify(mainAfter.messages)).toContain("echo: from main");
    expect(JSON.stringify(mainAfter.messages)).toContain("reviewed: no findings");
  });
});
