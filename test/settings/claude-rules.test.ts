import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mapClaudeRule } from "../../src/settings/claude-rules.js";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { settingsReportLines } from "../../src/host/settings-report.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

describe("Claude Code permission rules", () => {
  it("map to Ink's rules", () => {
    expect(mapClaudeRule("Bash(npm run test:*)", "/p")).toEqual({ rules: ["bash(npm run test)", "bash(npm run test *)"] });
    expect(mapClaudeRule("Bash(git status)", "/p")).toEqual({ rules: ["bash(git status)"] });
    expect(mapClaudeRule("Read(./secrets/**)", "/p")).toEqual({ rules: ["read(./secrets/**)", "grep(./secrets/**)", "find(./secrets/**)", "ls(./secrets/**)"] });
    expect(mapClaudeRule("Read(*.env)", "/p")).toEqual({ rules: ["read(**/*.env)", "grep(**/*.env)", "find(**/*.env)", "ls(**/*.env)"] });
    expect(mapClaudeRule("Edit(/src/**)", "/p")).toEqual({ rules: ["edit(/p/src/**)", "write(/p/src/**)"] });
    expect(mapClaudeRule("Read(//etc/hosts)", "/p")).toEqual({ rules: ["read(/etc/hosts)", "grep(/etc/hosts)", "find(/etc/hosts)", "ls(/etc/hosts)"] });
    expect(mapClaudeRule("Edit", "/p")).toEqual({ rules: ["edit", "write"] });
    expect(mapClaudeRule("mcp__github", "/p")).toEqual({ rules: ["mcp__github"] });
    expect(mapClaudeRule("WebFetch(domain:example.com)", "/p")).toEqual({ problem: '"WebFetch(domain:example.com)": Ink has no WebFetch tool' });
  });

  it("a trusted project's .claude/settings.json rules apply (naming the file); an untrusted project's do not", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    mkdirSync(join(cwd, ".claude"));
    mkdirSync(join(cwd, "secrets"));
    writeFileSync(join(cwd, "secrets", "key.txt"), "hunter2");
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(echo hello:*)", "WebFetch"], deny: ["Read(./secrets/**)"] } }));
    const calls = [
      { id: "a", name: "bash", arguments: { command: "echo hello world" } },
      { id: "b", name: "bash", arguments: { command: "echo other" } },
      { id: "c", name: "read", arguments: { path: "secrets/key.txt" } },
    ];
    const run = async (trust: boolean) => {
      const provider = createScriptedProvider([{ toolCalls: calls }, { text: "done" }]);
      // A fresh $INK_HOME each run: --trust records the trust, which would carry over.
      const session = new AgentSession({ cwd, inkHome: trust ? home : temp("ink-home-"), provider, model: "m", interactive: false, approval: {}, trust });
      await session.prompt("go");
      session.close();
      return (provider.requests[1]!.messages.at(-1) as ToolResultMessage).results;
    };
    const trusted = await run(true);
    expect(trusted[0]).toMatchObject({ isError: false, content: expect.stringContaining("hello world") });
    expect(trusted[1]).toMatchObject({ isError: true, content: expect.stringContaining("needs approval") });
    expect(trusted[2]).toMatchObject({ isError: true, content: expect.stringContaining(`read(./secrets/**) in ${join(cwd, ".claude", "settings.json")}`) });
    const untrusted = await run(false);
    expect(untrusted[0]).toMatchObject({ isError: true, content: expect.stringContaining("needs approval") });
    expect(untrusted[2]).toMatchObject({ isError: false, content: expect.stringContaining("hunter2") });
    const report = settingsReportLines(home, cwd, true).join("\n");
    expect(report).toContain(`claude:  ${join(cwd, ".claude", "settings.json")} (Claude Code's permission rules, as Ink rules: allow bash(echo hello), allow bash(echo hello *), deny read(./secrets/**)`);
    expect(report).toContain('"permissions.allow[1]" skipped: "WebFetch": Ink has no WebFetch tool');
  });
});

describe("Claude Code's user settings (~/.claude/settings.json)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("their allow/ask/deny rules apply in every project, trusted or not, as the lowest scope; their other keys are not read and not warned about", async () => {
    const claudeHome = temp("ink-claude-home-");
    writeFileSync(join(claudeHome, "settings.json"), JSON.stringify({ model: "opus", env: { A: "1" }, permissions: { allow: ["Bash(echo hello:*)"], deny: ["Read(./secrets/**)"], defaultMode: "acceptEdits" } }));
    vi.stubEnv("INK_CLAUDE_HOME", claudeHome);
    const cwd = temp("ink-proj-");
    mkdirSync(join(cwd, "secrets"));
    writeFileSync(join(cwd, "secrets", "key.txt"), "hunter2");
    const provider = createScriptedProvider([{ toolCalls: [{ id: "a", name: "bash", arguments: { command: "echo hello world" } }, { id: "c", name: "read", arguments: { path: "secrets/key.txt" } }] }, { text: "done" }]);
    const session = new AgentSession({ cwd, inkHome: temp("ink-home-"), provider, model: "m", interactive: false, approval: {}, trust: false });
    await session.prompt("go");
    session.close();
    const [echo, read] = (provider.requests[1]!.messages.at(-1) as ToolResultMessage).results;
    expect(echo).toMatchObject({ isError: false, content: expect.stringContaining("hello world") });
    expect(read).toMatchObject({ isError: true, content: expect.stringContaining(`read(./secrets/**) in ${join(claudeHome, "settings.json")}`) });

    const { loadSettings } = await import("../../src/settings/settings.js");
    const home = temp("ink-home-");
    writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { allow: ["bash(ls)"], defaultMode: "plan" } }));
    const loaded = loadSettings({ inkHome: home, projectDir: cwd, trusted: false, claudeHome });
    expect(loaded.scopes.map((s) => s.path)).toEqual([join(claudeHome, "settings.json"), join(home, "settings.json")]);
    expect(loaded.scopes[0]!.settings.permissions).toEqual({ allow: ["bash(echo hello)", "bash(echo hello *)"], deny: ["read(./secrets/**)", "grep(./secrets/**)", "find(./secrets/**)", "ls(./secrets/**)"] });
    expect(loaded.effective.permissions?.defaultMode).toBe("plan");
    expect(loaded.warnings).toEqual([]);
  });

  it("ink config lists them with the file", () => {
    const claudeHome = temp("ink-claude-home-");
    writeFileSync(join(claudeHome, "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(curl:*)"] } }));
    const report = settingsReportLines(temp("ink-home-"), temp("ink-proj-"), false, { INK_CLAUDE_HOME: claudeHome }).join("\n");
    expect(report).toContain(`claude:  ${join(claudeHome, "settings.json")} (Claude Code's permission rules, as Ink rules: deny bash(curl), deny bash(curl *))`);
  });

  it("are not read twice when Claude Code's home is Ink's own", async () => {
    const { loadSettings } = await import("../../src/settings/settings.js");
    const home = temp("ink-home-");
    writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { allow: ["bash(ls)"] } }));
    const loaded = loadSettings({ inkHome: home, projectDir: temp("ink-proj-"), trusted: false, claudeHome: home });
    expect(loaded.scopes.map((s) => s.scope)).toEqual(["user"]);
    expect(loaded.warnings).toEqual([]);
  });
});

describe("Claude Code's effortLevel", () => {
  it("is read from a trusted project's files (the local one wins), a bad value is a warning, an untrusted project's is not read", async () => {
    const { loadSettings } = await import("../../src/settings/settings.js");
    const cwd = temp("ink-proj-");
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ effortLevel: "high" }));
    const home = temp("ink-home-");
    const shared = loadSettings({ inkHome: home, projectDir: cwd, trusted: true });
    expect(shared.effortLevel).toBe("high");
    expect(shared.warnings).toEqual([]);
    expect(loadSettings({ inkHome: home, projectDir: cwd, trusted: false }).effortLevel).toBeUndefined();
    writeFileSync(join(cwd, ".claude", "settings.local.json"), JSON.stringify({ effortLevel: "low" }));
    expect(loadSettings({ inkHome: home, projectDir: cwd, trusted: true }).effortLevel).toBe("low");
    writeFileSync(join(cwd, ".claude", "settings.local.json"), JSON.stringify({ effortLevel: "extreme" }));
    const bad = loadSettings({ inkHome: home, projectDir: cwd, trusted: true });
    expect(bad.effortLevel).toBe("high");
    expect(bad.warnings).toEqual([`${join(cwd, ".claude", "settings.local.json")}: "effortLevel" "extreme" is not an effort level (low, medium, high, xhigh, max); it was ignored`]);
  });
});

describe("Claude Code settings keys Ink does not read", () => {
  it("are named in one warning per file (never silent); permissions, hooks and $schema are not", async () => {
    const { loadSettings } = await import("../../src/settings/settings.js");
    const cwd = temp("ink-proj-");
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ $schema: "x", env: { A: "1" }, model: "opus", hooks: {}, permissions: { allow: [], additionalDirectories: [], defaultMode: "plan", extraThing: 1 } }));
    const loaded = loadSettings({ inkHome: temp("ink-home-"), projectDir: cwd, trusted: true });
    const line = loaded.warnings.filter((w) => w.includes("Ink does not read"));
    expect(line).toHaveLength(1);
    expect(line[0]).toContain('"env", "model", "permissions.extraThing" are Claude Code settings Ink does not read');
    expect(line[0]).not.toContain("additionalDirectories");
  });
});
