/**
 * `bash` in its own PID and mount namespace: other processes' /proc entries are out of sight
 * (whatever the spelling), and everything a command starts — even after setsid and a cleared
 * environment — ends on abort and in the exit sweep. Runs where the system allows a namespace.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { settingsReportLines } from "../../src/host/settings-report.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { createBashTool } from "../../src/tools/bash.js";
import { killAllSync } from "../../src/tools/process-registry.js";
import { bashSandbox, boundarySummary, NO_SANDBOX, resetBashSandbox } from "../../src/tools/sandbox.js";
import { makeCtx, tempDir } from "./context.js";
import { sleeping, waitUntil } from "../helpers/processes.js";

const sandbox = bashSandbox();

const mark = (n: number) => `913.${n}${process.pid}`;

describe.runIf(sandbox.kind !== "none")(`bash in a namespace (${sandbox.kind})`, () => {
  const bash = createBashTool({ killGraceMs: 200, drainMs: 50, sandbox });
  let dir: string;
  let cleanup: () => void;
  let holder: ChildProcess | undefined;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => {
    holder?.kill("SIGKILL");
    holder = undefined;
    cleanup();
  });

  it("a glob over /proc finds no other process's environment (the unsandboxed path does: the test's control)", async () => {
    const secret = `sk-glob-marker-${process.pid}`;
    holder = spawn("sleep", ["60"], { env: { ...process.env, HOLDER_API_KEY: secret }, stdio: "ignore" });
    await waitUntil(() => readFileSync(`/proc/${holder!.pid}/cmdline`, "latin1").startsWith("sleep"));
    const command = "cat /pr?c/[0-9]*/envir?n 2>/dev/null | tr '\\0' '\\n' | grep -c sk-glob-marker; true";
    const inside = await bash.execute({ command }, makeCtx(dir));
    expect(inside.output.trim()).toBe("0");
    const outside = await createBashTool({ sandbox: NO_SANDBOX }).execute({ command }, makeCtx(dir));
    expect(Number(outside.output.trim())).toBeGreaterThan(0);
  });

  it("still works on the working tree: writes files, runs git, sees its own processes", async () => {
    const r = await bash.execute({ command: "git init -q . && echo hi > f.txt && git add f.txt && git status --porcelain && ls /proc | grep -c '^[0-9]'" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output).toContain("A  f.txt");
    expect(Number(r.output.trim().split("\n").at(-1))).toBeLessThan(10);
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("hi\n");
    const big = await bash.execute({ command: "seq 1 300000; echo end >&2" }, makeCtx(dir));
    const lines = big.output.trim().split("\n");
    expect(lines).toContain("300000"); // all output read before the call ends
    expect(lines).toContain("end");
    const failed = await bash.execute({ command: "echo nope; exit 3" }, makeCtx(dir));
    expect(failed).toMatchObject({ isError: true });
    expect(failed.output).toBe("nope\n[exit code 3]");
  });

  it("abort ends what shed Ink's tag (setsid env -i, env -u INK_RUN_ID) — the unsandboxed path relies on its marker descriptor instead (bash-orphans.test.ts)", async () => {
    const secs = mark(1);
    const command = `setsid env -i sleep ${secs} & env -u INK_RUN_ID -u INK_CALL_ID sleep ${secs} & sleep ${secs}`;
    const controller = new AbortController();
    const running = bash.execute({ command }, makeCtx(dir, controller.signal));
    expect(await waitUntil(() => sleeping(secs).length === 3)).toBe(true);
    controller.abort();
    const r = await running;
    expect(r.output).toContain("[aborted");
    expect(await waitUntil(() => sleeping(secs).length === 0)).toBe(true);
  });

  it("the command's exit status counts even when the outer process's exit is seen before it", async () => {
    // The outer process exits 0 at once and the namespace reports the status later, on fd 3: the
    // order a loaded machine can show (the exit seen in the loop turn before the status is read).
    const late = { ...sandbox, prefix: ["sh", "-c", '"$@" & exit 0', "sh", ...sandbox.prefix] };
    const r = await createBashTool({ killGraceMs: 200, drainMs: 50, sandbox: late }).execute({ command: "sleep 0.3; echo nope; exit 3" }, makeCtx(dir));
    expect(r).toMatchObject({ isError: true, output: "nope\n[exit code 3]" });
  });

  it("background jobs outlive the call (said in the result) and the exit sweep ends them, tagged or not", async () => {
    const secs = mark(2);
    const r = await bash.execute({ command: `setsid env -i sleep ${secs} >/dev/null 2>&1 & echo started` }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output).toContain("started");
    expect(r.output).toContain("left running in the background");
    expect(r.output).toContain("a later command cannot see or kill them");
    // The job may not have exec'd sleep yet when the call returns (setsid and env run first).
    expect(await waitUntil(() => sleeping(secs).length === 1)).toBe(true);
    killAllSync(200);
    expect(await waitUntil(() => sleeping(secs).length === 0)).toBe(true);
  });
});

describe("which protection is active", () => {
  it("INK_BASH_SANDBOX=off falls back to the spelling check and says so", () => {
    resetBashSandbox();
    try {
      const off = bashSandbox({ INK_BASH_SANDBOX: "off" });
      expect(off.kind).toBe("none");
      expect(off.prefix).toEqual([]);
      expect(off.summary).toContain("INK_BASH_SANDBOX=off");
      expect(off.summary).toContain("secret-path check");
    } finally {
      resetBashSandbox();
    }
  });

  it("the probe names what it found; the session's start-up notices and `ink config` say it", () => {
    expect(sandbox.summary).toMatch(/^bash sandbox: (bubblewrap|unshare|none)/);
    const { dir: cwd, cleanup: c1 } = tempDir();
    const { dir: inkHome, cleanup: c2 } = tempDir();
    try {
      const session = new AgentSession({ cwd, inkHome, provider: createScriptedProvider([]), model: "m", interactive: false, approval: {} });
      expect(session.notices).toContain(sandbox.summary);
      const report = settingsReportLines(inkHome, cwd, false);
      expect(report.slice(-3)).toEqual(["Protection:", `  ${sandbox.summary}`, `  ${boundarySummary()}`]);
      expect(session.notices).toContain(boundarySummary());
      session.close();
    } finally {
      c1();
      c2();
    }
  });
});
