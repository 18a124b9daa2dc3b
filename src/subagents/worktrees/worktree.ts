/**
 * Git worktrees for subagents (`task` with `worktree: true`): a new branch from HEAD checked out
 * under `$INK_HOME/worktrees/`, outside the user's checkout; afterwards a report (branch, path,
 * diffstat) and removal of worktree + branch only when the child provably changed nothing.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, rmdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { GitError, runGit } from "./git.js";
import { errorMessage } from "../../protocol/error-message.js";
import { readWorktreeOwner, removeWorktreeOwner, writeWorktreeOwner } from "./worktree-owner.js";
import { dependencyLinks, dependencyLinksNote, linkDependencies, unlinkDependencies } from "./worktree-deps.js";

/** `not_git_repo` / `no_commit`: the user's directory cannot host a worktree; `bad_location`: the
 * worktree would land inside the checkout; `git_failed`: any other git failure (or an abort). */
export type WorktreeErrorCode = "not_git_repo" | "no_commit" | "bad_location" | "git_failed";

export class WorktreeError extends Error {
  override name = "WorktreeError";
  constructor(readonly code: WorktreeErrorCode, message: string) {
    super(message);
  }
}

/** A worktree created for one child. */
export interface Worktree {
  /** Absolute path of the worktree's root. */
  path: string;
  /** Branch checked out there, e.g. `ink/<label>`. */
  branch: string;
  /** Full hash of the commit the branch started from (the user's HEAD). */
  baseCommit: string;
  /** Root of the user's checkout the worktree was made from. */
  repoRoot: string;
  /** The user's cwd relative to `repoRoot` ("" at the root), using "/" separators. */
  subdir: string;
  /** Dependency folders linked from the checkout (worktree-deps.ts), relative. */
  links?: string[];
}

/** Outcome of `finishWorktree`. */
export interface WorktreeReport {
  /** True when the worktree and branch were left in place. */
  kept: boolean;
  branch: string;
  path: string;
  /** Human-readable diffstat vs the base commit (tracked changes + untracked files); "" if none. */
  diffstat: string;
  /** Commits on the branch since the base commit. */
  commits: number;
  /** True when the worktree holds staged, unstaged or untracked changes. */
  uncommitted?: boolean;
  /** Set when something unusual happened (inspection failed, removal failed, HEAD moved). */
  reason?: string;
  /** A kept worktree's changed files vs the base commit (committed, uncommitted, untracked, ignored), relative to the repository root. */
  files?: string[];
  /** Dependency folders that were linked from the checkout, with the checkout's root. */
  links?: { repoRoot: string; paths: string[] };
}

const MAX_UNTRACKED_LISTED = 50;

/** Child's working directory inside the worktree: the same subdirectory the user started in. */
export function worktreeCwd(wt: Worktree): string {
  return wt.subdir ? join(wt.path, ...wt.subdir.split("/")) : wt.path;
}

