/**
 * MCP servers never outlive Ink: a stdio server that ignores SIGTERM and a closed stdin is still
 * gone after a finished print-mode run and after a SIGTERM or SIGHUP mid-run (SIGHUP exits at
 * once, so only the exit sweep of processes carrying Ink's run tag can end it).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";
import { alive } from "../helpers/processes.js";

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
};

describe("MCP servers are ended when Ink exits", () => {
  let server: FakeAnthropic;
  const pids: number[] = [];
  beforeAll(async () => {
    server = await startFakeAnthropic();
  });
  afterAll(async () => {
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
    await server.close();
  });

  function setup() {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-e2e-orphan-"));
    const pidFile = join(inkHome, "mcp.pid");
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [writeFakeMcpServer()], env: { MODE: "linger", PIDFILE: pidFile } } } }));
    const env = { INK_HOME: inkHome, INK_CLAUDE_HOME: inkHome, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    return { env, pidFile, cwd: mkdtempSync(join(tmpdir(), "ink-e2e-orphan-cwd-")) };
  }

  it("after a finished run", async () => {
    const { env, pidFile, cwd } = setup();
    server.reset();
    server.enqueue(sseTurn([{ text: "fine" }]));
    const run = await runCli(["-p", "hi", "--cwd", cwd], { env });
    expect(run.code).toBe(0);
    const pid = Number(readFileSync(pidFile, "utf8"));
    pids.push(pid);
    await waitFor(() => !alive(pid));
    expect(alive(pid)).toBe(false);
  });

  it.each([["SIGTERM", 143], ["SIGHUP", 129]] as const)("after %s while the model is answering", async (signal, code) => {
    const { env, pidFile, cwd } = setup();
    server.reset();
    server.enqueue({ kind: "stall" });
    const run = await runCli(["-p", "hi", "--cwd", cwd], {
      env,
      onSpawn: (child) => {
        void (async () => {
          await waitFor(() => server.requests.length > 0 && existsSync(pidFile));
          child.kill(signal);
        })();
      },
    });
    expect(run.code).toBe(code);
    const pid = Number(readFileSync(pidFile, "utf8"));
    pids.push(pid);
    await waitFor(() => !alive(pid));
    expect(alive(pid)).toBe(false);
  });
});
