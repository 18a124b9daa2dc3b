import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { parseMcpServers, type McpServerConfig } from "../../src/mcp/config.js";
import { McpManager } from "../../src/mcp/manager.js";
import { toToolSpec } from "../../src/tools/spec.js";
import { createScriptedProvider, type ScriptedProvider } from "../../src/providers/scripted.js";
import { writeFakeMcpServer } from "./fake-mcp-server.js";

const script = writeFakeMcpServer();
const managers: McpManager[] = [];
const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) s.close();
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function server(name: string, mode: string, extra: Partial<Record<string, string>> = {}, timeout?: number): McpServerConfig {
  return { name, source: "test", transport: "stdio", command: process.execPath, args: [script], env: { MODE: mode, ...extra } as Record<string, string>, startupTimeoutMs: timeout ?? 10_000 };
}

function manager(configs: McpServerConfig[]) {
  const problems: string[] = [];
  const m = new McpManager(configs, { onProblem: (p) => problems.push(p) });
  managers.push(m);
  return { m, problems };
}

describe("MCP servers over stdio", () => {
  it("lists tools as mcp__<server>__<tool> with the server's JSON schema passed through, and calls them", async () => {
    const { m } = manager([server("docs", "ok")]);
    await m.start();
    const tools = m.tools();
    expect(tools.map((t) => t.name)).toEqual(["mcp__docs__echo", "mcp__docs__add"]);
    // The server's readOnlyHint is kept (plan mode runs such a tool without asking); the tool is still not read-only.
    expect(tools.map((t) => [t.name, t.readOnly, t.readOnlyHint === true])).toEqual([["mcp__docs__echo", false, true], ["mcp__docs__add", false, false]]);
    expect(toToolSpec(tools[0]!).inputSchema).toEqual({ type: "object", properties: { text: { type: "string", description: "what to echo" } }, required: ["text"], additionalProperties: false });
    const ctx = { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c1" };
    const out = await tools[0]!.execute({ text: "hi" }, ctx);
    expect(out.isError).toBe(false);
    expect(out.output).toContain("echo: hi");
    expect(out.output).toContain("[image: image/png, 3 B]");
    expect(out.images).toEqual([{ mimeType: "image/png", data: "AAAA" }]);
    expect(m.describe().join("\n")).toContain("docs — ready");
  });

  it("tool names that clash after cleaning (e.cho vs e_cho, a tool listed twice) keep the first, reported once", async () => {
    const { m, problems } = manager([server("docs", "clash")]);
    await m.start();
    expect(m.tools().map((t) => t.name)).toEqual(["mcp__docs__echo", "mcp__docs__add", "mcp__docs__e_cho"]);
    m.tools();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('MCP server "docs": tool "e_cho" skipped: its name mcp__docs__e_cho is already taken');
    expect(problems[1]).toContain('tool "add" skipped');
  });

  it("a server that announces a changed tool list (tools/list_changed) gets its new tools into the pool", async () => {
    let changes = 0;
    const m = new McpManager([server("docs", "grow")], { onChange: () => changes++ });
    managers.push(m);
    await m.start();
    expect(m.tools().map((t) => t.name)).toEqual(["mcp__docs__echo", "mcp__docs__add"]);
    const seen = changes;
    await m.tools()[0]!.execute({ text: "x" }, { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c" });
    await expect.poll(() => m.tools().map((t) => t.name)).toEqual(["mcp__docs__echo", "mcp__docs__add", "mcp__docs__later"]);
    expect(changes).toBeGreaterThan(seen);
  });

  it("checks arguments against the server's schema before calling", async () => {
    const { m } = manager([server("docs", "ok")]);
    await m.start();
    const echo = m.tools()[0]!;
    const bad = echo.schema.safeParse({ text: 3, extra: true });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error!.issues)).toContain("text: expected string, got integer");
    expect(JSON.stringify(bad.error!.issues)).toContain("extra: is not an accepted argument");
  });

  it("reports a server that crashes at start once, with its command and stderr tail, and has no tools", async () => {
    const { m, problems } = manager([server("db", "crash-start"), server("docs", "ok")]);
    await m.start();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('MCP server "db"');
    expect(problems[0]).toContain(script);
    expect(problems[0]).toContain("boom: cannot open the database");
    expect(m.tools().map((t) => t.name)).toEqual(["mcp__docs__echo", "mcp__docs__add"]);
  });

  it("a server that crashes during a call: error result, reported once, its tools removed", async () => {
    const { m, problems } = manager([server("flaky", "crash-call")]);
    await m.start();
    const tool = m.tools()[0]!;
    const out = await tool.execute({ text: "x" }, { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c" });
    expect(out.isError).toBe(true);
    await expect.poll(() => problems.length).toBe(1);
    expect(problems[0]).toContain("fatal: lost the connection");
    expect(m.tools()).toEqual([]);
  });

  it("a call that never gets an answer ends at the server's callTimeout, or at once when the run is aborted; the server stays usable", async () => {
    const { m, problems } = manager([{ ...server("slow", "hang-call"), callTimeoutMs: 300 }]);
    await m.start();
    const tool = m.tools()[0]!;
    const timedOut = await tool.execute({ text: "x" }, { signal: new AbortController().signal, cwd: tmpdir(), toolCallId: "c1" });
    expect(timedOut).toMatchObject({ isError: true });
    expect(timedOut.output).toContain('MCP tool echo on server "slow" got no answer within 300 ms (raise "callTimeout"');
    const stop = new AbortController();
    const pending = tool.execute({ text: "x" }, { signal: stop.signal, cwd: tmpdir(), toolCallId: "c2" });
    stop.abort();
    expect((await pending).output).toContain("stopped (the run was aborted)");
    expect(m.servers[0]!.state).toBe("ready");
    expect(problems).toEqual([]);
    const parsed = parseMcpServers({ s: { command: "x", callTimeout: 5000 } }, "f", {}, []);
    expect(parsed[0]).toMatchObject({ callTimeoutMs: 5000 });
  });

  it("a server that never answers is failed after its start-up timeout", async () => {
    const { m, problems } = manager([server("stuck", "hang", {}, 300)]);
    await m.start();
    expect(m.servers[0]!.state).toBe("failed");
    expect(problems[0]).toContain("did not start within 300 ms");
  });
});

describe("MCP in a session", () => {
  function session(configs: McpServerConfig[], provider: ScriptedProvider, extra: Partial<ConstructorParameters<typeof AgentSession>[0]> = {}) {
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const cwd = mkdtempSync(join(tmpdir(), "ink-cwd-"));
    const s = new AgentSession({ cwd, inkHome: home, provider, model: "scripted", interactive: false, approval: { allow: ["mcp__docs__*"] }, persist: false, mcpServers: configs, ...extra });
    sessions.push(s);
    return s;
  }

  it("a slow server does not delay the first model request (its tools join when ready)", async () => {
    const gate = join(mkdtempSync(join(tmpdir(), "ink-gate-")), "open");
    const provider = createScriptedProvider([{ text: "first" }, { text: "second" }]);
    const s = session([server("docs", "gate", { GATE: gate })], provider);
    const started = s.startMcp();
    await s.prompt("hello");
    expect(s.mcp.servers[0]!.state).toBe("starting");
    expect(provider.requests[0]!.tools.map((t) => t.name)).not.toContain("mcp__docs__echo");
    writeFileSync(gate, "");
    await started;
    await s.prompt("again");
    expect(provider.requests[1]!.tools.map((t) => t.name)).toContain("mcp__docs__echo");
  });

  it("the main agent and a child call an MCP tool (round trip through the approval decision)", async () => {
    const provider = createScriptedProvider([
      { toolCalls: [{ name: "mcp__docs__echo", arguments: { text: "main" } }] },
      { toolCalls: [{ name: "task", arguments: { prompt: "echo child" } }] },
      { toolCalls: [{ name: "mcp__docs__add", arguments: { a: 2, b: 3 } }] },
      { text: "child got it" },
      { text: "done" },
    ]);
    const s = session([server("docs", "ok")], provider);
    await s.startMcp();
    await s.prompt("go");
    expect(JSON.stringify(s.history)).toContain("echo: main");
    expect(JSON.stringify(provider.requests[3]!.messages)).toContain('"5"');
    expect(provider.requests[2]!.tools.map((t) => t.name)).toContain("mcp__docs__add");
  });

  it("headless, an MCP call without an allowing rule is refused with how to allow it", async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ name: "mcp__docs__echo", arguments: { text: "x" } }] }, { text: "ok" }]);
    const s = session([server("docs", "ok")], provider, { approval: {} });
    await s.startMcp();
    await s.prompt("go");
    expect(JSON.stringify(provider.requests[1]!.messages)).toContain("--allow mcp__docs__echo");
  });

  it("an untrusted project's .mcp.json is not read or started; a trusted one is", () => {
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const cwd = mkdtempSync(join(tmpdir(), "ink-cwd-"));
    const marker = join(cwd, "started");
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: ["-e", `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`] } } }));
    const untrusted = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([]), model: "m", interactive: false, approval: {}, persist: false });
    sessions.push(untrusted);
    expect(untrusted.mcp.servers).toEqual([]);
    expect(untrusted.notices).toContain(`${join(cwd, ".mcp.json")} was not read: this project is not trusted, so its MCP servers were not started; run with --trust (or accept the trust question) to start them`);
    const trusted = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([]), model: "m", interactive: false, approval: {}, persist: false, trust: true });
    sessions.push(trusted);
    expect(trusted.mcp.servers.map((x) => x.config.name)).toEqual(["proj"]);
    expect(trusted.notices.join("\n")).not.toContain(".mcp.json");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("MCP configuration", () => {
  it("expands ${VAR} and names bad entries with the fix", () => {
    const problems: string[] = [];
    const servers = parseMcpServers(
      { gh: { command: "gh-mcp", args: ["--token", "${TOKEN}"], env: { HOME_DIR: "${HOME_X:-/none}" } }, web: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } }, bad: { args: [] } },
      "/x/settings.json",
      { TOKEN: "t0k" },
      problems,
    );
    expect(servers).toMatchObject([{ name: "gh", args: ["--token", "t0k"], env: { HOME_DIR: "/none" } }, { name: "web", transport: "http", headers: { Authorization: "Bearer t0k" } }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('/x/settings.json: MCP server "bad" skipped');
    expect(problems[0]).toContain('{"command": "...", "args": [...]}');
  });
});
