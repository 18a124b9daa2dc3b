import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { parseMcpServers } from "../../src/mcp/config.js";
import { McpManager } from "../../src/mcp/manager.js";
import { toToolSpec } from "../../src/tools/spec.js";
import { startFakeHttpMcp, startFakeSseMcp, type FakeHttpMcp } from "./fake-http-mcp-server.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function managerFor(entry: unknown, env: NodeJS.ProcessEnv = {}) {
  const problems: string[] = [];
  const configs = parseMcpServers({ issues: entry }, "/home/u/.ink/settings.json", env, problems);
  expect(problems).toEqual([]);
  const reported: string[] = [];
  const m = new McpManager(configs, { onProblem: (p) => reported.push(p) });
  cleanups.push(() => m.close());
  return { m, reported };
}

describe("MCP servers over streamable HTTP", () => {
  it("connects with the configured headers (${VAR} expanded), lists tools with their schema and calls them", async () => {
    const server: FakeHttpMcp = await startFakeHttpMcp();
    cleanups.push(() => server.close());
    const { m } = managerFor({ type: "http", url: server.url, headers: { Authorization: "Bearer ${ISSUES_TOKEN}" } }, { ISSUES_TOKEN: "s3cret" });
    await m.start();
    expect(m.servers[0]!.state).toBe("ready");
    const [lookup] = m.tools();
    expect(lookup!.name).toBe("mcp__issues__lookup");
    expect(toToolSpec(lookup!).inputSchema).toEqual({ type: "object", properties: { id: { type: "string" } }, required: ["id"] });
    const out = await lookup!.execute({ id: "42" }, { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c1" });
    expect(out).toMatchObject({ isError: false });
    expect(out.output).toContain("issue 42: open");
    expect(out.output).toContain("[resource issue://1]\nbody of issue 1");
    expect(server.authorizations.length).toBeGreaterThan(1);
    expect(new Set(server.authorizations)).toEqual(new Set(["Bearer s3cret"]));
    expect(m.describe()[0]).toBe("issues — ready (http, from /home/u/.ink/settings.json)");
  });

  it('the older HTTP+SSE transport ({"type": "sse"}, as in Claude Code\'s .mcp.json) works the same way', async () => {
    const server = await startFakeSseMcp();
    cleanups.push(() => server.close());
    const { m } = managerFor({ type: "sse", url: server.url, headers: { Authorization: "Bearer ${T}" } }, { T: "sse-token" });
    await m.start();
    expect(m.servers[0]!.state).toBe("ready");
    const [lookup] = m.tools();
    expect(lookup!.name).toBe("mcp__issues__lookup");
    const out = await lookup!.execute({ id: "7" }, { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c1" });
    expect(out.output).toContain("issue 7: open");
    expect(new Set(server.authorizations)).toEqual(new Set(["Bearer sse-token"]));
    expect(m.describe()[0]).toBe("issues — ready (sse, from /home/u/.ink/settings.json)");
  });

  it("a server that goes away after start: the call is an error, the server is reported once and its tools removed", async () => {
    const server = await startFakeHttpMcp();
    const { m, reported } = managerFor({ type: "http", url: server.url });
    await m.start();
    const [lookup] = m.tools();
    await server.close();
    const out = await lookup!.execute({ id: "1" }, { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c1" });
    expect(out.isError).toBe(true);
    expect(out.output).toContain(`MCP tool lookup on server "issues" failed: MCP server "issues" (${server.url}) stopped answering`);
    expect(out.output).toContain("its tools were removed for this session");
    expect(m.servers[0]!.state).toBe("failed");
    expect(m.tools()).toEqual([]);
    expect(reported).toHaveLength(1);
    await lookup!.execute({ id: "1" }, { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c2" });
    expect(reported).toHaveLength(1);
  });

  it("an HTTP endpoint that is not an MCP server fails once, naming the server and its URL, with no tools", async () => {
    const http = createServer((_req, res) => res.writeHead(404).end("no such thing"));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const { m, reported } = managerFor({ type: "http", url, timeout: 5000 });
    await m.start();
    expect(m.servers[0]!.state).toBe("failed");
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(`MCP server "issues" (${url})`);
    expect(reported[0]).toContain("could not start: ");
    expect(reported[0]).toContain("no such thing");
    expect(m.tools()).toEqual([]);
  });
});
