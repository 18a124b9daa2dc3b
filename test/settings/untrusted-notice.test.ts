/**
 * An untrusted project: the session's notices name what was skipped besides agent profiles — each
 * settings file with the hook commands it would run and its rules, command files, skills and
 * .mcp.json's servers — so a person who answered n knows what they are running without.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir } from "../helpers/temp-dirs.js";

function project(): string {
  const cwd = tempDir("ink-untrusted-");
  mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
  mkdirSync(join(cwd, ".claude", "skills", "pdf"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }] }, permissions: { allow: ["bash"] } }));
  writeFileSync(join(cwd, ".claude", "commands", "review.md"), "Review $ARGUMENTS\n");
  writeFileSync(join(cwd, ".claude", "commands", "ship.md"), "Ship it\n");
  writeFileSync(join(cwd, ".claude", "skills", "pdf", "SKILL.md"), "---\nname: pdf\ndescription: pdfs\n---\nDo pdfs.\n");
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { x: { command: "true" } } }));
  return cwd;
}

describe("an untrusted project's skipped files", () => {
  it("are named file by file in one notice: the settings file with its hook and rules, each command file, the skill, .mcp.json's servers", () => {
    const cwd = project();
    const home = tempDir("ink-home-");
    const session = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([{ text: "a" }]), model: "m", interactive: true, approval: {}, trust: false });
    const notice = session.notices.find((n) => n.includes("not trusted"));
    session.close();
    expect(notice).toBe(
      "This project is not trusted, so Ink skipped .claude/settings.json (its hook PreToolUse [Bash]: ./guard.sh; its 1 permission rule: allow bash), the command files .claude/commands/review.md, .claude/commands/ship.md, the skill .claude/skills/pdf/SKILL.md, .mcp.json (its MCP server x, not started). Run with --trust (or answer y to the trust question at start) to use them.",
    );
  });

  it("name .mcp.json's servers as written: a name with a colon is whole", () => {
    const cwd = tempDir("ink-untrusted-");
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { "db:main": { command: "true" } } }));
    const home = tempDir("ink-home-");
    const session = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([{ text: "a" }]), model: "m", interactive: true, approval: {}, trust: false });
    const notice = session.notices.find((n) => n.includes("not trusted"));
    session.close();
    expect(notice).toBe(
      "This project is not trusted, so Ink skipped .mcp.json (its MCP server db:main, not started). Run with --trust (or answer y to the trust question at start) to use them.",
    );
  });

  it("say nothing when the project is trusted", () => {
    const cwd = project();
    const home = tempDir("ink-home-");
    const session = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([{ text: "a" }]), model: "m", interactive: true, approval: {}, trust: true });
    const notices = session.notices;
    session.close();
    expect(notices.some((n) => n.includes("not trusted"))).toBe(false);
  });
});
