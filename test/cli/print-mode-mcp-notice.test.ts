import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import type { McpServerConfig } from "../../src/mcp/config.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";

const script = writeFakeMcpServer();
const server = (name: string, mode: string): McpServerConfig => ({ name, source: "test", transport: "stdio", command: process.execPath, args: [script], env: { MODE: mode }, startupTimeoutMs: 10_000 });

describe("print mode reports MCP failures on stderr, once each", () => {
  it("one that fails at start and one that crashes during the run", async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ name: "mcp__flaky__echo", arguments: { text: "x" } }] }, { text: "done" }]);
    const session = new AgentSession({
      cwd: mkdtempSync(join(tmpdir(), "ink-cwd-")),
      inkHome: mkdtempSync(join(tmpdir(), "ink-home-")),
      provider,
      model: "m",
      interactive: false,
      approval: { allow: ["mcp__flaky__*"] },
      persist: false,
      mcpServers: [server("db", "crash-start"), server("flaky", "crash-call")],
    });
    const stderr: string[] = [];
    const code = await runPrintMode(session, "go", { json: false, signal: new AbortController().signal, io: { stdout: () => undefined, stderr: (t) => stderr.push(t) } });
    session.close();
    // The SDK reports the closed connection before it fails the pending call, so this is in the run.
    expect(stderr.filter((l) => l.includes('MCP server "flaky"'))).toHaveLength(1);
    expect(code).toBe(0);
    expect(stderr.filter((l) => l.includes('MCP server "db"'))).toHaveLength(1);
    expect(stderr.find((l) => l.includes('MCP server "db"'))).toContain("boom: cannot open the database");
    expect(stderr.find((l) => l.includes('MCP server "flaky"'))).toContain("fatal: lost the connection");
  });
});
