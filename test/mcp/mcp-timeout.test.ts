/** MCP_TIMEOUT (Claude Code's, milliseconds) sets how long a server without its own `timeout` has to start. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectMcpServers, DEFAULT_MCP_STARTUP_TIMEOUT_MS } from "../../src/mcp/config.js";

const collect = (env: NodeJS.ProcessEnv) =>
  collectMcpServers({ userServers: { cold: { command: "npx", args: ["-y", "some-mcp"] }, own: { command: "x", timeout: 5000 } }, userSource: "/h/settings.json", projectDir: mkdtempSync(join(tmpdir(), "ink-proj-")), trusted: false, env });

describe("MCP_TIMEOUT", () => {
  it("gives servers without their own timeout that long to start; an entry's timeout still wins", () => {
    const { servers, problems } = collect({ MCP_TIMEOUT: "90000" });
    expect(servers.map((s) => [s.name, s.startupTimeoutMs])).toEqual([
      ["cold", 90_000],
      ["own", 5000],
    ]);
    expect(problems).toEqual([]);
  });

  it("unset keeps 30 s; a bad value keeps 30 s with one notice naming it and the fix", () => {
    expect(collect({}).servers[0]!.startupTimeoutMs).toBe(DEFAULT_MCP_STARTUP_TIMEOUT_MS);
    const bad = collect({ MCP_TIMEOUT: "90s" });
    expect(bad.servers[0]!.startupTimeoutMs).toBe(DEFAULT_MCP_STARTUP_TIMEOUT_MS);
    expect(bad.problems).toEqual(['MCP_TIMEOUT="90s" is not a number of milliseconds of at least 100 (e.g. MCP_TIMEOUT=90000); MCP servers get the default 30000 ms to start']);
  });
});
