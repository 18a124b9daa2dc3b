/** A real CLI with a worktree child that hides its work (commit then reset, or stash): the worktree is kept and reported, and `ink worktrees` lists it. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { sseTurn } from "../helpers/fake-anthropic-server.js";
import { cliFixture, runCli } from "../helpers/cli.js";

const fx = cliFixture();

it.each([
  ["commits and then resets its branch to the base", "echo work > work.txt && git add -A && git -c user.name=c -c user.email=c@example.com commit -qm work && git reset -q --hard HEAD~1 && git status --porcelain", /commit\(s\) during the run that are no longer on it/],
  ["stashes its change", "echo work >> README.md && git stash -q && git status --porcelain", /stash@\{0\} was stashed from ink\//],
])("a child that %s: the worktree is kept and reported, never 'no changes'", async (_name, command, reason) => {
  const env = { INK_HOME: fx.home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fx.server.url };
  fx.server.reset();
  fx.server.enqueue(
    sseTurn([{ toolUse: { id: "tu_1", name: "task", input: { prompt: "change it", worktree: true } } }]),
    sseTurn([{ toolUse: { id: "tu_c1", name: "bash", input: { command } } }]),
    sseTurn([{ text: "child done" }]),
    sseTurn([{ text: "main done" }]),
  );
  const run = await runCli(["-p", "delegate", "--cwd", fx.repo, "--yolo"], { env });
  expect(run.code).toBe(0);
  expect(run.stdout.trim()).toBe("main done");
  const taskResult = JSON.stringify(fx.server.requests[3]!.body.messages.at(-1));
  expect(taskResult).not.toContain("[worktree] no changes");
  const kept = /\[worktree\] kept branch (\S+) at (\S+?);/.exec(taskResult);
  expect(kept).not.toBeNull();
  expect(taskResult).toMatch(reason);
  const [, branch, path] = kept!;
  expect(existsSync(path!)).toBe(true);
  expect(execFileSync("git", ["branch", "--list", branch!], { cwd: fx.repo, encoding: "utf8" })).toContain(branch);

  const list = await runCli(["worktrees"], { env, cwd: fx.repo });
  expect(list.code).toBe(0);
  expect(list.stdout).toContain(path);
}, 60_000);
