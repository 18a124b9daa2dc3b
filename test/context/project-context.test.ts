import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { describeProjectContext, loadProjectContext } from "../../src/context/project-context.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "ink-ctx-"));
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}

describe("project context", () => {
  it("walks from the repository root to cwd, AGENTS.md then CLAUDE.md per directory, user file first, nearest last", () => {
    const root = repo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const sub = join(root, "pkg", "app");
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(home, "AGENTS.md"), "USER RULES");
    writeFileSync(join(root, "CLAUDE.md"), "ROOT CLAUDE");
    writeFileSync(join(root, "pkg", "AGENTS.md"), "PKG AGENTS");
    writeFileSync(join(root, "pkg", "CLAUDE.md"), "PKG CLAUDE");
    writeFileSync(join(sub, "CLAUDE.md"), "APP CLAUDE");
    writeFileSync(join(root, "..", "AGENTS.md.not-read"), "x");
    const ctx = loadProjectContext({ cwd: sub, inkHome: home });
    expect(ctx.files.map((f) => f.path)).toEqual([join(home, "AGENTS.md"), join(root, "CLAUDE.md"), join(root, "pkg", "AGENTS.md"), join(root, "pkg", "CLAUDE.md"), join(sub, "CLAUDE.md")]);
    const order = ["USER RULES", "ROOT CLAUDE", "PKG AGENTS", "PKG CLAUDE", "APP CLAUDE"].map((t) => ctx.text.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(describeProjectContext(ctx).join("\n")).toContain(join(sub, "CLAUDE.md"));
  });

  it("CLAUDE.md that imports AGENTS.md and adds notes: both are read, AGENTS.md once; a missing @import is a notice", () => {
    const root = repo();
    writeFileSync(join(root, "AGENTS.md"), "SHARED RULES");
    writeFileSync(join(root, "CLAUDE.md"), "@AGENTS.md\n\nCLAUDE NOTES: run npm test\nSee @docs/missing.md and ask @someone or @types/node.\n");
    const ctx = loadProjectContext({ cwd: root, inkHome: mkdtempSync(join(tmpdir(), "ink-home-")) });
    expect(ctx.files.map((f) => f.path)).toEqual([join(root, "AGENTS.md"), join(root, "CLAUDE.md")]);
    expect(ctx.text.split("SHARED RULES")).toHaveLength(2);
    expect(ctx.text).toContain("CLAUDE NOTES: run npm test");
    expect(ctx.notes).toEqual([`project context: ${join(root, "CLAUDE.md")} imports @docs/missing.md, but ${join(root, "docs", "missing.md")} does not exist; fix the path or remove the import`]);
  });

  it(".claude/rules/*.md are read as project rules (front matter dropped); a rule with paths: is not, with a note", () => {
    const root = repo();
    const rules = join(root, ".claude", "rules");
    mkdirSync(join(rules, "frontend"), { recursive: true });
    writeFileSync(join(rules, "testing.md"), "---\ndescription: how we test\n---\nRULE: use vitest");
    writeFileSync(join(rules, "frontend", "react.md"), "RULE: hooks only");
    writeFileSync(join(rules, "api.md"), '---\npaths:\n  - "src/api/**/*.ts"\n---\nRULE: validate input');
    writeFileSync(join(rules, "notes.txt"), "not a rule");
    const ctx = loadProjectContext({ cwd: root, inkHome: mkdtempSync(join(tmpdir(), "ink-home-")) });
    expect(ctx.files.map((f) => f.path)).toEqual([join(rules, "frontend", "react.md"), join(rules, "testing.md")]);
    expect(ctx.text).toContain("RULE: use vitest");
    expect(ctx.text).not.toContain("description: how we test");
    expect(ctx.text).not.toContain("validate input");
    expect(ctx.text).not.toContain("not a rule");
    expect(ctx.notes).toEqual([expect.stringContaining(`${join(rules, "api.md")} applies only to the files its "paths:" names`)]);
  });

  it("/context and Claude Code's /memory show the loaded files", () => {
    const root = repo();
    writeFileSync(join(root, "AGENTS.md"), "rules");
    const s = new AgentSession({ cwd: root, inkHome: mkdtempSync(join(tmpdir(), "ink-home-")), provider: createScriptedProvider([]), model: "m", interactive: false, approval: {}, persist: false });
    for (const command of ["/context", "/memory"]) expect(s.commandLines(command)?.join("\n")).toContain(`${join(root, "AGENTS.md")} (project, 5 characters)`);
    s.close();
  });

  it("the user's file is $INK_HOME/AGENTS.md, else Claude Code's ~/.claude/CLAUDE.md", () => {
    const root = repo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const claudeHome = mkdtempSync(join(tmpdir(), "ink-claude-"));
    writeFileSync(join(claudeHome, "CLAUDE.md"), "CLAUDE USER MEMORY");
    const fromClaude = loadProjectContext({ cwd: root, inkHome: home, claudeHome });
    expect(fromClaude.files).toEqual([{ path: join(claudeHome, "CLAUDE.md"), scope: "user", chars: 18, cut: false }]);
    expect(fromClaude.text).toContain("CLAUDE USER MEMORY");
    writeFileSync(join(home, "AGENTS.md"), "INK USER RULES");
    const fromInk = loadProjectContext({ cwd: root, inkHome: home, claudeHome });
    expect(fromInk.text).toContain("INK USER RULES");
    expect(fromInk.text).not.toContain("CLAUDE USER MEMORY");
  });

  it("cuts a file over the cap with a note in the text and for the person, farthest first", () => {
    const root = repo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    writeFileSync(join(root, "AGENTS.md"), "A".repeat(500));
    const ctx = loadProjectContext({ cwd: root, inkHome: home, fileCap: 100 });
    expect(ctx.text).toContain("was cut here: 400 more characters not shown");
    expect(ctx.notes[0]).toContain("cut to its first 100 of 500 characters");
    const sub = join(root, "sub");
    mkdirSync(sub);
    writeFileSync(join(sub, "AGENTS.md"), "NEAR");
    const full = loadProjectContext({ cwd: sub, inkHome: home, totalCap: 4 });
    expect(full.text).toContain("NEAR");
    expect(full.notes.join("\n")).toContain(`${join(root, "AGENTS.md")} dropped: the project context is full`);
  });

  it("reaches the model's system prompt and children's", async () => {
    const root = repo();
    writeFileSync(join(root, "AGENTS.md"), "Always run npm test.");
    const provider = createScriptedProvider([{ toolCalls: [{ name: "task", arguments: { prompt: "look" } }] }, { text: "seen" }, { text: "done" }]);
    const s = new AgentSession({ cwd: root, inkHome: mkdtempSync(join(tmpdir(), "ink-home-")), provider, model: "m", interactive: false, approval: {}, persist: false });
    await s.prompt("hi");
    expect(provider.requests[0]!.system).toContain("# Project context");
    expect(provider.requests[0]!.system).toContain("Always run npm test.");
    expect(provider.requests[1]!.system).toContain("Always run npm test.");
  });

  it("a changed AGENTS.md is a named drift reason when a child is resumed", async () => {
    const root = repo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    writeFileSync(join(root, "AGENTS.md"), "v1");
    const provider = createScriptedProvider([{ toolCalls: [{ name: "task", arguments: { prompt: "look" } }] }, { text: "seen" }, { text: "done" }]);
    const first = new AgentSession({ cwd: root, inkHome: home, provider, model: "m", interactive: false, approval: {} });
    await first.prompt("hi");
    first.close();
    const childId = JSON.stringify(first.history).match(/"(\d{8}-\d{6}-[a-z0-9]+)"/)?.[1] ?? /resume[^0-9]*(\d{8}-\d{6}-[a-z0-9]+)/.exec(JSON.stringify(first.history))?.[1];
    expect(childId).toBeDefined();
    writeFileSync(join(root, "AGENTS.md"), "v2");
    const second = new AgentSession({ cwd: root, inkHome: home, provider: createScriptedProvider([{ text: "x" }]), model: "m", interactive: false, approval: {} });
    const result = await second.resumeChild(childId!, "again");
    second.close();
    expect(result.isError).toBe(true);
    expect(result.content).toContain("project context changed");
  });
});