/** A string made safe as a path component and a git ref component. */
function slug(text: string): string {
  let s = text
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .slice(0, 60);
  s = s.replace(/^[.-]+/, "").replace(/[.-]+$/, "");
  return s.replace(/\.lock$/i, "-lock");
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isAborted(e: unknown): boolean {
  return e instanceof GitError && e.aborted;
}

/** True when `inner` is `outer` or lies below it. */
function isInside(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Repo root and the cwd's prefix inside it; maps "not a work tree" to a clear WorktreeError. */
async function locateRepo(cwd: string, signal?: AbortSignal): Promise<{ root: string; subdir: string }> {
  const notRepo = (detail: string) =>
    new WorktreeError(
      "not_git_repo",
      `worktree: ${cwd} is not a git repository; run the task without worktree: true or run \`git init\` and commit first${detail}`,
    );
  if (!isDirectory(cwd)) throw new WorktreeError("git_failed", `worktree: working directory ${cwd} does not exist`);
  let stdout: string;
  try {
    ({ stdout } = await runGit(["rev-parse", "--show-toplevel", "--show-prefix"], { cwd, signal }));
  } catch (e) {
    if (e instanceof GitError && e.exitCode !== null) {
      const other = e.stderr.trim() && !/not a git repository/i.test(e.stderr);
      throw notRepo(other ? ` (git: ${e.stderr.trim().split("\n")[0]})` : "");
    }
    throw new WorktreeError("git_failed", `worktree: ${errorMessage(e)}`);
  }
  const [root = "", prefix = ""] = stdout.split("\n");
  if (!root) throw notRepo(" (git reported no work tree)");
  return { root, subdir: prefix.replace(/\/+$/, "") };
}

/** Full hash of HEAD; `no_commit` when the repository has none yet. */
async function headCommit(root: string, signal?: AbortSignal): Promise<string> {
  try {
    const { stdout } = await runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd: root, signal });
    const hash = stdout.trim();
    if (hash) return hash;
  } catch (e) {
    if (!(e instanceof GitError && e.exitCode === 1)) throw new WorktreeError("git_failed", `worktree: ${errorMessage(e)}`);
  }
  throw new WorktreeError(
    "no_commit",
    `worktree: the repository at ${root} has no commit yet; commit once (git add -A && git commit -m init) before using worktree: true`,
  );
}

async function branchExists(root: string, branch: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await runGit(["show-ref", "--verify", "--quiet", `refs/heads/${branch}`], { cwd: root, signal });
    return true;
  } catch (e) {
    if (e instanceof GitError && e.exitCode === 1) return false;
    throw new WorktreeError("git_failed", `worktree: ${errorMessage(e)}`);
  }
}

/** The `git worktree add` or `remove` of each repository running now (its key: the repository root). */
const adminRuns = new Map<string, Promise<unknown>>();

/**
 * Runs `git worktree add`/`remove` (`run`) after the ones already running for the same repository
 * in this process: git reads every worktree's metadata while it adds or removes one, and two at once
 * fail ("failed to read .git/worktrees/<other>/commondir") — children started together in one
 * repository did, leaving a branch of no worktree behind.
 */
export function worktreeAdmin<T>(root: string, run: () => Promise<T>): Promise<T> {
  const key = resolve(root);
  const next = (adminRuns.get(key) ?? Promise.resolve()).then(run, run);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  adminRuns.set(key, settled);
  void settled.then(() => {
    if (adminRuns.get(key) === settled) adminRuns.delete(key);
  });
  return next;
}

/** Best-effort removal of a half-made worktree after an abort (no signal: it must run). */
async function discardPartial(root: string, path: string, branch: string): Promise<void> {
  await worktreeAdmin(root, () => runGit(["worktree", "remove", "--force", path], { cwd: root })).catch(() => undefined);
  await runGit(["branch", "-D", branch], { cwd: root }).catch(() => undefined);
}

/**
 * Creates branch `ink/<label>` (suffixed `-2`, `-3`… when taken) from the HEAD of the repository
 * containing `opts.cwd`, checked out at `<inkHome>/worktrees/<repo>-<hash>/<label>`. Throws
 * `WorktreeError` with code `not_git_repo`, `no_commit`, `bad_location` (inkHome inside the
 * checkout) or `git_failed`. The user's subdirectory is created in the worktree if git has no
 * tracked file there, so `worktreeCwd(wt)` always exists.
 */
