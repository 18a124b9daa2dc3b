/** The merge queue (issue #40) on a real repository with three worktree branches: two clean, one conflicting. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeMerge, inspectQueue, mergeNotice, mergeQueue, queueListing } from "../../src/merge/merge-queue.js";
import { git, tempDir } from "../helpers/temp-git.js";

function setup() {
  const repo = tempDir("ink-mq-repo-");
  const wts = tempDir("ink-mq-wt-");
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "a.ts"), "line1\nline2\nline3\n");
  writeFileSync(join(repo, "b.ts"), "b\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "init");
  const branch = (name: string, edit: (dir: string) => void, commit = true) => {
    const dir = join(wts, name);
    git(repo, "worktree", "add", "-q", "-b", `ink/${name}`, dir);
    edit(dir);
    if (commit) {
      git(dir, "add", "-A");
      git(dir, "commit", "-qm", name);
    }
    return { branch: `ink/${name}`, worktree: dir, childId: name, title: `general · ${name}` };
  };
  const one = branch("one", (d) => writeFileSync(join(d, "a.ts"), "line1\nline2\nline3 by one\n"));
  const two = branch("two", (d) => writeFileSync(join(d, "c.ts"), "new file\n"), false); // uncommitted work only
  const three = branch("three", (d) => writeFileSync(join(d, "a.ts"), "line1 by three\nline2\nline3 by three\n"));
  return { repo, one, two, three };
}

it("lists each branch with its diffstat, overlaps and whether it applies to HEAD; merges in order, stops at the conflict, removes merged worktrees", async () => {
  const { repo, one, two, three } = setup();
  const states = await inspectQueue(repo, [one, two, three]);
  expect(states.map((s) => [s.branch, s.clean, s.overlaps, s.uncommitted])).toEqual([
    ["ink/one", true, ["a.ts"], false],
    ["ink/two", true, [], true],
    ["ink/three", true, ["a.ts"], false],
  ]);
  expect(states[0]!.diffstat).toContain("a.ts | 2");
  const listing = queueListing(states).join("\n");
  expect(listing).toContain("\n     a.ts | 2 +-\n"); // one file: its row, no "1 file changed" row
  expect(listing).not.toContain("1 file changed");
  // the child's id is left out when the branch is named after it, kept otherwise
  expect(queueListing([{ ...states[0]!, childId: "c1" }])[1]).toBe("  1. ink/one — general · one [c1] · applies cleanly to HEAD");
  expect(queueListing([{ ...states[0]!, branch: "ink/20261206-030348-ec7dc8", childId: "20261206-030348-ec7dc8", title: "worker 1: NOTES.md" }])[1]).toBe("  1. ink/20261206-030348-ec7dc8 — worker 1: NOTES.md · applies cleanly to HEAD");
  expect(listing).toContain("1. ink/one — general · one · applies cleanly to HEAD");
  expect(listing).toContain("also changed by another branch: a.ts");

  const outcome = await mergeQueue(repo, [one, two, three]);
  expect(outcome.merged).toEqual(["ink/one", "ink/two"]);
  expect(outcome.conflict).toMatchObject({ branch: "ink/three", files: ["a.ts"] });
  expect(describeMerge(outcome)).toContain("stopped at ink/three: it conflicts in a.ts");
  // The notice keeps git's CONFLICT line and the hunks, not its chatter (at 80x24 every row counts).
  const notice = mergeNotice(outcome).split("\n");
  expect(notice).toContain("CONFLICT (content): Merge conflict in a.ts");
  expect(notice.some((l) => l.startsWith("diff --cc a.ts"))).toBe(true);
  expect(notice.some((l) => l.startsWith("++<<<<<<< HEAD"))).toBe(true);
  expect(notice.filter((l) => /^(Auto-merging|Automatic merge failed|index |--- |\+\+\+ )/.test(l))).toEqual([]);
  expect(readFileSync(join(repo, "a.ts"), "utf8")).toBe("line1\nline2\nline3 by one\n");
  expect(readFileSync(join(repo, "c.ts"), "utf8")).toBe("new file\n");
  expect(git(repo, "status", "--porcelain")).toBe(""); // the conflicting merge was undone
  expect(existsSync(one.worktree)).toBe(false);
  expect(existsSync(two.worktree)).toBe(false);
  expect(existsSync(three.worktree)).toBe(true);
  expect(git(repo, "branch", "--list", "--format=%(refname:short)", "ink/*").trim()).toBe("ink/three");
  // now that one is in HEAD, three shows as conflicting
  expect((await inspectQueue(repo, [one, three])).map((s) => [s.branch, s.clean])).toEqual([["ink/three", false]]);
});

it("refuses a dirty tree unless allowed, and squashes into one commit per branch when asked", async () => {
  const { repo, one } = setup();
  writeFileSync(join(repo, "b.ts"), "dirty\n");
  const refused = await mergeQueue(repo, [one]);
  expect(refused.ok).toBe(false);
  expect(refused.error).toContain("uncommitted changes (b.ts)");
  expect(existsSync(one.worktree)).toBe(true);
  git(repo, "checkout", "--", "b.ts");
  const before = git(repo, "rev-list", "--count", "HEAD").trim();
  const squashed = await mergeQueue(repo, [one], { squash: true });
  expect(squashed).toMatchObject({ ok: true, merged: ["ink/one"] });
  expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe(String(Number(before) + 1));
  expect(git(repo, "log", "-1", "--format=%P").trim().split(" ")).toHaveLength(1); // not a merge commit
  expect(readFileSync(join(repo, "a.ts"), "utf8")).toBe("line1\nline2\nline3 by one\n");
});

it("a worktree's uncommitted work counts in its diffstat and its clean check, and the worktree's index and branch stay as they were", async () => {
  const { repo, one } = setup();
  // four, uncommitted only, changes the line of a.ts one changed: once one is merged it no longer applies cleanly
  const wts = tempDir("ink-mq-wt2-");
  const dir = join(wts, "four");
  git(repo, "worktree", "add", "-q", "-b", "ink/four", dir);
  writeFileSync(join(dir, "a.ts"), "line1\nline2\nline3 by four\n");
  writeFileSync(join(dir, "d.ts"), "untracked\n");
  await mergeQueue(repo, [one]);
  const four = { branch: "ink/four", worktree: dir, childId: "four", title: "general · four" };
  const tipBefore = git(dir, "rev-parse", "HEAD");
  const [state] = await inspectQueue(repo, [four]);
  expect(state).toMatchObject({ branch: "ink/four", uncommitted: true, clean: false, files: ["a.ts", "d.ts"] });
  expect(state!.diffstat).toContain("a.ts | 2");
  expect(state!.diffstat).toContain("d.ts | 1");
  const listing = queueListing([state!]);
  expect(listing[1]).toBe("  1. ink/four — general · four · CONFLICTS with HEAD · has uncommitted work (Ink commits it first)");
  expect(git(dir, "rev-parse", "HEAD")).toBe(tipBefore);
  expect(git(dir, "status", "--porcelain")).toBe(" M a.ts\n?? d.ts\n"); // nothing staged
});
