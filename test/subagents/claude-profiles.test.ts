import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectChildToolPool } from "../../src/subagents/runtime/child-prompt.js";
import { harness, profile } from "../helpers/subagent-harness.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { loadProfiles } from "../../src/subagents/profiles/profiles.js";
import { builtinTools } from "../../src/tools/index.js";

function dirs() {
  const cwd = mkdtempSync(join(tmpdir(), "ink-cc-cwd-"));
  const inkHome = mkdtempSync(join(tmpdir(), "ink-cc-home-"));
  const claudeHome = mkdtempSync(join(tmpdir(), "ink-cc-claude-"));
  return { cwd, inkHome, claudeHome };
}

function put(dir: string, name: string, text: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
}

const REVIEWER = `---
name: reviewer
description: Reviews code changes
tools: Read, Grep, Glob, LS, MultiEdit, Edit, Bash, mcp__github__search, WebFetch
model: sonnet
color: cyan
disallowedTools: Write
maxTurns: 12
---
Review carefully.`;

describe("Claude Code profiles", () => {
  it("maps tool names, model aliases, color, maxTurns; an unknown tool is skipped with the file named", () => {
    const d = dirs();
    put(join(d.cwd, ".claude", "agents"), "reviewer.md", REVIEWER);
    const load = loadProfiles({ ...d, trust: "trusted-by-flag" });
    const p = load.profiles.find((x) => x.name === "reviewer")!;
    expect(p.source).toBe("claude-project");
    expect(p.tools).toEqual(["read", "grep", "find", "ls", "edit", "bash", "mcp__github__search"]);
    expect(p.model).toBe("claude-sonnet-4-5");
    expect(p.color).toBe("cyan");
    expect(p.maxTurns).toBe(12);
    expect(p.disallowedTools).toEqual(["write"]);
    expect(load.notices.join("\n")).toContain(`${join(d.cwd, ".claude", "agents", "reviewer.md")}: tool "WebFetch" has no Ink equivalent and was skipped`);
  });

  it("a tools list with nothing Ink has says the agent runs with no tools; Task is explained", () => {
    const d = dirs();
    const dir = join(d.claudeHome, "agents");
    put(dir, "web.md", "---\nname: web\ndescription: browses\ntools: WebFetch, Task\n---\n");
    const load = loadProfiles({ ...d, trust: "untrusted" });
    expect(load.profiles[0]!.tools).toEqual([]);
    const notices = load.notices.join("\n");
    expect(notices).toContain(`${join(dir, "web.md")}: tool "Task" has no Ink equivalent and was skipped (subagents do not delegate further in Ink)`);
    expect(notices).toContain(`${join(dir, "web.md")}: none of its tools exist in Ink, so agent "web" runs with no tools`);
  });

  it("model inherit means the parent's model; disallowedTools narrow the pool", () => {
    const d = dirs();
    put(join(d.claudeHome, "agents"), "helper.md", "---\nname: helper\ndescription: helps\nmodel: inherit\ndisallowedTools: Bash, Write\n---\n");
    const p = loadProfiles({ ...d, trust: "untrusted" }).profiles.find((x) => x.name === "helper")!;
    expect(p.source).toBe("claude-user");
    expect(p.model).toBeUndefined();
    expect(selectChildToolPool(builtinTools(), p).map((t) => t.name)).toEqual(["read", "grep", "find", "ls", "edit"]);
  });

  it("Ink's own directories win over .claude on a name clash", () => {
    const d = dirs();
    put(join(d.claudeHome, "agents"), "scout.md", "---\nname: scout\ndescription: claude user scout\n---\n");
    put(join(d.cwd, ".claude", "agents"), "scout.md", "---\nname: scout\ndescription: claude project scout\n---\n");
    put(join(d.inkHome, "agents"), "scout.md", "---\nname: scout\ndescription: ink user scout\n---\n");
    const load = loadProfiles({ ...d, trust: "trusted-by-flag" });
    expect(load.profiles.find((x) => x.name === "scout")!.description).toBe("ink user scout");
    expect(load.notices.filter((n) => n.includes("shadowed"))).toHaveLength(2);
  });

  it("a project's .claude/agents is not parsed when the project is not trusted", () => {
    const d = dirs();
    put(join(d.cwd, ".claude", "agents"), "reviewer.md", REVIEWER);
    const load = loadProfiles({ ...d, trust: "untrusted" });
    expect(load.profiles).toEqual([]);
    expect(load.notices.join("\n")).toContain("not trusted");
  });

  it("accepts worktree and mcpServers keys (no longer an unknown key)", () => {
    const d = dirs();
    put(join(d.inkHome, "agents"), "fixer.md", '---\nname: fixer\ndescription: fixes\nworktree: true\nmcpServers:\n  docs: {command: "docs-mcp"}\n---\n');
    const load = loadProfiles({ ...d, trust: "untrusted" });
    expect(load.problems).toEqual([]);
    expect(load.profiles[0]).toMatchObject({ worktree: true, mcpServers: { docs: { command: "docs-mcp" } } });
  });

  it("color: Claude Code's purple/orange/pink map to terminal colours; an unknown colour is a notice naming the file, not a skipped profile", () => {
    const d = dirs();
    const dir = join(d.cwd, ".claude", "agents");
    put(dir, "a.md", "---\nname: a\ndescription: a\ncolor: purple\n---\n");
    put(dir, "b.md", "---\nname: b\ndescription: b\ncolor: Orange\n---\n");
    put(dir, "c.md", "---\nname: c\ndescription: c\ncolor: sparkly\n---\n");
    put(dir, "d.md", "---\nname: d\ndescription: d\ncolor: '#00AAFF'\n---\n");
    const load = loadProfiles({ ...d, trust: "trusted-by-flag" });
    expect(load.problems).toEqual([]);
    expect(Object.fromEntries(load.profiles.map((p) => [p.name, p.color]))).toEqual({ a: "magenta", b: "#ff8700", c: undefined, d: "#00aaff" });
    expect(load.notices.join("\n")).toContain(`${join(dir, "c.md")}: color "sparkly" is not a colour the pane can show and was ignored`);
  });

  it("the profile's colour reaches the UI in the child's subagent_start event", async () => {
    const h = harness((req, i) => (i === 0 ? { toolCalls: [{ name: "task", arguments: { prompt: "look", agent: "reviewer" } }] } : { text: "ok" }), { profiles: [profile("reviewer", { color: "cyan" })] });
    await h.run("go");
    h.cleanup();
    const start = h.events.find((e): e is Extract<AgentEvent, { type: "subagent_start" }> => e.type === "subagent_start");
    expect(start).toMatchObject({ profile: "reviewer", color: "cyan" });
  });
});