export async function createWorktree(opts: {
  cwd: string;
  inkHome: string;
  label: string;
  signal?: AbortSignal;
}): Promise<Worktree> {
  const { signal } = opts;
  const cwd = resolve(opts.cwd);
  const { root, subdir } = await locateRepo(cwd, signal);
  const baseCommit = await headCommit(root, signal);

  const repoId = createHash("sha256").update(root).digest("hex").slice(0, 8);
  const parent = join(resolve(opts.inkHome), "worktrees", `${slug(basename(root)) || "repo"}-${repoId}`);
  try {
    mkdirSync(parent, { recursive: true });
  } catch (e) {
    throw new WorktreeError("git_failed", `worktree: cannot create ${parent}: ${errorMessage(e)}; check INK_HOME`);
  }
  if (isInside(realpathSync(parent), realpathSync(root))) {
    throw new WorktreeError(
      "bad_location",
      `worktree: ${parent} is inside the checkout ${root}; set INK_HOME to a directory outside the repository`,
    );
  }

  const label = slug(opts.label) || "child";
  let retries = 2;
  for (let n = 1; n <= 100; n++) {
    const name = n === 1 ? label : `${label}-${n}`;
    const branch = `ink/${name}`;
    const path = join(parent, name);
    if (existsSync(path) || (await branchExists(root, branch, signal))) continue;
    // The owner record goes first: a run killed right after `worktree add` still leaves it.
    try {
      writeWorktreeOwner({ path, branch, baseCommit, repoRoot: root });
    } catch (e) {
      throw new WorktreeError("git_failed", `worktree: cannot write ${path}.owner.json: ${errorMessage(e)}; check INK_HOME`);
    }
    try {
      await worktreeAdmin(root, () => runGit(["worktree", "add", "-b", branch, path, baseCommit], { cwd: root, signal }));
    } catch (e) {
      if (readWorktreeOwner(path)?.pid === process.pid) removeWorktreeOwner(path); // not a racing winner's record
      if (isAborted(e)) {
        await discardPartial(root, path, branch);
        throw new WorktreeError("git_failed", `worktree: creation of ${path} was aborted`);
      }
      // A concurrent creation (another process) may have taken this name between the check and `worktree add`.
      if (existsSync(path)) continue;
      if (await branchExists(root, branch, signal)) {
        // `worktree add -b` makes the branch before the worktree, so a failure after that (another
        // process adding a worktree at the same moment) leaves a branch of no worktree: removed, and
        // the name tried again. git refuses to delete a branch a worktree has checked out: then it
        // is a racer's, and the next name is tried.
        const ours = await worktreeAdmin(root, () => runGit(["branch", "-D", branch], { cwd: root })).then(
          () => true,
          () => false,
        );
        if (ours && retries-- > 0) n--;
        continue;
      }
      throw new WorktreeError("git_failed", `worktree: could not create ${path} on branch ${branch}: ${errorMessage(e)}`);
    }
    const wt: Worktree = { path, branch, baseCommit, repoRoot: root, subdir };
    mkdirSync(worktreeCwd(wt), { recursive: true });
    const links = linkDependencies(wt);
    return links.length > 0 ? { ...wt, links } : wt;
  }
  throw new WorktreeError("git_failed", `worktree: 100 worktrees named ${label} already exist under ${parent}; remove old ones`);
}

interface Inspection {
  changed: boolean;
  commits: number;
  uncommitted: boolean;
  diffstat: string;
  files: string[];
  note?: string;
}

/** Paths from `git status --porcelain=v1 -z`: the count of changes, the untracked and the ignored paths. */
function parseStatus(out: string): { entries: number; untracked: string[]; ignored: string[] } {
  const tokens = out.split("\0");
  let entries = 0;
  const untracked: string[] = [];
  const ignored: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] ?? "";
    if (tok.length < 4) continue;
    const xy = tok.slice(0, 2);
    if (xy === "!!") {
      ignored.push(tok.slice(3));
      continue;
    }
    entries++;
    if (xy === "??") untracked.push(tok.slice(3));
    if (xy[0] === "R" || xy[0] === "C") i++; // the rename/copy source follows as its own token
  }
  return { entries, untracked, ignored };
}

/** `status` without the dependency links (an untracked link also leaves the change count). */
function withoutLinks(status: ReturnType<typeof parseStatus>, links: ReadonlySet<string>): ReturnType<typeof parseStatus> {
  if (links.size === 0) return status;
  const untracked = status.untracked.filter((p) => !links.has(p.replace(/\/$/, "")));
  return { entries: status.entries - (status.untracked.length - untracked.length), untracked, ignored: status.ignored.filter((p) => !links.has(p.replace(/\/$/, ""))) };
}

