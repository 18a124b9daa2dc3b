/** A profile's `mcpServers:` start for that child only (a real stdio MCP server), and stop when it ends. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { selectChildToolPool } from "../../src/subagents/runtime/child-prompt.js";
import { harness, isChild, profile, type Harness } from "../helpers/subagent-harness.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";

/** Live processes whose command line names `script`. */
function serverProcesses(script: string): number[] {
  return readdirSync("/proc").filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    try {
      return readFileSync(`/proc/${n}/cmdline`, "latin1").includes(script) ? [Number(n)] : [];
    } catch {
      return [];
    }
  });
}

let h: Harness | undefined;
afterEach(() => h?.cleanup());

describe("a profile's own MCP servers", () => {
  it("start for that child only: its tools (as listed) reach the child, never the parent, a call round-trips, and the server is gone afterwards", async () => {
    const script = writeFakeMcpServer();
    const db = profile("db", { tools: ["echo", "mcp__db__echo"], mcpServers: { db: { command: process.execPath, args: [script], env: { MODE: "ok" } } } });
    let runningDuringChild: number[] = [];
    h = harness((request) => {
      if (!isChild(request)) return request.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "query", agent: "db" } }] } : { text: "parent done" };
      if (request.messages.length === 1) {
        runningDuringChild = serverProcesses(script);
        return { toolCalls: [{ name: "mcp__db__echo", arguments: { text: "from the child" } }] };
      }
      const result = (request.messages.at(-1) as ToolResultMessage).results[0]!;
      return { text: `child saw: ${result.content.split("\n")[0]}` };
    }, { profiles: [db] });
    await h.run("go");

    const childRequests = h.provider.requests.filter(isChild);
    expect(childRequests[0]!.tools.map((t) => t.name)).toEqual(["echo", "mcp__db__echo"]);
    expect(childRequests[0]!.tools.find((t) => t.name === "mcp__db__echo")!.inputSchema).toMatchObject({ required: ["text"], additionalProperties: false });
    for (const parent of h.provider.requests.filter((r) => !isChild(r))) expect(parent.tools.map((t) => t.name).some((n) => n.startsWith("mcp__"))).toBe(false);
    const task = (h.history[2] as ToolResultMessage).results[0]!;
    expect(task.content).toContain("child saw: echo: from the child");
    expect(runningDuringChild).toHaveLength(1);
    // Ended with the child: wait for the process to be gone rather than assume it already is (a loaded machine).
    for (let i = 0; i < 200 && serverProcesses(script).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(serverProcesses(script)).toEqual([]);
  });

  it("a profile server that fails to start is reported (warning + note in the result) and the child still runs", async () => {
    const script = writeFakeMcpServer();
    const broken = profile("broken", { mcpServers: { db: { command: process.execPath, args: [script], env: { MODE: "crash-start" } } } });
    h = harness((request) => {
      if (!isChild(request)) return request.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "query", agent: "broken" } }] } : { text: "parent done" };
      return { text: `tools: ${request.tools.map((t) => t.name).join(",")}` };
    }, { profiles: [broken] });
    await h.run("go");
    const task = (h.history[2] as ToolResultMessage).results[0]!;
    expect(task.isError).toBe(false);
    expect(task.content).toContain("tools: echo");
    expect(task.content).not.toContain("mcp__db");
    expect(task.content).toMatch(/\[task\] MCP server "db" \(.*server\.cjs\) exited before it finished starting; its stderr ended with:\nboom: cannot open the database/);
    const warning = h.events.find((e) => e.type === "warning" && e.source === "mcp") as Extract<AgentEvent, { type: "warning" }> | undefined;
    expect(warning?.message).toContain('MCP server "db"');
  });

  it("the profile's tools list may name its own servers' tools without failing the pool check; other unknown names still fail", () => {
    const pool = [{ name: "read" }, { name: "task" }] as never;
    expect(selectChildToolPool(pool, { name: "p", path: "p.md", tools: ["read", "mcp__own__q"], mcpServers: { own: {} } }).map((t) => t.name)).toEqual(["read"]);
    // An MCP tool of a server the session lacks is left out (named), never a failed delegation.
    const skipped: string[] = [];
    expect(selectChildToolPool(pool, { name: "p", path: "p.md", tools: ["read", "mcp__other__q"], mcpServers: { own: {} } }, skipped).map((t) => t.name)).toEqual(["read"]);
    expect(skipped).toEqual(["mcp__other__q"]);
    expect(() => selectChildToolPool(pool, { name: "p", path: "p.md", tools: ["read", "nosuch"], mcpServers: { own: {} } })).toThrow(/unknown tool "nosuch"/);
  });

  it("a worktree child's servers run in its worktree, not in the person's checkout", async () => {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), "ink-mcp-wt-")));
    try {
      execFileSync("git", ["init", "-q", repo]);
      writeFileSync(join(repo, "a.txt"), "a\n");
      execFileSync("git", ["-C", repo, "add", "a.txt"]);
      execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]);
      const script = writeFakeMcpServer();
      const db = profile("db", { worktree: true, mcpServers: { db: { command: process.execPath, args: [script], env: { MODE: "ok" } } } });
      let serverCwd: string[] = [];
      h = harness((request) => {
        if (!isChild(request)) return request.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "query", agent: "db" } }] } : { text: "parent done" };
        serverCwd = serverProcesses(script).map((pid) => readlinkSync(`/proc/${pid}/cwd`));
        return { text: "child done" };
      }, { profiles: [db], cwd: repo });
      await h.run("go");
      expect(serverCwd).toHaveLength(1);
      expect(serverCwd[0]).not.toBe(repo);
      expect(serverCwd[0]).toMatch(/\/worktrees\/ink-mcp-wt-[^/]+\/[^/]+$/); // the child's worktree (removed once it ended)
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
