/** A CLI killed with SIGKILL while a worktree child runs: the next start names the leftover worktree, and `ink worktrees` lists it. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { CLI, makeLoginRepo, runCli } from "../helpers/cli.js";

let server: FakeAnthropic;
let repo: string;
let home: string;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  server = await startFakeAnthropic();
  repo = makeLoginRepo();
  home = mkdtempSync(join(tmpdir(), "ink-home-"));
});
afterAll(async () => {
  await server.close();
  rmSync(repo, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The worktree directories under `$INK_HOME/worktrees/<repo>/` (owner records excluded). */
function worktreeDirs(): string[] {
  const base = join(home, "worktrees");
  if (!existsSync(base)) return [];
  return readdirSync(base).flatMap((r) => readdirSync(join(base, r)).filter((n) => !n.endsWith(".json")).map((n) => join(base, r, n)));
}

it("after kill -9 during a worktree child, the leftover is named at the next start and by ink worktrees", async () => {
  const env = { INK_HOME: home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
  server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "task", input: { prompt: "change the login", worktree: true } } }]), { kind: "stall" });
  let pid = 0;
  const killed = await runCli(["-p", "delegate", "--cwd", repo, "--yolo"], {
    env,
    onSpawn: (child) => {
      pid = child.pid!;
      void (async () => {
        for (let i = 0; i < 400 && (server.requests.length < 2 || worktreeDirs().length === 0); i++) await new Promise((r) => setTimeout(r, 25));
        child.kill("SIGKILL");
      })();
    },
  });
  expect(killed.code).toBeNull(); // killed by the signal
  const [left] = worktreeDirs();
  expect(left).toBeDefined();

  const list = await runCli(["worktrees"], { env, cwd: repo });
  expect(list.code).toBe(0);
  expect(list.stdout).toMatch(new RegExp(`ink/\\S+  ${left!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}  — left by process ${pid} \\(ended\\); no uncommitted changes, 0 commits`));

  server.reset();
  server.enqueue(sseTurn([{ text: "hello" }]));
  const next = await runCli(["-p", "hi", "--cwd", repo], { env });
  expect(next.stdout).toContain("hello");
  expect(next.stderr).toContain(`1 worktree was left by earlier runs that ended: ink/`);
  expect(next.stderr).toContain(left!);

  const prune = await runCli(["worktrees", "--prune"], { env, cwd: repo });
  expect(prune.stdout).toContain("1 removed, 0 kept.");
  expect(existsSync(left!)).toBe(false);
}, 60_000);
