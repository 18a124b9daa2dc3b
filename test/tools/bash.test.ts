import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bashTool, createBashTool, type BashDetails } from "../../src/tools/bash.js";
import { NO_SANDBOX } from "../../src/tools/sandbox.js";
import { abortedSignal, makeCtx, tempDir } from "./context.js";

// The unsandboxed path (the fallback where no PID namespace is allowed): pids are the test's pids. The sandbox has its own file.
const bash = createBashTool({ killGraceMs: 100, drainMs: 50, maxBytes: 1000, maxLines: 20, sandbox: NO_SANDBOX });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * True once `pid` has terminated: `kill(pid, 0)` throws ESRCH, or the process is a zombie (dead,
 * waiting for an init process that is not ours to reap it).
 */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

async function waitUntil(check: () => boolean, tries = 150, stepMs = 20): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (check()) return true;
    await sleep(stepMs);
  }
  return check();
}

/** The command line of `pid` (arguments joined by spaces), "" once it is gone. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter((w) => w !== "").join(" ");
  } catch {
    return "";
  }
}

/**
 * Shell text that waits until the process whose pid is in `pidFile` runs one of `names` (a
 * background job is a copy of the shell until it has exec'd — and `setsid` until it has exec'd
 * what it starts). Names hold no double quotes.
 */
const waitNamed = (pidFile: string, ...names: string[]) =>
  `until case "$(tr '\\0' ' ' < /proc/$(cat ${pidFile})/cmdline)" in ${names.map((n) => `"${n} "`).join("|")}) true ;; *) false ;; esac; do sleep 0.01; done`;

async function readPid(file: string): Promise<number> {
  const ready = await waitUntil(() => existsSync(file) && /^\d+\s*$/.test(readFileSync(file, "utf8")));
  if (!ready) throw new Error(`pid file ${file} never appeared`);
  return Number(readFileSync(file, "utf8").trim());
}

