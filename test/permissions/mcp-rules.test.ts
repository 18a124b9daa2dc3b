/** Permission rules naming MCP tools: `mcp__server__tool`, `mcp__server__*`, `mcp__*` and a bare `mcp__server`. */
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { McpServerConfig } from "../../src/mcp/config.js";
import { decide } from "../../src/permissions/decide.js";
import { parseRules } from "../../src/permissions/rules.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";

const verdict = (tool: string, r: { allow?: string[]; ask?: string[]; deny?: string[] }, mode: "default" | "plan" | "yolo" = "default") =>
  decide({ tool, args: { text: "x" }, readOnly: false, cwd: tmpdir(), mode, rules: [...parseRules(r.allow, "allow"), ...parseRules(r.ask, "ask"), ...parseRules(r.deny, "deny")] }).kind;

describe("rules match MCP tools by name and prefix", () => {
  it.each([
    [{ allow: ["mcp__docs__echo"] }, "mcp__docs__echo", "allow"],
    [{ allow: ["mcp__docs__echo"] }, "mcp__docs__add", "ask"],
    [{ allow: ["mcp__docs__*"] }, "mcp__docs__add", "allow"],
    [{ allow: ["mcp__docs__*"] }, "mcp__docsearch__find", "ask"],
    [{ allow: ["mcp__docs"] }, "mcp__docs__add", "allow"],
    [{ allow: ["mcp__docs"] }, "mcp__docsearch__find", "ask"],
    [{ allow: ["mcp__*"] }, "mcp__anything__at_all", "allow"],
    [{ allow: ["mcp__*"], deny: ["mcp__docs__add"] }, "mcp__docs__add", "deny"],
    [{ allow: ["mcp__docs__*"], ask: ["mcp__docs__echo"] }, "mcp__docs__echo", "ask"],
    [{ deny: ["mcp__docs"] }, "mcp__docs__echo", "deny"],
    [{}, "mcp__docs__echo", "ask"],
  ] as const)("%j on %s → %s", (rules, tool, expected) => {
    expect(verdict(tool, rules as never)).toBe(expected);
  });

  it("plan mode runs an MCP tool whose server says it only reads (readOnlyHint) without asking, as Claude Code does; deny and ask rules still apply; other modes still ask", () => {
    const hinted = (r: { allow?: string[]; deny?: string[]; ask?: string[] }, mode: "default" | "plan") =>
      decide({ tool: "mcp__docs__echo", args: {}, readOnly: false, readOnlyHint: true, cwd: tmpdir(), mode, rules: [...parseRules(r.allow, "allow"), ...parseRules(r.deny, "deny"), ...parseRules(r.ask, "ask")] }).kind;
    expect(hinted({}, "plan")).toBe("allow");
    expect(hinted({}, "default")).toBe("ask");
    expect(hinted({ allow: ["mcp__docs__*"] }, "plan")).toBe("allow");
    expect(hinted({ deny: ["mcp__docs__echo"] }, "plan")).toBe("deny");
    expect(hinted({ ask: ["mcp__docs__*"] }, "plan")).toBe("ask");
  });

  it("plan mode refuses an MCP tool even when a rule allows it (it may change things); yolo allows", () => {
    expect(verdict("mcp__docs__echo", { allow: ["mcp__docs__*"] }, "plan")).toBe("deny");
    expect(verdict("mcp__docs__echo", {}, "yolo")).toBe("allow");
  });
});

describe("a headless session with real MCP servers: prefix rules decide every call, children included", () => {
  const sessions: AgentSession[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) s.close();
  });
  const script = writeFakeMcpServer();
  const server = (name: string): McpServerConfig => ({ name, source: "test", transport: "stdio", command: process.execPath, args: [script], env: { MODE: "ok" }, startupTimeoutMs: 10_000 });

  it("mcp__docs__* allows docs tools, a deny beats it, another server's tool is refused with the reason — for the main agent and a child", async () => {
    const calls = [
      { id: "m1", name: "mcp__docs__echo", arguments: { text: "main" } },
      { id: "m2", name: "mcp__docs__add", arguments: { a: 1, b: 2 } },
      { id: "m3", name: "mcp__other__echo", arguments: { text: "no" } },
    ];
    const provider = createScriptedProvider((request) => {
      const last = request.messages.at(-1)!;
      const child = request.system.includes("# Subagent mode");
      if (child) return last.role === "user" ? { toolCalls: [{ id: "c1", name: "mcp__other__echo", arguments: { text: "child" } }, { id: "c2", name: "mcp__docs__echo", arguments: { text: "child" } }] } : { text: "child went on" };
      if (request.messages.length === 1) return { toolCalls: calls };
      if (request.messages.length === 3) return { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "use the docs" } }] };
      return { text: "all done" };
    });
    const inkHome = (await import("node:fs")).mkdtempSync(`${tmpdir()}/ink-home-`);
    const s = new AgentSession({ cwd: tmpdir(), inkHome, provider, model: "m", interactive: false, persist: false, approval: { allow: ["mcp__docs__*"], deny: ["mcp__docs__add"] }, mcpServers: [server("docs"), server("other")] });
    sessions.push(s);
    await s.startMcp();
    expect(s.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["mcp__docs__echo", "mcp__docs__add", "mcp__other__echo"]));
    await s.prompt("go");

    const mainResults = (s.history[2] as ToolResultMessage).results;
    expect(mainResults[0]).toMatchObject({ isError: false, content: expect.stringContaining("echo: main") });
    expect(mainResults[1]).toMatchObject({ isError: true, content: expect.stringContaining("mcp__docs__add is denied by the rule mcp__docs__add") });
    expect(mainResults[2]).toMatchObject({ isError: true, content: expect.stringContaining("mcp__other__echo needs approval") });

    const childSecond = provider.requests.filter((r) => r.system.includes("# Subagent mode"))[1]!;
    const childResults = (childSecond.messages.at(-1) as ToolResultMessage).results;
    expect(childResults[0]).toMatchObject({ isError: true, content: expect.stringMatching(/mcp__other__echo needs approval.*subagent general/s) });
    expect(childResults[1]).toMatchObject({ isError: false, content: expect.stringContaining("echo: child") });
    const taskResult = (s.history[4] as ToolResultMessage).results[0]!;
    expect(taskResult.content).toContain("child went on");
  });
});
