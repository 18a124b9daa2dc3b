import { afterEach, describe, expect, it } from "vitest";
import type { McpServerConfig } from "../src/mcp/config.js";
import { writeFakeMcpServer } from "../test/mcp/fake-mcp-server.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { waitForFrame } from "./testing/wait-for-frame.js";

const script = writeFakeMcpServer();
const server = (name: string, mode: string): McpServerConfig => ({ name, source: "test", transport: "stdio", command: process.execPath, args: [script], env: { MODE: mode }, startupTimeoutMs: 10_000 });

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

describe("MCP problems in the TUI", () => {
  it("a server that fails after the first frame is reported in the transcript as it happens, once", async () => {
    h = renderApp(() => ({ text: "unused" }), { session: { mcpServers: [server("db", "crash-start"), server("docs", "ok")] } });
    await waitForFrame(h.app.lastFrame, (f) => f.includes("/help for commands"), { what: "the first frame" });
    expect(h.app.lastFrame()).not.toContain('MCP server "db"');
    await h.session.startMcp();
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes('MCP server "db"'), { what: "the MCP failure line" });
    expect(frame).toContain("boom: cannot open the database");
    expect(frame.split('MCP server "db"').length - 1).toBe(1);
    expect(frame).not.toContain('MCP server "docs"');
  });
});
