import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hardenedGitArgs } from "../../src/subagents/worktrees/git.js";
import { createWorktree, finishWorktree } from "../../src/subagents/worktrees/worktree.js";

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com", GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "commit.gpgsign=false", ...args], { cwd, env: GIT_ENV, encoding: "utf8" });

/** A repository whose hooks, fsmonitor and diff driver each leave a sentinel file when git runs them. */
function hostileRepo(): { repo: string; inkHome: string; sentinels: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ink-git-hostile-")));
  const repo = join(root, "repo");
  const sentinels = join(root, "sentinels");
  mkdirSync(repo);
  mkdirSync(sentinels);
  git(repo, "init", "-q");
  writeFileSync(join(repo, "a.txt"), "one\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "init");
  const script = (name: string) => {
    const path = join(root, `${name}.sh`);
    writeFileSync(path, `#!/bin/sh\ntouch ${join(sentinels, name)}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  for (const hook of ["post-checkout", "reference-transaction", "post-index-change"]) {
    const path = join(repo, ".git", "hooks", hook);
    writeFileSync(path, `#!/bin/sh\ntouch ${join(sentinels, hook)}\n`);
    chmodSync(path, 0o755);
  }
  git(repo, "config", "core.fsmonitor", script("fsmonitor"));
  git(repo, "config", "diff.external", script("diff-external"));
  // Prove the fixture is armed: plain git runs the hook.
  git(repo, "checkout", "-q", "-b", "armed");
  expect(existsSync(join(sentinels, "post-checkout"))).toBe(true);
  execFileSync("rm", ["-f", join(sentinels, "post-checkout"), join(sentinels, "reference-transaction"), join(sentinels, "post-index-change"), join(sentinels, "fsmonitor")]);
  return { repo, inkHome: join(root, "home"), sentinels };
}

describe("Ink's own git never runs repository code", () => {
  it("every command is prefixed with options that disable hooks, fsmonitor, diff drivers and the pager", () => {
    const args = hardenedGitArgs(["diff", "--stat", "HEAD"]);
    expect(args.slice(0, 2)).toEqual(["-c", expect.stringMatching(/^core\.hooksPath=/)]);
    expect(args).toContain("core.fsmonitor=false");
    expect(args.slice(-5)).toEqual(["diff", "--no-ext-diff", "--no-textconv", "--stat", "HEAD"]);
    expect(hardenedGitArgs(["worktree", "add", "x"]).slice(-3)).toEqual(["worktree", "add", "x"]);
  });

  it("creating, inspecting and removing a worktree in a hostile repository leaves no sentinel", async () => {
    const { repo, inkHome, sentinels } = hostileRepo();
    const wt = await createWorktree({ cwd: repo, inkHome, label: "hostile" });
    writeFileSync(join(wt.path, "a.txt"), "two\n");
    const kept = await finishWorktree(wt);
    expect(kept.kept).toBe(true);
    const wt2 = await createWorktree({ cwd: repo, inkHome, label: "clean" });
    const removed = await finishWorktree(wt2);
    expect(removed.kept).toBe(false);
    expect(execFileSync("ls", ["-A", sentinels], { encoding: "utf8" }).trim()).toBe("");
  });
});

describe("a repository's own content filters", () => {
  it("never run when Ink makes, inspects or removes a worktree — smudge, clean and process, even marked required", async () => {
    const { repo, inkHome, sentinels } = hostileRepo();
    const filter = (name: string) => {
      const path = join(sentinels, "..", `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\ntouch ${join(sentinels, name)}\ncat\n`);
      chmodSync(path, 0o755);
      return path;
    };
    writeFileSync(join(repo, ".gitattributes"), "* filter=evil\n");
    writeFileSync(join(repo, "b.txt"), "bee\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "attributes");
    git(repo, "config", "filter.evil.smudge", filter("smudge"));
    git(repo, "config", "filter.evil.clean", filter("clean"));
    git(repo, "config", "filter.evil.required", "true");
    // Armed: plain git runs the smudge filter on checkout.
    git(repo, "checkout", "-q", "-b", "armed-filters");
    execFileSync("rm", ["-f", join(repo, "b.txt")]);
    git(repo, "checkout", "-q", "--", "b.txt");
    expect(existsSync(join(sentinels, "smudge"))).toBe(true);
    execFileSync("sh", ["-c", `rm -f ${sentinels}/*`]);

    const wt = await createWorktree({ cwd: repo, inkHome, label: "filters" });
    expect(execFileSync("cat", [join(wt.path, "b.txt")], { encoding: "utf8" })).toBe("bee\n");
    writeFileSync(join(wt.path, "b.txt"), "changed\n");
    const kept = await finishWorktree(wt); // status, diff, add: the clean filter's moments
    expect(kept.kept).toBe(true);
    expect(execFileSync("ls", ["-A", sentinels], { encoding: "utf8" }).trim()).toBe("");
    // A long-running filter process is switched off too.
    git(repo, "config", "filter.evil.process", filter("process"));
    const wt2 = await createWorktree({ cwd: repo, inkHome, label: "process" });
    await finishWorktree(wt2);
    expect(execFileSync("ls", ["-A", sentinels], { encoding: "utf8" }).trim()).toBe("");
  });
});
