/**
 * SessionEnd hooks on a signal exit: the built CLI as a real child process (print mode, stalled on
 * the loopback server) gets SIGTERM (the graceful stop) or SIGHUP (the immediate exit); either way
 * its SessionEnd hook receives the documented JSON before the process ends, and a SessionEnd hook
 * that hangs is cut short and killed rather than holding the exit. The control channel (`--mode
 * rpc`) stopped with SIGINT does the same.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, makeLoginRepo, runCli } from "../helpers/cli.js";
import { ensureBuilt } from "../helpers/build.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { gone, waitFor } from "../helpers/acp-client.js";

let server: FakeAnthropic;
let repo = "";
const dirs: string[] = [];
beforeAll(async () => {
  ensureBuilt();
  server = await startFakeAnthropic();
  repo = makeLoginRepo();
});
afterAll(async () => {
  await server?.close();
  for (const d of [repo, ...dirs]) rmSync(d, { recursive: true, force: true });
});

/** An INK_HOME whose settings.json runs `script` (sh) as the SessionEnd hook. */
function homeWithSessionEnd(script: string): string {
  const home = mkdtempSync(join(tmpdir(), "ink-end-home-"));
  dirs.push(home);
  writeFileSync(join(home, "end.sh"), `#!/bin/sh\n${script}\n`);
  writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: `sh '${join(home, "end.sh")}'` }] }] } }));
  return home;
}

/** Runs `ink -p` until its model request is waiting, then sends `sig`; resolves with the exit code. */
async function stopWith(sig: NodeJS.Signals, home: string): Promise<number | null> {
  server.reset();
  server.setFallback({ kind: "stall" });
  const run = await runCli(["-p", "take your time", "--cwd", repo], {
    env: { INK_HOME: home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
    onSpawn: (child) => void waitFor(() => server.requests.length > 0, "the model request").then(() => child.kill(sig)),
  });
  return run.code;
}

describe("SessionEnd on a signal exit", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("%s: the SessionEnd hook runs with the documented JSON before the exit", async (sig, code) => {
    const log = join(tmpdir(), `ink-end-${process.pid}-${sig}.json`);
    dirs.push(log);
    const home = homeWithSessionEnd(`cat > '${log}'`);
    expect(await stopWith(sig, home)).toBe(code);
    expect(existsSync(log)).toBe(true); // written before the process ended
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other", cwd: repo, session_id: expect.stringMatching(/\S/) });
  });

  it("a SessionEnd hook that hangs is cut short and killed; the process still exits", async () => {
    const pidFile = join(tmpdir(), `ink-end-${process.pid}-hang.pid`);
    dirs.push(pidFile);
    const home = homeWithSessionEnd(`sleep 301.7 &\necho $! > '${pidFile}'\nwait`);
    expect(await stopWith("SIGHUP", home)).toBe(129);
    const sleeper = Number(readFileSync(pidFile, "utf8"));
    expect(await gone(sleeper)).toBe(true);
  });

  it("--mode rpc stopped with SIGINT runs the SessionEnd hook before it exits", async () => {
    const log = join(tmpdir(), `ink-end-${process.pid}-rpc.json`);
    dirs.push(log);
    const home = homeWithSessionEnd(`cat > '${log}'`);
    server.reset();
    server.setFallback({ kind: "stall" });
    const child = spawn(process.execPath, [CLI, "--mode", "rpc", "--cwd", repo], { env: { ...process.env, INK_HOME: home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url }, stdio: ["pipe", "ignore", "ignore"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdin.write(`${JSON.stringify({ type: "prompt", text: "take your time" })}\n`);
    await waitFor(() => server.requests.length > 0, "the model request");
    child.kill("SIGINT");
    expect(await exited).toBe(0); // rpc mode: a signal ends the channel in order (closed event), exit 0
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other", cwd: repo });
  });
});

describe("SessionEnd at the normal end of --mode rpc", () => {
  it("stdin closed after a prompt: the SessionEnd hook runs before the process exits", async () => {
    const log = join(tmpdir(), `ink-end-${process.pid}-rpc-eof.json`);
    dirs.push(log);
    const home = homeWithSessionEnd(`cat > '${log}'`);
    server.reset();
    server.setFallback(sseTurn([{ text: "done" }]));
    const child = spawn(process.execPath, [CLI, "--mode", "rpc", "--cwd", repo], { env: { ...process.env, INK_HOME: home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url }, stdio: ["pipe", "ignore", "ignore"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdin.write(`${JSON.stringify({ type: "prompt", text: "hello" })}\n`);
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(existsSync(log)).toBe(true); // without the fix: only a signal exit ran SessionEnd in rpc mode
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other", cwd: repo });
  });
});
