/**
 * Ink's own /proc/<pid>/environ does not hold the API key once it runs: a tool's process (same
 * user) that reads its parent's environment through a path the bash checks cannot see (built at
 * run time) finds the value masked, while the provider still authenticates with the key.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { CLI, makeLoginRepo, runCli } from "../helpers/cli.js";
import { bashSandbox } from "../../src/tools/sandbox.js";

let server: FakeAnthropic;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  server = await startFakeAnthropic();
});
afterAll(() => server.close());

describe.runIf(process.platform === "linux")("the API key is not in Ink's own process environment", () => {
  it("a command reading /proc/$PPID/environ (spelled so no rule sees it) finds the key masked; the provider still got it", async () => {
    const repo = makeLoginRepo();
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const key = "sk-ink-e2e-marker-5150";
    const script = `const t=require('fs').readFileSync('/pr'+'oc/'+process.env.P+'/envi'+'ron','latin1'); process.stdout.write((t.includes('${key}') ? 'LEAKED' : 'CLEAN') + ' ' + (t.includes('ANTHROPIC_API_KEY=') ? 'NAMED' : 'UNNAMED'))`;
    const command = `P=$PPID ${process.execPath} -e "${script}"`;
    server.reset();
    server.enqueue(sseTurn([{ toolUse: { id: "t1", name: "bash", input: { command } } }]));
    server.setFallback(sseTurn([{ text: "done" }]));
    // The fallback's protection (no sandbox): with one, $PPID is outside the command's view anyway.
    const run = await runCli(["-p", "run it", "--cwd", repo, "--yolo"], { env: { INK_HOME: inkHome, ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: server.url, INK_BASH_SANDBOX: "off" } });
    expect(run.code).toBe(0);
    expect(JSON.stringify(server.requests[0]!.headers)).toContain(key);
    const sent = JSON.stringify(server.requests[1]!.body.messages.at(-1));
    expect(sent).toContain("CLEAN NAMED");
    expect(sent).not.toContain(key);
  }, 30_000);
});

describe.runIf(bashSandbox().kind !== "none")("another process's environment is out of sight of bash (the PID-namespace sandbox)", () => {
  it("`cat /pr?c/[0-9]*/envir?n` under --yolo does not reach a key held by another process (the parent shell's, here a holder)", async () => {
    const repo = makeLoginRepo();
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const key = `sk-ink-glob-marker-${process.pid}`;
    const holder = spawn("sleep", ["60"], { env: { ...process.env, ANTHROPIC_API_KEY: key }, stdio: "ignore" });
    try {
      server.reset();
      server.enqueue(sseTurn([{ toolUse: { id: "t1", name: "bash", input: { command: "cat /pr?c/[0-9]*/envir?n | tr '\\0' '\\n' | grep ANTHROPIC_API_KEY; true" } } }]));
      server.setFallback(sseTurn([{ text: "done" }]));
      const run = await runCli(["-p", "run it", "--cwd", repo, "--yolo"], { env: { INK_HOME: inkHome, ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: server.url } });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("bash sandbox: ");
      const sent = JSON.stringify(server.requests[1]!.body.messages.at(-1));
      expect(sent).not.toContain(key);
    } finally {
      holder.kill("SIGKILL");
    }
  }, 30_000);
});
