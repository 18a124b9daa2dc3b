/**
 * Worktrees left by earlier runs: the start-up notice (owner records only, no git, so start-up
 * stays fast) and, for `ink worktrees`, the full list from `git worktree list` of the repository
 * with each worktree's owner and state, and pruning: a worktree is removed only when its owner is
 * gone and removing it loses nothing (no uncommitted changes unless forced; a branch with commits,
 * dropped commits or stashes is always kept). Every kept worktree says why.
 */
import { existsSync, rmdirSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { GitError, runGit } from "./git.js";
import { errorMessage } from "../../protocol/error-message.js";
import { finishWorktree, worktreeAdmin, type Worktree } from "./worktree.js";
import { ownerRecordsFor, ownerState, readWorktreeOwner, removeWorktreeOwner, type WorktreeOwner } from "./worktree-owner.js";

/** One of Ink's worktrees of a repository, as `ink worktrees` shows it. */
export interface InkWorktree {
  path: string;
  branch?: string;
  owner?: WorktreeOwner;
  /** alive: the owning run still goes on; gone: its process ended; other-host; unknown: no owner record. */
  ownerState: "alive" | "gone" | "other-host" | "unknown";
  /** The directory is missing (git calls such a worktree prunable). */
  missing: boolean;
  /** Staged, unstaged or untracked changes (undefined when it could not be inspected). */
  uncommitted?: boolean;
  /** Commits on the branch since its base (undefined when unknown). */
  commits?: number;
}

/**
 * The start-up notice: worktrees of the repository containing `cwd` whose owner run has ended,
 * found from owner records alone. Undefined when there are none. Never throws.
 */
export function leftoverWorktreeNotice(inkHome: string, cwd: string): string | undefined {
  const left = ownerRecordsFor(inkHome, cwd).filter((o) => ownerState(o) === "gone" && existsSync(o.path));
  if (left.length === 0) return undefined;
  const shown = left.slice(0, 5).map((o) => `${o.branch || "?"} at ${o.path} (since ${o.since})`);
  const more = left.length > shown.length ? `, and ${left.length - shown.length} more` : "";
  const what = left.length === 1 ? "1 worktree was" : `${left.length} worktrees were`;
  return `${what} left by earlier runs that ended: ${shown.join("; ")}${more}. Review or merge their work; \`ink worktrees\` lists them, \`ink worktrees --prune\` removes the ones that hold nothing.`;
}

/** Parses `git worktree list --porcelain`. */
function parseWorktreeList(out: string): Array<{ path: string; branch?: string; prunable: boolean }> {
  return out
    .split("\n\n")
    .map((block) => block.split("\n").filter(Boolean))
    .filter((lines) => lines[0]?.startsWith("worktree "))
    .map((lines) => {
      const branch = lines.find((l) => l.startsWith("branch "))?.slice("branch refs/heads/".length);
      return { path: lines[0]!.slice("worktree ".length), branch, prunable: lines.some((l) => l.startsWith("prunable")) };
    });
}

/** Root of the repository containing `cwd`; throws an Error naming `cwd` when there is none. */
async function repoRootOf(cwd: string): Promise<string> {
  try {
    return (await runGit(["rev-parse", "--show-toplevel"], { cwd })).stdout.trim();
  } catch (e) {
    if (e instanceof GitError && e.exitCode !== null) throw new Error(`${cwd} is not inside a git repository; run ink worktrees from the project whose worktrees you want to see (or pass --cwd)`);
    throw e;
  }
}

/** Ink's worktrees (those under `<inkHome>/worktrees/`) of the repository containing `cwd`, oldest first. */
export async function listInkWorktrees(inkHome: string, cwd: string): Promise<{ repoRoot: string; worktrees: InkWorktree[] }> {
  const repoRoot = await repoRootOf(cwd);
  const under = `${resolve(inkHome, "worktrees")}${sep}`;
  const listed = parseWorktreeList((await runGit(["worktree", "list", "--porcelain"], { cwd: repoRoot })).stdout);
  const worktrees: InkWorktree[] = [];
  for (const entry of listed.filter((w) => w.path.startsWith(under))) {
    const owner = readWorktreeOwner(entry.path);
    const missing = entry.prunable || !existsSync(entry.path);
    const wt: InkWorktree = { path: entry.path, branch: entry.branch ?? owner?.branch, owner, ownerState: owner ? ownerState(owner) : "unknown", missing };
    if (!missing) {
      try {
        wt.uncommitted = (await runGit(["status", "--porcelain", "--untracked-files=all"], { cwd: entry.path })).stdout.trim() !== "";
        if (owner?.baseCommit && wt.branch) wt.commits = Number((await runGit(["rev-list", "--count", `${owner.baseCommit}..refs/heads/${wt.branch}`], { cwd: entry.path })).stdout.trim());
      } catch {
        // shown as unknown
      }
    }
    worktrees.push(wt);
  }
  worktrees.sort((a, b) => (a.owner?.since ?? "").localeCompare(b.owner?.since ?? ""));
  return { repoRoot, worktrees };
}

/** One line per worktree for `ink worktrees`. */
export function describeInkWorktree(w: InkWorktree): string {
  const owner =
    w.ownerState === "alive" ? `in use by process ${w.owner!.pid}` :
    w.ownerState === "gone" ? `left by process ${w.owner!.pid} (ended)` :
    w.ownerState === "other-host" ? `owned by process ${w.owner!.pid} on host ${w.owner!.hostname}` :
    "owner unknown (no record)";
  const state = w.missing
    ? "directory missing"
    : w.uncommitted === undefined
      ? "could not be inspected"
      : [w.uncommitted ? "uncommitted changes" : "no uncommitted changes", w.commits !== undefined ? `${w.commits} commit${w.commits === 1 ? "" : "s"}` : undefined].filter(Boolean).join(", ");
  return `${w.branch ?? "(detached)"}  ${w.path}  — ${owner}; ${state}${w.owner ? `; since ${w.owner.since}` : ""}`;
}

/** What pruning did with one worktree. */
export interface PruneOutcome {
  path: string;
  branch?: string;
  removed: boolean;
  /** Why it was kept, or what was kept of it (a branch with commits). */
  note: string;
}

/**
 * Removes the worktrees of `cwd`'s repository whose owner is gone (or unknown) and that hold
 * nothing: a live or other-host owner always keeps it; uncommitted changes keep it unless
 * `force`; commits, commits dropped from the branch and stashes keep the branch (and, without
 * `force`, the worktree). A missing directory is pruned from git's list. Never throws per worktree.
 */
export async function pruneInkWorktrees(inkHome: string, cwd: string, opts: { force?: boolean } = {}): Promise<PruneOutcome[]> {
  const { repoRoot, worktrees } = await listInkWorktrees(inkHome, cwd);
  const out: PruneOutcome[] = [];
  for (const w of worktrees) {
    const base = { path: w.path, branch: w.branch };
    if (w.ownerState === "alive") {
      out.push({ ...base, removed: false, note: `kept: in use by process ${w.owner!.pid} (since ${w.owner!.since})` });
      continue;
    }
    if (w.ownerState === "other-host") {
      out.push({ ...base, removed: false, note: `kept: owned by process ${w.owner!.pid} on host ${w.owner!.hostname}, which this machine cannot check; prune it there` });
      continue;
    }
    if (w.missing) {
      await worktreeAdmin(repoRoot, () => runGit(["worktree", "prune"], { cwd: repoRoot })).catch(() => undefined);
      removeWorktreeOwner(w.path);
      out.push({ ...base, removed: true, note: `its directory was already gone; removed it from git's worktree list${w.branch ? ` (branch ${w.branch} kept)` : ""}` });
      continue;
    }
    out.push(await pruneOne(w, repoRoot, opts.force ?? false));
  }
  return out;
}

async function pruneOne(w: InkWorktree, repoRoot: string, force: boolean): Promise<PruneOutcome> {
  const base = { path: w.path, branch: w.branch };
  if (w.uncommitted === undefined) return { ...base, removed: false, note: "kept: it could not be inspected" };
  if (w.uncommitted && !force) return { ...base, removed: false, note: "kept: it has uncommitted changes (commit them, or pass --force to discard them)" };
  const baseCommit = w.owner?.baseCommit || (w.branch ? await mergeBase(repoRoot, w.branch) : undefined);
  if (w.branch && baseCommit) {
    // The same checks as at the end of a child run: commits, dropped commits, stashes, moved HEAD.
    const wt: Worktree = { path: w.path, branch: w.branch, baseCommit, repoRoot, subdir: "" };
    if (!w.uncommitted) {
      const report = await finishWorktree(wt);
      if (report.kept) return { ...base, removed: false, note: `kept: ${report.reason ?? `branch ${w.branch} has ${report.commits} commit(s) to merge (git merge ${w.branch})`}` };
      removeWorktreeOwner(w.path);
      return { ...base, removed: true, note: report.reason ?? `removed with branch ${w.branch} (it held nothing)` };
    }
  }
  // Forced (uncommitted changes discarded), or no branch/base to judge commits by: remove the
  // worktree only; the branch stays so no commit is lost.
  try {
    await worktreeAdmin(repoRoot, () => runGit(["worktree", "remove", "--force", w.path], { cwd: repoRoot }));
  } catch (e) {
    return { ...base, removed: false, note: `kept: removing it failed: ${errorMessage(e)}` };
  }
  removeWorktreeOwner(w.path);
  try {
    rmdirSync(dirname(w.path));
  } catch {
    // not empty
  }
  const discarded = w.uncommitted ? "uncommitted changes discarded (--force); " : "";
  return { ...base, removed: true, note: `removed; ${discarded}${w.branch ? `branch ${w.branch} kept (delete it with git branch -D ${w.branch} once merged or unwanted)` : "it had no branch"}` };
}

async function mergeBase(repoRoot: string, branch: string): Promise<string | undefined> {
  try {
    return (await runGit(["merge-base", `refs/heads/${branch}`, "HEAD"], { cwd: repoRoot })).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}