describe("bash tool", () => {
  let dir: string;
  let cleanup: () => void;
  const leftovers: number[] = [];
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => {
    for (const pid of leftovers.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    cleanup();
  });

  it("runs in ctx.cwd and returns combined output", async () => {
    const r = await bash.execute({ command: "pwd; echo out; echo err >&2" }, makeCtx(dir));
    expect(r.isError).toBe(false);
    expect(r.output.split("\n")[0]).toBe(realpathSync(dir));
    expect(r.output).toContain("out");
    expect(r.output).toContain("err");
    expect((r.details as BashDetails).exitCode).toBe(0);
  });

  it("reports a non-zero exit code as an error", async () => {
    const r = await bash.execute({ command: "echo oops >&2; exit 3" }, makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("oops");
    expect(r.output).toContain("[exit code 3]");
    expect((r.details as BashDetails).exitCode).toBe(3);
  });

  it("says (no output) for silent commands and closes stdin", async () => {
    const r = await bash.execute({ command: "cat" }, makeCtx(dir));
    expect(r).toMatchObject({ output: "(no output)", isError: false });
  });

  it("streams output through onUpdate", async () => {
    const ctx = makeCtx(dir);
    await bash.execute({ command: "echo one; echo two" }, ctx);
    expect(ctx.updates.join("")).toBe("one\ntwo\n");
  });

  it("keeps the last lines and notes how many were dropped", async () => {
    const r = await bash.execute({ command: "seq 1 100" }, makeCtx(dir));
    const [note, ...body] = r.output.split("\n");
    expect(note).toContain("output truncated: 80 earlier lines");
    expect(body[0]).toBe("81");
    expect(body[body.length - 1]).toBe("100");
    expect(body).toHaveLength(20);
    expect((r.details as BashDetails).truncated).toBe(true);
  });

  it("caps output by bytes too", async () => {
    const r = await bash.execute({ command: "head -c 5000 /dev/zero | tr '\\0' a; echo; echo end" }, makeCtx(dir));
    expect(r.output).toMatch(/^\[output truncated: .*dropped/);
    expect(r.output.endsWith("end")).toBe(true);
    expect(r.output.length).toBeLessThan(1200);
  });

  it("abort kills the whole process group, background children included", async () => {
    const pidFile = join(dir, "bg.pid");
    const controller = new AbortController();
    const running = bash.execute({ command: `sleep 30 & echo $! > bg.pid; sleep 30` }, makeCtx(dir, controller.signal));
    const pid = await readPid(pidFile);
    leftovers.push(pid);
    expect(processGone(pid)).toBe(false);
    controller.abort();
    const r = await running;
    expect(r.isError).toBe(true);
    expect(r.output).toContain("aborted");
    expect((r.details as BashDetails).aborted).toBe(true);
    expect(await waitUntil(() => processGone(pid))).toBe(true);
  });

  it("timeout kills the whole process group, background children included", async () => {
    const pidFile = join(dir, "bg.pid");
    const running = bash.execute({ command: `sleep 30 & echo $! > bg.pid; sleep 30`, timeoutMs: 300 }, makeCtx(dir));
    const pid = await readPid(pidFile);
    leftovers.push(pid);
    const r = await running;
    expect(r.isError).toBe(true);
    expect(r.output).toContain("timed out after 300 ms");
    expect((r.details as BashDetails).timedOut).toBe(true);
    expect(await waitUntil(() => processGone(pid))).toBe(true);
  });

  it("escalates to SIGKILL for children that ignore SIGTERM", async () => {
    const pidFile = join(dir, "bg.pid");
    const command = `trap '' TERM; sleep 30 & echo $! > bg.pid; sleep 30`;
    const running = bash.execute({ command, timeoutMs: 200 }, makeCtx(dir));
    const pid = await readPid(pidFile);
    leftovers.push(pid);
    const r = await running;
    expect(r.isError).toBe(true);
    expect(await waitUntil(() => processGone(pid))).toBe(true);
  });

  it("returns when the shell exits even if a background child holds the output", async () => {
    const r = await bash.execute({ command: `sleep 30 & echo $! > bg.pid; echo done` }, makeCtx(dir));
    leftovers.push(Number(readFileSync(join(dir, "bg.pid"), "utf8").trim()));
    expect(r.isError).toBe(false);
    expect(r.output).toContain("done");
    expect(r.output).toContain("background processes still hold the output");
  });

  it("a command that returns while what it started still runs tells the model, naming each process — in the group or escaped with setsid", async () => {
    // The command returns once both run what they were started for, so the note can name them.
    const command = `sleep 31 >/dev/null 2>&1 & echo $! > a.pid; setsid sleep 32 >/dev/null 2>&1 & echo $! > b.pid; ${waitNamed("a.pid", "sleep 31")}; ${waitNamed("b.pid", "sleep 32")}; echo done`;
    const r = await bash.execute({ command }, makeCtx(dir));
    const a = await readPid(join(dir, "a.pid"));
    const b = await readPid(join(dir, "b.pid"));
    leftovers.push(a, b);
    expect(r.isError).toBe(false);
    expect(r.output).toContain("done");
    expect(r.output).toMatch(/\[left running in the background: .*killed when Ink exits/);
    expect(r.output).toContain(`pid ${a} (sleep 31)`);
    expect(r.output).toContain(`pid ${b} (sleep 32)`);
    expect(r.output).not.toContain("still hold the output");
  });

  it("a command that leaves nothing running gets no such note", async () => {
    const r = await bash.execute({ command: "sleep 0.05 & wait; echo quiet" }, makeCtx(dir));
    expect(r.output).toBe("quiet");
  });

  it("timeout and abort also kill what left the group (setsid, double fork), even when it ignores SIGTERM", async () => {
    // Both have left the group (setsid has exec'd sh, the double fork's sleep runs) before the time is up.
    const command = `setsid sh -c "trap '' TERM; sleep 33" >/dev/null 2>&1 & echo $! > s.pid; (sleep 34 >/dev/null 2>&1 & echo $! > d.pid) ; ${waitNamed("s.pid", "sh -c trap '' TERM; sleep 33", "sleep 33")}; ${waitNamed("d.pid", "sleep 34")}; touch escaped; sleep 30`;
    const r = await bash.execute({ command, timeoutMs: 1500 }, makeCtx(dir));
    const s1 = await readPid(join(dir, "s.pid"));
    const d = await readPid(join(dir, "d.pid"));
    leftovers.push(s1, d);
    expect(r.output).toContain("timed out after 1500 ms");
    expect(existsSync(join(dir, "escaped"))).toBe(true);
    expect(await waitUntil(() => processGone(s1) && processGone(d))).toBe(true);

    const controller = new AbortController();
    const running = bash.execute({ command: `setsid sleep 35 >/dev/null 2>&1 & echo $! > e.pid; sleep 30` }, makeCtx(dir, controller.signal));
    const e = await readPid(join(dir, "e.pid"));
    leftovers.push(e);
    expect(await waitUntil(() => commandLine(e) === "sleep 35")).toBe(true); // out of the group, not a shell copy in it
    controller.abort();
    expect((await running).output).toContain("aborted");
    expect(await waitUntil(() => processGone(e))).toBe(true);
  });

  it("does not run anything when the signal is already aborted", async () => {
    const r = await bash.execute({ command: "touch ran" }, makeCtx(dir, abortedSignal()));
    expect(r).toEqual({ output: "aborted", isError: true });
    expect(existsSync(join(dir, "ran"))).toBe(false);
  });

  it("reports a missing working directory", async () => {
    const r = await bash.execute({ command: "true" }, makeCtx(join(dir, "missing")));
    expect(r.isError).toBe(true);
    expect(r.output).toContain("does not exist");
  });

  it("is neither read-only nor concurrent, and validates arguments", () => {
    expect(bashTool.readOnly).toBe(false);
    expect(bashTool.concurrent).toBe(false);
    expect(bashTool.schema.safeParse({}).success).toBe(false);
    expect(bashTool.schema.safeParse({ command: "ls", timeoutMs: 0 }).success).toBe(false);
    expect(bashTool.schema.safeParse({ command: "ls", timeoutMs: 1000 }).success).toBe(true);
  });
});
