import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { CLI, makeLoginRepo, runCli } from "../helpers/cli.js";

/** Pids whose command line contains `marker` (not followed by a digit: `sleep 731.12` is not `sleep 731.1`). */
function survivors(marker: string): number[] {
  const re = new RegExp(`${marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?!\\d)`);
  return readdirSync("/proc").filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    try {
      return re.test(readFileSync(`/proc/${n}/cmdline`, "latin1").split("\0").join(" ")) ? [Number(n)] : [];
    } catch {
      return [];
    }
  });
}

/** Pids running exactly `sleep <secs>` (started and exec'd — not the shell, nor a copy of it that has not exec'd yet). */
function sleeping(secs: string): number[] {
  return survivors(`sleep ${secs}`).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "latin1") === `sleep\0${secs}\0`;
    } catch {
      return false;
    }
  });
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
};

let server: FakeAnthropic;
let repo: string;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  server = await startFakeAnthropic();
  repo = makeLoginRepo();
});
afterAll(() => server.close());

/**
 * The `sleep` length that marks one case's processes: unique to this test process, so a second
 * `npm test` running at the same time (two at once on a loaded machine) never counts these as its own.
 */
const mark = (n: number) => `731.${n}${process.pid}`;

describe("a real CLI process leaves no process and no lock behind", () => {
  const cases: Array<[string, NodeJS.Signals[] | "timeout", string]> = [
    ["SIGINT", ["SIGINT"], mark(1)],
    ["SIGTERM", ["SIGTERM"], mark(2)],
    ["SIGHUP", ["SIGHUP"], mark(3)],
    ["SIGINT twice (command traps TERM)", ["SIGINT", "SIGINT"], mark(4)],
    ["timeout", "timeout", mark(5)],
  ];
  it.each(cases)("%s", async (_name, how, secs) => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const command = `sleep ${secs} & setsid sleep ${secs} & nohup sleep ${secs} >/dev/null 2>&1 & (trap '' TERM; sleep ${secs}) & (trap '' TERM; sleep ${secs})`;
    const timeoutMs = how === "timeout" ? 1500 : 600_000;
    server.reset();
    server.enqueue(sseTurn([{ toolUse: { id: "t1", name: "bash", input: { command, timeoutMs } } }]));
    server.setFallback(sseTurn([{ text: "done" }]));
    const run = await runCli(["-p", "run it", "--cwd", repo, "--yolo"], {
      env: { INK_HOME: inkHome, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
      onSpawn: (child) => {
        if (how === "timeout") return;
        void (async () => {
          await waitFor(() => sleeping(secs).length >= 5); // all five have started (the setsid one has left the group)
          for (const sig of how) {
            child.kill(sig);
            await new Promise((r) => setTimeout(r, 100));
          }
        })();
      },
    });
    expect(run.code).not.toBeNull();
    await waitFor(() => survivors(`sleep ${secs}`).length === 0);
    expect(survivors(`sleep ${secs}`)).toEqual([]);
    const sessions = join(inkHome, "sessions");
    const locks = existsSync(sessions) ? readdirSync(sessions).filter((f) => f.endsWith(".lock")) : [];
    expect(locks).toEqual([]);
  }, 30_000);
});

describe("processes that shed Ink's tag (setsid env -i, env -u INK_RUN_ID) are still ended", () => {
  it.each([
    ["SIGINT while the command runs", mark(7), true],
    ["the run ends normally with them left in the background", mark(8), false],
  ] as const)("%s", async (_name, secs, interrupt) => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const shed = `setsid env -i sleep ${secs} >/dev/null 2>&1 & env -u INK_RUN_ID -u INK_CALL_ID sleep ${secs} >/dev/null 2>&1 &`;
    const command = interrupt ? `${shed} sleep ${secs}` : `${shed} echo started`;
    server.reset();
    server.enqueue(sseTurn([{ toolUse: { id: "t1", name: "bash", input: { command } } }]));
    server.setFallback(sseTurn([{ text: "done" }]));
    const run = await runCli(["-p", "run it", "--cwd", repo, "--yolo"], {
      env: { INK_HOME: inkHome, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
      onSpawn: (child) => {
        if (!interrupt) return;
        void (async () => {
          await waitFor(() => sleeping(secs).length >= 3);
          child.kill("SIGINT");
        })();
      },
    });
    expect(run.code).not.toBeNull();
    await waitFor(() => sleeping(secs).length === 0);
    expect(sleeping(secs)).toEqual([]);
  }, 30_000);
});

describe("an uncaught error in the CLI also leaves no process and no lock behind", () => {
  it("a crash while bash runs (setsid, nohup, TERM-ignoring children) kills them all and releases the lock", async () => {
    const inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
    const secs = mark(6);
    const marker = join(inkHome, "crash-now");
    // Preloaded into the CLI: throws from a timer (an uncaught error) once the command has started everything.
    const crash = join(inkHome, "crash.cjs");
    writeFileSync(crash, `const fs = require("node:fs");\nconst t = setInterval(() => { if (fs.existsSync(${JSON.stringify(marker)})) { clearInterval(t); throw new Error("boom from the test"); } }, 20);\nt.unref();\n`);
    const command = `sleep ${secs} & setsid sleep ${secs} & nohup sleep ${secs} >/dev/null 2>&1 & (trap '' TERM; sleep ${secs}) & touch ${marker}; sleep ${secs}`;
    server.reset();
    server.enqueue(sseTurn([{ toolUse: { id: "t1", name: "bash", input: { command } } }]));
    server.setFallback(sseTurn([{ text: "done" }]));
    const run = await runCli(["-p", "run it", "--cwd", repo, "--yolo"], { env: { INK_HOME: inkHome, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url, NODE_OPTIONS: `--require ${crash}` } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("boom from the test");
    await waitFor(() => survivors(`sleep ${secs}`).length === 0);
    expect(survivors(`sleep ${secs}`)).toEqual([]);
    const sessions = join(inkHome, "sessions");
    const locks = existsSync(sessions) ? readdirSync(sessions).filter((f) => f.endsWith(".lock")) : [];
    expect(locks).toEqual([]);
  }, 30_000);
});
