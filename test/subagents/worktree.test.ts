import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createWorktree,
  finishWorktree,
  formatWorktreeReport,
  worktreeCwd,
  WorktreeError,
  type Worktree,
} from "../../src/subagents/worktrees/worktree.js";
import { git, tempDir } from "../helpers/temp-git.js";


function branchExists(repo: string, branch: string): boolean {
  return git(repo, "branch", "--list", branch).trim() !== "";
}

/** A repo with one commit holding README.md and src/app.ts, plus an inkHome outside it. */
function setup(): { repo: string; inkHome: string } {
  const repo = tempDir("ink-wt-repo-");
  const inkHome = tempDir("ink-wt-home-");
  git(repo, "init", "-q");
  writeFileSync(join(repo, "README.md"), "hello\n");
  mkdirSync(join(repo, "src"));
  writeFileSync(join(repo, "src", "app.ts"), "export const x = 1;\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "init");
  return { repo, inkHome };
}

async function expectWorktreeError(p: Promise<unknown>, code: string): Promise<WorktreeError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorktreeError);
  expect((err as WorktreeError).code).toBe(code);
  return err as WorktreeError;
}

describe("createWorktree", () => {
  it("refuses a directory that is not a git repository", async () => {
    const dir = tempDir("ink-wt-plain-");
    const err = await expectWorktreeError(createWorktree({ cwd: dir, inkHome: tempDir("ink-wt-home-"), label: "c1" }), "not_git_repo");
    expect(err.message).toContain(`worktree: ${dir} is not a git repository`);
    expect(err.message).toContain("git init");
  });

  it("refuses a repository without a commit", async () => {
    const repo = tempDir("ink-wt-empty-");
    git(repo, "init", "-q");
    const err = await expectWorktreeError(createWorktree({ cwd: repo, inkHome: tempDir("ink-wt-home-"), label: "c1" }), "no_commit");
    expect(err.message).toContain(`the repository at ${repo} has no commit yet`);
  });

  it("refuses an inkHome inside the checkout", async () => {
    const { repo } = setup();
    const err = await expectWorktreeError(createWorktree({ cwd: repo, inkHome: join(repo, ".ink-home"), label: "c1" }), "bad_location");
    expect(err.message).toContain("outside the repository");
  });

  it("creates a branch from HEAD in a worktree outside the checkout", async () => {
    const { repo, inkHome } = setup();
    const head = git(repo, "rev-parse", "HEAD").trim();
    const wt = await createWorktree({ cwd: repo, inkHome, label: "abc" });
    expect(wt.branch).toBe("ink/abc");
    expect(wt.baseCommit).toBe(head);
    expect(wt.repoRoot).toBe(repo);
    expect(wt.subdir).toBe("");
    expect(relative(inkHome, wt.path).startsWith("worktrees")).toBe(true);
    expect(relative(repo, wt.path).startsWith("..")).toBe(true);
    expect(readFileSync(join(wt.path, "src", "app.ts"), "utf8")).toBe("export const x = 1;\n");
    expect(branchExists(repo, "ink/abc")).toBe(true);
    expect(git(wt.path, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("ink/abc");
    expect(worktreeCwd(wt)).toBe(wt.path);
    // The user's checkout is untouched.
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  it("maps a start in a subdirectory to the same subdirectory of the worktree", async () => {
    const { repo, inkHome } = setup();
    const wt = await createWorktree({ cwd: join(repo, "src"), inkHome, label: "sub" });
    expect(wt.subdir).toBe("src");
    expect(worktreeCwd(wt)).toBe(join(wt.path, "src"));
    expect(existsSync(join(worktreeCwd(wt), "app.ts"))).toBe(true);
  });

  it("gives two worktrees with the same label distinct branches and paths", async () => {
    const { repo, inkHome } = setup();
    const a = await createWorktree({ cwd: repo, inkHome, label: "same" });
    const b = await createWorktree({ cwd: repo, inkHome, label: "same" });
    const [c, d] = await Promise.all([
      createWorktree({ cwd: repo, inkHome, label: "par" }),
      createWorktree({ cwd: repo, inkHome, label: "par" }),
    ]);
    expect(a.branch).toBe("ink/same");
    expect(b.branch).toBe("ink/same-2");
    expect(a.path).not.toBe(b.path);
    expect(new Set([c.branch, d.branch])).toEqual(new Set(["ink/par", "ink/par-2"]));
    expect(c.path).not.toBe(d.path);
    for (const wt of [a, b, c, d]) expect(branchExists(repo, wt.branch)).toBe(true);
  });

  it("children starting at once each get their own worktree and branch, and no branch is left without one", async () => {
    // git reads every worktree's metadata while adding one: two `worktree add`s at once in one
    // repository can fail with "failed to read .git/worktrees/<other>/commondir" after the branch was
    // made — which left a branch of no worktree and the child on `<label>-2`.
    const { repo, inkHome } = setup();
    const labels = Array.from({ length: 4 }, (_, round) => Array.from({ length: 8 }, (_, i) => `r${round}-c${i}`));
    const made: Worktree[] = [];
    for (const round of labels) made.push(...(await Promise.all(round.map((label) => createWorktree({ cwd: repo, inkHome, label })))));
    expect(made.map((w) => w.branch)).toEqual(labels.flat().map((l) => `ink/${l}`));
    expect(git(repo, "branch", "--list", "--format=%(refname:short)", "ink/*").trim().split("\n").sort()).toEqual(made.map((w) => w.branch).sort());
    for (const w of made) expect(existsSync(w.path)).toBe(true);
  });

  it("sanitizes labels into valid branch names", async () => {
    const { repo, inkHome } = setup();
    const wt = await createWorktree({ cwd: repo, inkHome, label: "../weird name..lock" });
    expect(wt.branch).toBe("ink/weird-name-lock");
    expect(relative(inkHome, wt.path).startsWith("..")).toBe(false);
  });
});

describe("finishWorktree", () => {
  async function fresh(label = "child"): Promise<{ repo: string; wt: Worktree }> {
    const { repo, inkHome } = setup();
    return { repo, wt: await createWorktree({ cwd: repo, inkHome, label }) };
  }

  function expectKept(repo: string, wt: Worktree): void {
    expect(existsSync(wt.path)).toBe(true);
    expect(branchExists(repo, wt.branch)).toBe(true);
  }

  it("removes worktree and branch when the child changed nothing", async () => {
    const { repo, wt } = await fresh();
    const report = await finishWorktree(wt);
    expect(report).toMatchObject({ kept: false, branch: wt.branch, path: wt.path, commits: 0, diffstat: "" });
    expect(report.reason).toBeUndefined();
    expect(existsSync(wt.path)).toBe(false);
    expect(branchExists(repo, wt.branch)).toBe(false);
    expect(git(repo, "worktree", "list")).not.toContain(wt.path);
    expect(formatWorktreeReport(report)).toBe(`[worktree] no changes; worktree and branch ${wt.branch} removed`);
  });

  it("keeps an unstaged change", async () => {
    const { repo, wt } = await fresh();
    writeFileSync(join(wt.path, "README.md"), "hello\nworld\n");
    const report = await finishWorktree(wt);
    expect(report).toMatchObject({ kept: true, commits: 0, uncommitted: true });
    expect(report.diffstat).toContain("README.md");
    expectKept(repo, wt);
    expect(formatWorktreeReport(report)).toContain(`changes kept on branch ${wt.branch} at ${wt.path}`);
  });

  it("keeps a worktree whose only change is an untracked file", async () => {
    const { repo, wt } = await fresh();
    mkdirSync(join(wt.path, "notes"));
    writeFileSync(join(wt.path, "notes", "todo.txt"), "new\n");
    const report = await finishWorktree(wt);
    expect(report).toMatchObject({ kept: true, uncommitted: true });
    expect(report.diffstat).toContain("notes/todo.txt");
    expectKept(repo, wt);
  });

  it("keeps a worktree whose only new files are ignored by .gitignore (a child's build output or .env is work too)", async () => {
    const { repo, wt } = await fresh();
    writeFileSync(join(wt.path, ".gitignore"), "out/\n.env\n");
    git(wt.path, "add", ".gitignore");
    git(wt.path, "commit", "-qm", "ignore rules");
    // start from that commit: nothing changed yet
    const base = { ...wt, baseCommit: git(wt.path, "rev-parse", "HEAD").trim() };
    mkdirSync(join(wt.path, "out"));
    writeFileSync(join(wt.path, "out", "report.md"), "# report\n");
    writeFileSync(join(wt.path, ".env"), "KEY=1\n");
    const report = await finishWorktree(base);
    expect(report.kept).toBe(true);
    expect(report.diffstat).toContain("out/ (new, ignored by .gitignore)");
    expect(report.diffstat).toContain(".env");
    expectKept(repo, wt);
  });

  it("keeps a worktree whose only change is a staged file", async () => {
    const { repo, wt } = await fresh();
    writeFileSync(join(wt.path, "staged.txt"), "s\n");
    git(wt.path, "add", "staged.txt");
    const report = await finishWorktree(wt);
    expect(report).toMatchObject({ kept: true, uncommitted: true });
    expect(report.diffstat).toContain("staged.txt");
    expectKept(repo, wt);
  });

  it("keeps a child commit even when the status is clean", async () => {
    const { repo, wt } = await fresh();
    writeFileSync(join(wt.path, "src", "feature.ts"), "export const f = 2;\n");
    git(wt.path, "add", "-A");
    git(wt.path, "commit", "-q", "-m", "feature");
    expect(git(wt.path, "status", "--porcelain")).toBe("");
    const report = await finishWorktree(wt);
    expect(report).toMatchObject({ kept: true, commits: 1, uncommitted: false });
    expect(report.diffstat).toContain("src/feature.ts");
    expectKept(repo, wt);
    const text = formatWorktreeReport(report);
    expect(text).toContain(`(1 commit)`);
    expect(text).toContain(`Merge with: git merge ${wt.branch}`);
  });

  it("keeps the branch when the child moved HEAD off it", async () => {
    const { repo, wt } = await fresh();
    git(wt.path, "checkout", "-q", "--detach");
    const report = await finishWorktree(wt);
    expect(report.kept).toBe(true);
    expect(report.reason).toContain("no longer on");
    expectKept(repo, wt);
  });

  it("keeps the worktree when inspection fails (its .git file deleted)", async () => {
    const { repo, wt } = await fresh();
    unlinkSync(join(wt.path, ".git"));
    const report = await finishWorktree(wt);
    expect(report.kept).toBe(true);
    expect(report.reason).toContain("could not inspect");
    expectKept(repo, wt);
    expect(formatWorktreeReport(report)).toContain(`kept branch ${wt.branch} at ${wt.path}; could not inspect`);
  });

  it("keeps the worktree when a git command fails (unknown base commit)", async () => {
    const { repo, wt } = await fresh();
    const report = await finishWorktree({ ...wt, baseCommit: "0123456789abcdef0123456789abcdef01234567" });
    expect(report.kept).toBe(true);
    expect(report.reason).toContain("could not inspect");
    expectKept(repo, wt);
  });

  it("keeps the worktree when the signal is already aborted", async () => {
    const { repo, wt } = await fresh();
    const report = await finishWorktree(wt, { signal: AbortSignal.abort() });
    expect(report.kept).toBe(true);
    expect(report.reason).toContain("aborted");
    expectKept(repo, wt);
  });
});