describe("project context files from a hostile checkout", () => {
  it("a context file that links outside the repository is not read, and a note says so", () => {
    const root = repo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const secret = join(mkdtempSync(join(tmpdir(), "ink-secret-")), "id_rsa");
    writeFileSync(secret, "-----BEGIN OPENSSH PRIVATE KEY----- SECRET");
    symlinkSync(secret, join(root, "AGENTS.md"));
    const ctx = loadProjectContext({ cwd: root, inkHome: home });
    expect(ctx.text).not.toContain("SECRET");
    expect(ctx.files).toEqual([]);
    expect(ctx.notes.join("\n")).toMatch(/AGENTS\.md is a link to .*id_rsa, outside the project .*; it was not read/);
    // A link to a file inside the repository is fine.
    const docs = join(root, "docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "agents.md"), "Use pnpm.");
    const sub = join(root, "pkg");
    mkdirSync(sub);
    symlinkSync(join(docs, "agents.md"), join(sub, "AGENTS.md"));
    expect(loadProjectContext({ cwd: sub, inkHome: home }).text).toContain("Use pnpm.");
  });

  it("a huge sparse context file is read only as far as the cap keeps", () => {
    const root = repo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const path = join(root, "CLAUDE.md");
    writeFileSync(path, "HEAD of a huge file\n");
    truncateSync(path, 2 ** 33); // 8 GB of holes: reading it whole would take minutes and all memory
    const ctx = loadProjectContext({ cwd: root, inkHome: home, fileCap: 1000 });
    expect(ctx.text).toContain("HEAD of a huge file");
    expect(ctx.files[0]).toMatchObject({ bytes: 2 ** 33, cut: true });
    expect(ctx.notes.join("\n")).toContain(`of ${2 ** 33} bytes`);
  });

  it("says which project files an untrusted project put into the prompt", () => {
    const root = repo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    writeFileSync(join(root, "AGENTS.md"), "Run the tests.");
    expect(loadProjectContext({ cwd: root, inkHome: home, trusted: false }).notes.join("\n")).toContain(`this project is not trusted; its ${join(root, "AGENTS.md")} went into the system prompt`);
    expect(loadProjectContext({ cwd: root, inkHome: home, trusted: true }).notes).toEqual([]);
  });
});
