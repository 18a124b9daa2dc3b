import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runWorktreesCommand } from "../../src/cli/worktrees-command.js";
import { leftoverWorktreeNotice, listInkWorktrees, pruneInkWorktrees } from "../../src/subagents/worktrees/leftover-worktrees.js";
import { createWorktree, finishWorktree, formatWorktreeReport, type Worktree } from "../../src/subagents/worktrees/worktree.js";
import { ownerRecordPath, readWorktreeOwner } from "../../src/subagents/worktrees/worktree-owner.js";
import { git, tempDir } from "../helpers/temp-git.js";

function setup(): { repo: string; inkHome: string } {
  const repo = tempDir("ink-left-repo-");
  const inkHome = tempDir("ink-left-home-");
  git(repo, "init", "-q");
  writeFileSync(join(repo, "README.md"), "hello\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "init");
  return { repo, inkHome };
}
/** The pid of a process that has exited (so the record's owner is gone). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}
/** Rewrites a worktree's owner record as if a run that has ended made it. */
function orphan(wt: Worktree): number {
  const pid = deadPid();
  const record = JSON.parse(readFileSync(ownerRecordPath(wt.path), "utf8"));
  writeFileSync(ownerRecordPath(wt.path), JSON.stringify({ ...record, pid, procStart: "1" }));
  return pid;
}
const branches = (repo: string) => git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/ink").split("\n").filter(Boolean);

describe("worktree owner records", () => {
  it("createWorktree records this process as the owner; a clean finish removes worktree, branch and record", async () => {
    const { repo, inkHome } = setup();
    const wt = await createWorktree({ cwd: repo, inkHome, label: "c1" });
    expect(readWorktreeOwner(wt.path)).toMatchObject({ pid: process.pid, branch: "ink/c1", repoRoot: repo, baseCommit: wt.baseCommit });
    expect((await finishWorktree(wt)).kept).toBe(false);
    expect(existsSync(ownerRecordPath(wt.path))).toBe(false);
  });
});

describe("finishWorktree keeps work that is not on the branch tip", () => {
  it("a commit made and then reset away (only in the reflog) keeps the worktree and says so", async () => {
    const { repo, inkHome } = setup();
    const wt = await createWorktree({ cwd: repo, inkHome, label: "reset" });
    writeFileSync(join(wt.path, "work.txt"), "work\n");
    git(wt.path, "add", "-A");
    git(wt.path, "commit", "-qm", "work");
    const lost = git(wt.path, "rev-parse", "HEAD").trim();
    git(wt.path, "reset", "-q", "--hard", wt.baseCommit);
    const report = await finishWorktree(wt);
    expect(report.kept).toBe(true);
    expect(report.reason).toContain(`1 commit(s) during the run that are no longer on it (${lost.slice(0, 10)})`);
    expect(branches(repo)).toContain("ink/reset");
    expect(formatWorktreeReport(report)).toContain("git reflog ink/reset");
  });

  it("a change the child stashed keeps the worktree (it is not 'no changes')", async () => {
    const { repo, inkHome } = setup();
    const wt = await createWorktree({ cwd: repo, inkHome, label: "stash" });
    writeFileSync(join(wt.path, "README.md"), "changed\n");
    git(wt.path, "stash", "-q");
    expect(git(wt.path, "status", "--porcelain")).toBe("");
    const report = await finishWorktree(wt);
    expect(report.kept).toBe(true);
    expect(report.reason).toContain("stash@{0} was stashed from ink/stash");
    expect(existsSync(wt.path)).toBe(true);
  });

  it("a stash from another branch does not keep a clean worktree", async () => {
    const { repo, inkHome } = setup();
    writeFileSync(join(repo, "README.md"), "user's own change\n");
    git(repo, "stash", "-q");
    const wt = await createWorktree({ cwd: repo, inkHome, label: "clean" });
    expect((await finishWorktree(wt)).kept).toBe(false);
  });
});

describe("leftover worktrees", () => {
  it("the start notice names worktrees of this repository whose owner ended; live owners and other repositories are not listed", async () => {
    const { repo, inkHome } = setup();
    const other = setup();
    const left = await createWorktree({ cwd: repo, inkHome, label: "left" });
    await createWorktree({ cwd: repo, inkHome, label: "live" });
    const elsewhere = await createWorktree({ cwd: other.repo, inkHome, label: "elsewhere" });
    orphan(left);
    orphan(elsewhere);
    const notice = leftoverWorktreeNotice(inkHome, join(repo));
    expect(notice).toContain(`1 worktree was left by earlier runs that ended: ink/left at ${left.path}`);
    expect(notice).toContain("ink worktrees --prune");
    expect(notice).not.toContain("ink/live");
    expect(notice).not.toContain("elsewhere");
    expect(leftoverWorktreeNotice(tempDir("ink-empty-home-"), repo)).toBeUndefined();
  });

  it("lists owner and state; prune removes only ended, empty ones and names what it kept and why", async () => {
    const { repo, inkHome } = setup();
    const empty = await createWorktree({ cwd: repo, inkHome, label: "empty" });
    const dirty = await createWorktree({ cwd: repo, inkHome, label: "dirty" });
    const committed = await createWorktree({ cwd: repo, inkHome, label: "committed" });
    const live = await createWorktree({ cwd: repo, inkHome, label: "live" });
    writeFileSync(join(dirty.path, "wip.txt"), "wip\n");
    writeFileSync(join(committed.path, "done.txt"), "done\n");
    git(committed.path, "add", "-A");
    git(committed.path, "commit", "-qm", "done");
    const pid = orphan(empty);
    orphan(dirty);
    orphan(committed);

    const { worktrees } = await listInkWorktrees(inkHome, repo);
    const byBranch = Object.fromEntries(worktrees.map((w) => [w.branch, w]));
    expect(byBranch["ink/empty"]).toMatchObject({ ownerState: "gone", uncommitted: false, commits: 0 });
    expect(byBranch["ink/dirty"]).toMatchObject({ ownerState: "gone", uncommitted: true });
    expect(byBranch["ink/committed"]).toMatchObject({ ownerState: "gone", uncommitted: false, commits: 1 });
    expect(byBranch["ink/live"]).toMatchObject({ ownerState: "alive" });

    const lines: string[] = [];
    expect(await runWorktreesCommand([], { inkHome, cwd: repo, out: (l) => lines.push(l), err: (l) => lines.push(l) })).toBe(0);
    expect(lines.join("\n")).toContain(`ink/empty  ${empty.path}  — left by process ${pid} (ended); no uncommitted changes, 0 commits`);
    expect(lines.join("\n")).toContain(`ink/live  ${live.path}  — in use by process ${process.pid}`);

    const outcomes = await pruneInkWorktrees(inkHome, repo);
    const note = (b: string) => outcomes.find((o) => o.branch === b)!;
    expect(note("ink/empty")).toMatchObject({ removed: true });
    expect(note("ink/dirty")).toMatchObject({ removed: false, note: expect.stringContaining("uncommitted changes (commit them, or pass --force") });
    expect(note("ink/committed")).toMatchObject({ removed: false });
    expect(note("ink/committed").note).toContain("1 commit(s) to merge (git merge ink/committed)");
    expect(note("ink/live")).toMatchObject({ removed: false, note: expect.stringContaining(`in use by process ${process.pid}`) });
    expect(existsSync(empty.path)).toBe(false);
    expect(branches(repo).sort()).toEqual(["ink/committed", "ink/dirty", "ink/live"]);
    expect(existsSync(dirty.path) && existsSync(committed.path) && existsSync(live.path)).toBe(true);
  });

  it("--force removes an ended worktree with uncommitted changes but keeps its branch; a live one stays", async () => {
    const { repo, inkHome } = setup();
    const dirty = await createWorktree({ cwd: repo, inkHome, label: "dirty" });
    const live = await createWorktree({ cwd: repo, inkHome, label: "live" });
    writeFileSync(join(dirty.path, "wip.txt"), "wip\n");
    writeFileSync(join(live.path, "wip.txt"), "wip\n");
    orphan(dirty);
    const lines: string[] = [];
    expect(await runWorktreesCommand(["--prune", "--force"], { inkHome, cwd: repo, out: (l) => lines.push(l), err: (l) => lines.push(l) })).toBe(0);
    const text = lines.join("\n");
    expect(text).toContain(`removed ink/dirty  ${dirty.path}: removed; uncommitted changes discarded (--force); branch ink/dirty kept (delete it with git branch -D ink/dirty`);
    expect(text).toMatch(/kept {4}ink\/live .*in use by process/);
    expect(text).toContain("1 removed, 1 kept.");
    expect(existsSync(dirty.path)).toBe(false);
    expect(existsSync(live.path)).toBe(true);
    expect(branches(repo)).toContain("ink/dirty");
  });

  it("a worktree whose directory vanished is pruned from git's list; bad flags and a non-repository are clear errors", async () => {
    const { repo, inkHome } = setup();
    const gone = await createWorktree({ cwd: repo, inkHome, label: "gone" });
    orphan(gone);
    rmSync(gone.path, { recursive: true, force: true });
    const outcomes = await pruneInkWorktrees(inkHome, repo);
    expect(outcomes).toMatchObject([{ removed: true, note: expect.stringContaining("already gone") }]);
    expect(git(repo, "worktree", "list")).not.toContain(gone.path);

    const errs: string[] = [];
    const io = { inkHome, cwd: repo, out: () => undefined, err: (l: string) => errs.push(l) };
    expect(await runWorktreesCommand(["--force"], io)).toBe(2);
    expect(await runWorktreesCommand(["--purge"], io)).toBe(2);
    const plain = tempDir("ink-not-repo-");
    mkdirSync(join(plain, "x"));
    expect(await runWorktreesCommand(["--cwd", join(plain, "x")], io)).toBe(1);
    expect(errs[0]).toContain("--force only goes with --prune");
    expect(errs[1]).toContain('unknown argument "--purge"');
    expect(errs[2]).toContain(`${join(plain, "x")} is not inside a git repository`);
  });
});
