import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionMcpServers } from "../../src/mcp/session-servers.js";
import { settingsReportLines } from "../../src/host/settings-report.js";
import { loadSettings } from "../../src/settings/settings.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

describe("MCP servers from Claude Code's ~/.claude.json", () => {
  it("are started only when the user opts in; the project's own entry there counts; Ink's servers win on a name", () => {
    const root = temp("ink-claude-root-");
    mkdirSync(join(root, ".claude"));
    const cwd = temp("ink-proj-");
    const claudeJson = join(root, ".claude.json");
    writeFileSync(
      claudeJson,
      JSON.stringify({
        numStartups: 12,
        mcpServers: { github: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: {} }, docs: { command: "theirs" } },
        projects: { [cwd]: { mcpServers: { local: { type: "http", url: "http://127.0.0.1:9/mcp" } } }, "/elsewhere": { mcpServers: { other: { command: "x" } } } },
      }),
    );
    const env = { ...process.env, INK_CLAUDE_HOME: join(root, ".claude") };
    const home = temp("ink-home-");
    writeFileSync(join(home, "settings.json"), JSON.stringify({ mcpServers: { docs: { command: "ours" } } }));
    expect(sessionMcpServers({ inkHome: home, cwd, trusted: false, env }).servers.map((s) => s.name)).toEqual(["docs"]);
    writeFileSync(join(home, "settings.json"), JSON.stringify({ claudeMcpServers: true, mcpServers: { docs: { command: "ours" } } }));
    const found = sessionMcpServers({ inkHome: home, cwd, trusted: false, env });
    expect(found.servers.map((s) => [s.name, s.source])).toEqual([
      ["docs", join(home, "settings.json")],
      ["local", `${claudeJson} (projects["${cwd}"])`],
      ["github", claudeJson],
    ]);
    expect(found.problems).toEqual([`${claudeJson}: MCP server "docs" skipped: a server of that name is already defined in Ink's settings or .mcp.json`]);
    const report = settingsReportLines(home, cwd, false, env).join("\n");
    expect(report).toContain(`github: stdio npx -y @modelcontextprotocol/server-github    (from ${claudeJson})`);
    expect(report).toContain("claudeMcpServers = true");
  });

  it("a project's settings cannot turn it on", () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    mkdirSync(join(cwd, ".ink"));
    writeFileSync(join(cwd, ".ink", "settings.json"), JSON.stringify({ claudeMcpServers: true }));
    const loaded = loadSettings({ inkHome: home, projectDir: cwd, trusted: true });
    expect(loaded.effective.claudeMcpServers).toBeUndefined();
    expect(loaded.warnings.join("\n")).toContain('"claudeMcpServers" is ignored in a project\'s settings');
  });
});