/** Everything that could count as the child's work; throws when any git command fails. */
async function inspect(wt: Worktree, signal?: AbortSignal): Promise<Inspection> {
  if (!isDirectory(wt.path)) throw new Error(`worktree directory ${wt.path} is missing`);
  const git = (args: string[]) => runGit(args, { cwd: wt.path, signal }).then((r) => r.stdout);
  const ref = `refs/heads/${wt.branch}`;

  const head = (await git(["rev-parse", "--symbolic-full-name", "HEAD"])).trim();
  const tip = (await git(["rev-parse", "--verify", `${ref}^{commit}`])).trim();
  const commits = Number((await git(["rev-list", "--count", `${wt.baseCommit}..${ref}`])).trim());
  if (!Number.isInteger(commits)) throw new Error(`unexpected rev-list output for ${wt.branch}`);
  // The links to the checkout's dependencies are Ink's, not the child's work.
  const links = new Set(dependencyLinks(wt));
  const status = withoutLinks(parseStatus(await git(["status", "--porcelain=v1", "-z", "--untracked-files=all"])), links);
  const diff = (await git(["-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "--stat", wt.baseCommit]))
    .replace(/\s+$/, "");

  const tracked = (await git(["diff", "--name-only", "--no-renames", "-z", wt.baseCommit])).split("\0").filter(Boolean);
  const parts = diff ? [diff] : [];
  if (status.untracked.length) {
    const listed = status.untracked.slice(0, MAX_UNTRACKED_LISTED).map((p) => ` ${p} (new, untracked)`);
    const more = status.untracked.length - listed.length;
    if (more > 0) listed.push(` ... and ${more} more untracked files`);
    parts.push(`untracked files:\n${listed.join("\n")}`);
  }
  // Ignored files (build output, a .env the child wrote) are work too: a fresh worktree has none.
  const ignored = withoutLinks(parseStatus(await git(["status", "--porcelain=v1", "-z", "--ignored=matching", "--untracked-files=all"])), links).ignored;
  if (ignored.length) {
    const listed = ignored.slice(0, MAX_UNTRACKED_LISTED).map((p) => ` ${p} (new, ignored by .gitignore)`);
    if (ignored.length > listed.length) listed.push(` ... and ${ignored.length - listed.length} more ignored files`);
    parts.push(`ignored files:\n${listed.join("\n")}`);
  }
  // Commits made during the run and then dropped (reset, rebase) live only in the branch's reflog,
  // and stashes made in the worktree only in refs/stash: deleting the branch would lose them.
  const reflog = (await git(["reflog", "show", "--format=%H", ref])).split("\n").filter(Boolean);
  const dropped = [...new Set(reflog)].filter((h) => h !== wt.baseCommit && h !== tip);
  const stashes = (await git(["stash", "list", "--format=%gd%x00%gs"]))
    .split("\n")
    .map((l) => l.split("\0"))
    .filter(([, subject]) => subject !== undefined && (subject.startsWith(`WIP on ${wt.branch}: `) || subject.startsWith(`On ${wt.branch}: `)))
    .map(([name]) => name!);
  const headMoved = head !== ref;
  const notes = [
    headMoved ? `HEAD in the worktree is no longer on ${wt.branch} (now ${head || "unknown"}), kept it to be safe` : undefined,
    dropped.length > 0
      ? `the branch had ${dropped.length} commit(s) during the run that are no longer on it (${dropped.map((h) => h.slice(0, 10)).join(", ")}); kept so they stay reachable — see git reflog ${wt.branch}`
      : undefined,
    stashes.length > 0 ? `${stashes.join(", ")} ${stashes.length === 1 ? "was" : "were"} stashed from ${wt.branch}; kept — see git stash show -p ${stashes[0]}` : undefined,
  ].filter(Boolean);
  return {
    changed: headMoved || tip !== wt.baseCommit || status.entries > 0 || ignored.length > 0 || dropped.length > 0 || stashes.length > 0,
    commits,
    uncommitted: status.entries > 0,
    diffstat: parts.join("\n"),
    files: [...new Set([...tracked, ...status.untracked, ...ignored])],
    note: notes.length > 0 ? notes.join("; ") : undefined,
  };
}

/**
 * Inspects the child's worktree and removes it (worktree + branch) only when nothing changed:
 * branch tip still at `baseCommit`, HEAD still on the branch, `git status` empty (staged,
 * unstaged, untracked and ignored files all count). Never throws: if any inspection
 * fails the worktree is kept and `reason` says why. An aborted `opts.signal` also keeps it, so
 * pass no signal when cleanup must happen after the child was stopped.
 */
export async function finishWorktree(wt: Worktree, opts: { signal?: AbortSignal } = {}): Promise<WorktreeReport> {
  const { signal } = opts;
  const report = { branch: wt.branch, path: wt.path, ...(wt.links?.length ? { links: { repoRoot: wt.repoRoot, paths: wt.links } } : {}) };
  let found: Inspection;
  try {
    found = await inspect(wt, signal);
  } catch (e) {
    return {
      ...report,
      kept: true,
      diffstat: "",
      commits: 0,
      reason: `could not inspect the worktree, kept it to be safe: ${errorMessage(e)}`,
    };
  }
  if (found.changed) {
    return { ...report, kept: true, diffstat: found.diffstat, commits: found.commits, uncommitted: found.uncommitted, reason: found.note, files: found.files };
  }
  unlinkDependencies(wt);
  try {
    await worktreeAdmin(wt.repoRoot, () => runGit(["worktree", "remove", "--force", wt.path], { cwd: wt.repoRoot, signal }));
  } catch (e) {
    return { ...report, kept: true, diffstat: "", commits: 0, reason: `no changes, but removing the worktree failed: ${errorMessage(e)}` };
  }
  removeWorktreeOwner(wt.path);
  try {
    rmdirSync(dirname(wt.path)); // the per-repo folder, only if now empty
  } catch {
    // not empty or already gone
  }
  try {
    await runGit(["branch", "-D", wt.branch], { cwd: wt.repoRoot, signal });
  } catch (e) {
    return {
      ...report,
      kept: false,
      diffstat: "",
      commits: 0,
      reason: `branch ${wt.branch} could not be deleted (${errorMessage(e)}); delete it with git branch -D ${wt.branch}`,
    };
  }
  return { ...report, kept: false, diffstat: "", commits: 0 };
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Text appended to the task result describing what happened to the child's worktree. */
export function formatWorktreeReport(r: WorktreeReport): string {
  const linked = r.links ? `\n[worktree] ${dependencyLinksNote(r.links, r.links.paths)}` : "";
  return formatOutcome(r) + linked;
}

function formatOutcome(r: WorktreeReport): string {
  if (!r.kept) {
    return r.reason
      ? `[worktree] no changes; worktree removed, but ${r.reason}`
      : `[worktree] no changes; worktree and branch ${r.branch} removed`;
  }
  const lines: string[] = [];
  if (r.reason) {
    lines.push(`[worktree] kept branch ${r.branch} at ${r.path}; ${r.reason}`);
  } else {
    const commits = `${r.commits} commit${r.commits === 1 ? "" : "s"}`;
    const extra = r.uncommitted ? " plus uncommitted changes" : "";
    lines.push(`[worktree] changes kept on branch ${r.branch} at ${r.path} (${commits}${extra})`);
  }
  if (r.diffstat) lines.push(r.diffstat);
  if (r.uncommitted) {
    const at = shellQuote(r.path);
    lines.push(`Uncommitted changes live only in the worktree; commit them with: git -C ${at} add -A && git -C ${at} commit`);
  }
  if (r.commits > 0 || r.uncommitted) lines.push(`Merge with: git merge ${r.branch}`);
  return lines.join("\n");
}
