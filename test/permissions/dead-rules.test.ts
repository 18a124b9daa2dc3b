/**
 * A permission rule that could never match is refused where it is loaded, naming the rule (and the
 * file) and the fix: a pattern on an MCP tool (`mcp__docs__search(foo)`), a pattern on `task`, an
 * unknown tool (`Bassh(git status)`). A bare `task` rule is honoured (it used to be ignored).
 * Claude Code's spelling (`Bash(git status:*)`, `Edit(src/**)`, `Glob`) is read as Ink's rules.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { createApprovalPolicy } from "../../src/core/approval.js";
import { decide } from "../../src/permissions/decide.js";
import { parseRule, parseRules } from "../../src/permissions/rules.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { checkSettingsRules } from "../../src/permissions/settings-rules.js";
import { loadSettings, SettingsError } from "../../src/settings/settings.js";
import { settingsDefaults } from "../../src/cli/settings-defaults.js";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";

describe("rules that could never match are refused", () => {
  it.each([
    ["mcp__docs__search(foo)", /"mcp__docs__search\(foo\)" has a pattern, but the arguments of MCP tools are not matched.*write "mcp__docs__search" to cover every call, or "mcp__docs__\*" for every tool of the server/],
    ["mcp__docs__*(foo*)", /"mcp__docs__\*\(foo\*\)" has a pattern.*write "mcp__docs__\*" to cover every call/],
    ["mcp__docs(x)", /"mcp__docs\(x\)" has a pattern.*write "mcp__docs" to cover every call/],
    ["task(explore)", /"task\(explore\)" has a pattern, but the arguments of task are not matched.*write "task" alone/],
    ["Bassh(git status)", /"Bassh\(git status\)" names the unknown tool "Bassh" \(did you mean "bash"\?\)/],
    ["WebFetch(domain:example.com)", /"WebFetch\(domain:example.com\)" names the unknown tool "WebFetch"/],
    ["frobnicate", /unknown tool "frobnicate".*mcp__<server>__<tool>/],
  ])("%s", (rule, message) => {
    expect(() => parseRule(rule, "deny")).toThrow(message);
  });

  it("rules that can match are still accepted: an MCP tool or server without a pattern, '*' or '**' as no pattern, path and bash patterns", () => {
    for (const rule of ["mcp__docs__search", "mcp__docs__*", "mcp__docs", "mcp__*", "mcp__docs__search(*)", "task", "bash(git status*)", "edit(src/**)", "read(**)", "grep", "ls(/tmp/**)"]) {
      expect(() => parseRule(rule, "allow"), rule).not.toThrow();
    }
  });

  it("a settings file holding one is a SettingsError naming the file, the list entry, the rule and the fix", () => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const file = join(inkHome, "settings.json");
    writeFileSync(file, JSON.stringify({ permissions: { allow: ["bash(git status*)"], deny: ["bash(rm*)", "mcp__docs__delete(*.md)"] } }));
    const load = () => checkSettingsRules(loadSettings({ inkHome, projectDir: tmpdir(), trusted: false }).scopes);
    expect(load).toThrow(SettingsError);
    expect(load).toThrow(`${file}: "permissions.deny[1]": permission rule "mcp__docs__delete(*.md)" has a pattern`);
    expect(load).toThrow(/write "mcp__docs__delete" to cover every call/);
    // The CLI reads settings before anything else: the same error stops it there.
    expect(() => settingsDefaults(inkHome, tmpdir(), false)).toThrow(`${file}: "permissions.deny[1]"`);
  });

  it("a trusted project's settings file holding one is refused the same way, naming the project file", () => {
    const root = mkdtempSync(join(tmpdir(), "ink-dead-rule-"));
    const inkHome = join(root, "home");
    const project = join(root, "project");
    mkdirSync(inkHome);
    mkdirSync(join(project, ".ink"), { recursive: true });
    writeFileSync(join(project, ".ink", "settings.json"), JSON.stringify({ permissions: { ask: ["Edits(src/**)"] } }));
    expect(() => checkSettingsRules(loadSettings({ inkHome, projectDir: project, trusted: true }).scopes)).toThrow(`${join(project, ".ink", "settings.json")}: "permissions.ask[0]": permission rule "Edits(src/**)" names the unknown tool "Edits" (did you mean "edit"?)`);
  });

  it("Claude Code's spelling loads and matches: Bash(git status:*) is the command or it with arguments, tool names in any of Claude Code's cases", () => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(git status:*)", "bash(npm test:*)", "Read", "Glob"], deny: ["Edit(secrets/**)"] } }));
    expect(() => checkSettingsRules(loadSettings({ inkHome, projectDir: tmpdir(), trusted: false }).scopes)).not.toThrow();
    const rules = [...parseRules(["Bash(git status:*)", "bash(npm test:*)", "Glob"], "allow"), ...parseRules(["Edit(secrets/**)"], "deny")];
    const bash = (command: string) => decide({ tool: "bash", args: { command }, readOnly: false, cwd: tmpdir(), mode: "default", rules }).kind;
    expect(bash("git status")).toBe("allow");
    expect(bash("git status -s")).toBe("allow");
    expect(bash("git statusx")).toBe("ask");
    expect(bash("npm test -- --watch")).toBe("allow");
    expect(bash("git push")).toBe("ask");
    expect(rules.map((r) => [r.tool, r.pattern, r.source])).toEqual([
      ["bash", "git status", "Bash(git status:*)"],
      ["bash", "git status *", "Bash(git status:*)"],
      ["bash", "npm test", "bash(npm test:*)"],
      ["bash", "npm test *", "bash(npm test:*)"],
      ["find", undefined, "Glob"],
      ["edit", "secrets/**", "Edit(secrets/**)"],
    ]);
    expect(() => parseCliArgs(["-p", "x", "--allow", "Bash(git log:*)"])).not.toThrow();
  });

  it("a session whose user settings hold one does not start (the rule is never silently ignored)", () => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ permissions: { deny: ["mcp__docs__echo(secret)"] } }));
    const provider = createScriptedProvider(() => ({ text: "never asked" }));
    expect(() => new AgentSession({ cwd: tmpdir(), inkHome, provider, model: "m", interactive: false, persist: false, approval: {} })).toThrow(/settings\.json: "permissions\.deny\[0\]".*mcp__docs__echo\(secret\)/);
    expect(provider.requests).toHaveLength(0);
  });

  it("--allow with one is a usage error naming the rule", () => {
    expect(() => parseCliArgs(["-p", "x", "--allow", "mcp__docs__echo(hi)"])).toThrow(UsageError);
    expect(() => parseCliArgs(["-p", "x", "--allow", "mcp__docs__echo(hi)"])).toThrow(/--allow: permission rule "mcp__docs__echo\(hi\)" has a pattern/);
  });

  it("approval options from code (not settings) are checked too", () => {
    expect(() => createApprovalPolicy({ rules: { deny: ["mcp__x__y(z)"] } })).toThrow(/mcp__x__y\(z\)/);
  });
});

describe("a bare task rule is honoured", () => {
  const verdict = (r: { allow?: string[]; ask?: string[]; deny?: string[] }, mode: "default" | "yolo" = "default") =>
    decide({ tool: "task", args: { prompt: "look" }, readOnly: false, cwd: tmpdir(), mode, rules: [...parseRules(r.allow, "allow"), ...parseRules(r.ask, "ask"), ...parseRules(r.deny, "deny")] });
  it("deny task refuses delegation (even in yolo), ask task asks, otherwise it runs", () => {
    expect(verdict({})).toEqual({ kind: "allow" });
    expect(verdict({ deny: ["task"] })).toEqual({ kind: "deny", reason: "task is denied by the rule task" });
    expect(verdict({ deny: ["task"] }, "yolo").kind).toBe("deny");
    expect(verdict({ allow: ["task"], ask: ["task"] }).kind).toBe("ask");
  });

  it("headless, a denied task comes back to the model as a tool result with the reason; no child runs", async () => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const provider = createScriptedProvider((request) => {
      if (request.system.includes("# Subagent mode")) return { text: "child ran" };
      return request.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "explore" } }] } : { text: "ok" };
    });
    const s = new AgentSession({ cwd: tmpdir(), inkHome, provider, model: "m", interactive: false, persist: false, approval: { deny: ["task"] } });
    try {
      await s.prompt("go");
      const result = (s.history[2] as { results: Array<{ isError: boolean; content: string }> }).results[0]!;
      expect(result).toMatchObject({ isError: true, content: expect.stringContaining("task is denied by the rule task") });
      expect(provider.requests.filter((r) => r.system.includes("# Subagent mode"))).toHaveLength(0);
    } finally {
      s.close();
    }
  });
});

describe("ink config names a rule that could never match", () => {
  it("reports the file, the entry and the fix instead of the settings", async () => {
    const { settingsReportLines } = await import("../../src/host/settings-report.js");
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ permissions: { allow: ["mcp__gh__create_issue(repo:*)"] } }));
    const lines = settingsReportLines(inkHome, tmpdir(), false);
    expect(lines).toEqual([expect.stringMatching(/^settings could not be loaded: .*settings\.json: "permissions\.allow\[0\]": permission rule "mcp__gh__create_issue\(repo:\*\)" has a pattern.*"mcp__gh__\*" for every tool of the server/)]);
  });
});
