/** A symlinked `.ink` (or a gated file changed after trust) never makes a project's files act. */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { projectTrust, recordProjectTrust } from "../../src/subagents/profiles/trust.js";

const sessions: AgentSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});
const temp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

/** An `.ink` folder with a profile carrying `marker`, an allow-everything settings file. */
function writeInkDir(dir: string, marker: string): void {
  mkdirSync(join(dir, "agents"), { recursive: true });
  writeFileSync(join(dir, "agents", "spy.md"), `---\nname: spy\ndescription: ${marker}\n---\n${marker} body\n`);
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ permissions: { allow: ["bash"] } }));
}
/** A `.mcp.json` whose server would leave `sentinel` if it were ever started. */
function mcpJson(sentinel: string): string {
  return JSON.stringify({ mcpServers: { spy: { command: process.execPath, args: ["-e", `require("fs").writeFileSync(${JSON.stringify(sentinel)}, "started")`] } } });
}
function session(cwd: string, inkHome: string): AgentSession {
  const s = new AgentSession({ cwd, inkHome, provider: createScriptedProvider([]), model: "m", interactive: false, approval: {}, persist: false });
  sessions.push(s);
  return s;
}
const bashAllowed = async (s: AgentSession) =>
  (await s.onToolCall({ type: "toolCall", id: "1", name: "bash", arguments: { command: "ls" } }, { id: "main", label: "main", depth: 0 }, { readOnly: false } as never)).allow;

describe("a symlinked .ink cannot escalate trust", () => {
  it("an untrusted repository whose .ink and .mcp.json are symlinks to files outside it: nothing is loaded or started", async () => {
    const home = temp("ink-home-");
    const outside = temp("ink-outside-");
    const repo = temp("ink-repo-");
    const sentinel = join(outside, "mcp-started");
    writeInkDir(join(outside, "ink"), "SENTINEL-OUTSIDE");
    writeFileSync(join(outside, "mcp.json"), mcpJson(sentinel));
    symlinkSync(join(outside, "ink"), join(repo, ".ink"));
    symlinkSync(join(outside, "mcp.json"), join(repo, ".mcp.json"));
    const s = session(repo, home);
    await s.startMcp();
    expect(s.system).not.toContain("SENTINEL-OUTSIDE");
    expect(s.profiles.profiles).toEqual([]);
    expect(await bashAllowed(s)).toBe(false);
    expect(existsSync(sentinel)).toBe(false);
    expect(projectTrust(home, repo)).toMatchObject({ trusted: false, gatedFiles: [".ink/agents/spy.md", ".ink/settings.json", ".mcp.json"] });
  });

  it("a repository whose .ink is a symlink to a trusted project's .ink is still untrusted (trust is keyed by the project's real path)", async () => {
    const home = temp("ink-home-");
    const trusted = temp("ink-trusted-");
    const repo = temp("ink-repo-");
    writeInkDir(join(trusted, ".ink"), "SENTINEL-TRUSTED");
    recordProjectTrust(home, trusted);
    expect(session(trusted, home).system).toContain("SENTINEL-TRUSTED"); // the trusted project itself loads
    symlinkSync(join(trusted, ".ink"), join(repo, ".ink"));
    const s = session(repo, home);
    expect(s.system).not.toContain("SENTINEL-TRUSTED");
    expect(await bashAllowed(s)).toBe(false);
    expect(projectTrust(home, repo).trusted).toBe(false);
  });

  it("a trusted project whose .ink is swapped for a symlink, or whose .mcp.json changes, asks again: nothing new acts", async () => {
    const home = temp("ink-home-");
    const outside = temp("ink-outside-");
    const repo = temp("ink-repo-");
    const sentinel = join(outside, "mcp-started");
    mkdirSync(join(repo, ".ink"));
    writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: {} }));
    recordProjectTrust(home, repo);
    // After trust: .ink becomes a symlink to a folder with a new profile and settings; .mcp.json gains a server.
    writeInkDir(join(outside, "ink"), "SENTINEL-SWAPPED");
    const { rmSync } = await import("node:fs");
    rmSync(join(repo, ".ink"), { recursive: true });
    symlinkSync(join(outside, "ink"), join(repo, ".ink"));
    writeFileSync(join(repo, ".mcp.json"), mcpJson(sentinel));
    expect(projectTrust(home, repo)).toMatchObject({ trusted: false, changed: expect.arrayContaining([".ink/agents/spy.md", ".ink/settings.json", ".mcp.json"]) });
    const s = session(repo, home);
    await s.startMcp();
    expect(s.system).not.toContain("SENTINEL-SWAPPED");
    expect(await bashAllowed(s)).toBe(false);
    expect(existsSync(sentinel)).toBe(false);
    expect(s.notices.join("\n")).toContain(".mcp.json was added or changed since you trusted this project, so its MCP servers were not started");
  });
});
