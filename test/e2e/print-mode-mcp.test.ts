import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";

describe("print mode with an MCP server from settings.json", () => {
  let server: FakeAnthropic;
  beforeAll(async () => {
    server = await startFakeAnthropic();
  });
  afterAll(async () => {
    await server.close();
  });

  it("the model sees the MCP tool with its schema and calls it; the answer comes back", async () => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-e2e-mcp-"));
    const cwd = mkdtempSync(join(tmpdir(), "ink-e2e-cwd-"));
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [writeFakeMcpServer()], env: { MODE: "ok" } } } }));
    server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "mcp__docs__echo", input: { text: "from the model" } } }]), sseTurn([{ text: "the server said it" }]));
    const run = await runCli(["-p", "use the docs", "--allow", "mcp__docs__*", "--cwd", cwd], { env: { INK_HOME: inkHome, INK_CLAUDE_HOME: inkHome, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url } });
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("the server said it");
    const first = server.requests[0]!.body;
    const tool = first.tools.find((t: { name: string }) => t.name === "mcp__docs__echo");
    expect(tool.input_schema).toEqual({ type: "object", properties: { text: { type: "string", description: "what to echo" } }, required: ["text"], additionalProperties: false });
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("echo: from the model");
  });
});
