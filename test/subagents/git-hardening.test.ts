import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hardenedGitArgs, runGit } from "../../src/subagents/worktrees/git.js";
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

describe("filters and programs the repository names in ways a `-c key=value` cannot reach", () => {
  /** A committed `* filter=<name>` whose smudge (defined in `.git/config` or a file it includes) leaves a sentinel. */
  function filteredRepo(name: string, where: "config" | "include") {
    const { repo, inkHome, sentinels } = hostileRepo();
    const script = join(sentinels, "..", "smudge.sh");
    writeFileSync(script, `#!/bin/sh\ntouch ${join(sentinels, "smudge")}\ncat\n`);
    chmodSync(script, 0o755);
    writeFileSync(join(repo, ".gitattributes"), `* filter=${name}\n`);
    writeFileSync(join(repo, "b.txt"), "bee\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "attributes");
    const file = where === "config" ? join(repo, ".git", "config") : join(repo, ".git", "more.cfg");
    if (where === "include") git(repo, "config", "include.path", "more.cfg");
    git(repo, "config", "--file", file, `filter.${name}.smudge`, script);
    // Armed: plain git runs it.
    execFileSync("rm", ["-f", join(repo, "b.txt")]);
    git(repo, "checkout", "-q", "--", "b.txt");
    expect(existsSync(join(sentinels, "smudge"))).toBe(true);
    execFileSync("sh", ["-c", `rm -f ${sentinels}/*`]);
    return { repo, inkHome, sentinels };
  }

  it("a filter named with an \"=\" (`[filter \"a=b\"]`) does not run on worktree creation, and the files are right", async () => {
    const { repo, inkHome, sentinels } = filteredRepo("a=b", "config");
    const wt = await createWorktree({ cwd: repo, inkHome, label: "eq" });
    expect(execFileSync("cat", [join(wt.path, "b.txt")], { encoding: "utf8" })).toBe("bee\n");
    expect(execFileSync("cat", [join(wt.path, "a.txt")], { encoding: "utf8" })).toBe("one\n");
    writeFileSync(join(wt.path, "b.txt"), "changed\n");
    expect((await finishWorktree(wt)).kept).toBe(true);
    expect(execFileSync("ls", ["-A", sentinels], { encoding: "utf8" }).trim()).toBe("");
  });

  it("a filter defined in a file the repository's config includes does not run", async () => {
    const { repo, inkHome, sentinels } = filteredRepo("inc", "include");
    const wt = await createWorktree({ cwd: repo, inkHome, label: "inc" });
    expect(execFileSync("cat", [join(wt.path, "b.txt")], { encoding: "utf8" })).toBe("bee\n");
    await finishWorktree(wt);
    expect(execFileSync("ls", ["-A", sentinels], { encoding: "utf8" }).trim()).toBe("");
  });

  it("git (and what it starts, e.g. git-lfs) sees no core.sshCommand or askpass from the repository; the user's own value comes back", async () => {
    const { repo } = hostileRepo();
    git(repo, "config", "core.sshCommand", "touch /tmp/ink-evil-ssh");
    git(repo, "config", "core.askPass", "touch /tmp/ink-evil-askpass");
    git(repo, "config", "diff.evil.textconv", "touch /tmp/ink-evil-textconv");
    const get = async (key: string, env?: Record<string, string>) => (await runGit(["config", "--get", key], { cwd: repo, env }).catch(() => ({ stdout: "<unset>" }))).stdout.trim();
    expect(await get("core.sshCommand")).toBe("ssh");
    expect(await get("core.askPass")).toBe("");
    expect(await get("diff.evil.textconv")).toBe("");
    const home = mkdtempSync(join(tmpdir(), "ink-git-home-"));
    writeFileSync(join(home, "global.cfg"), "[core]\n\tsshCommand = ssh -i /my/key\n");
    expect(await get("core.sshCommand", { GIT_CONFIG_GLOBAL: join(home, "global.cfg") })).toBe("ssh -i /my/key");
  });

  it("a repository config git cannot read is an error naming it, not a run without the overrides", async () => {
    const { repo } = hostileRepo();
    writeFileSync(join(repo, ".git", "config"), `${execFileSync("cat", [join(repo, ".git", "config")], { encoding: "utf8" })}\n[broken\n`);
    await expect(runGit(["status"], { cwd: repo })).rejects.toThrow(/config/);
  });
});
