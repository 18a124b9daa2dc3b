/** A CLI killed with SIGKILL while a worktree child runs: the next start names the leftover worktree, and `ink worktrees` lists it. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sseTurn } from "../helpers/fake-anthropic-server.js";
import { cliFixture, runCli } from "../helpers/cli.js";

const fx = cliFixture();

/** The worktree directories under `$INK_HOME/worktrees/<fx.repo>/` (owner records excluded). */
function worktreeDirs(): string[] {
  const base = join(fx.home, "worktrees");
  if (!existsSync(base)) return [];
  return readdirSync(base).flatMap((r) => readdirSync(join(base, r)).filter((n) => !n.endsWith(".json")).map((n) => join(base, r, n)));
}

it("after kill -9 during a worktree child, the leftover is named at the next start and by ink worktrees", async () => {
  const env = { INK_HOME: fx.home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fx.server.url };
  fx.server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "task", input: { prompt: "change the login", worktree: true } } }]), { kind: "stall" });
  let pid = 0;
  const killed = await runCli(["-p", "delegate", "--cwd", fx.repo, "--yolo"], {
    env,
    onSpawn: (child) => {
      pid = child.pid!;
      void (async () => {
        for (let i = 0; i < 400 && (fx.server.requests.length < 2 || worktreeDirs().length === 0); i++) await new Promise((r) => setTimeout(r, 25));
        child.kill("SIGKILL");
      })();
    },
  });
  expect(killed.code).toBeNull(); // killed by the signal
  const [left] = worktreeDirs();
  expect(left).toBeDefined();

  const list = await runCli(["worktrees"], { env, cwd: fx.repo });
  expect(list.code).toBe(0);
  expect(list.stdout).toMatch(new RegExp(`ink/\\S+  ${left!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}  — left by process ${pid} \\(ended\\); no uncommitted changes, 0 commits`));

  fx.server.reset();
  fx.server.enqueue(sseTurn([{ text: "hello" }]));
  const next = await runCli(["-p", "hi", "--cwd", fx.repo], { env });
  expect(next.stdout).toContain("hello");
  expect(next.stderr).toContain(`1 worktree was left by earlier runs that ended: ink/`);
  expect(next.stderr).toContain(left!);

  const prune = await runCli(["worktrees", "--prune"], { env, cwd: fx.repo });
  expect(prune.stdout).toContain("1 removed, 0 kept.");
  expect(existsSync(left!)).toBe(false);
}, 60_000);
