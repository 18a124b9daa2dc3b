/**
 * The merge queue (issue #40): the kept worktree branches of a session, each with its diffstat,
 * the files it shares with another kept branch, and whether it applies cleanly to HEAD now
 * (`git merge-tree --write-tree`, which touches neither the tree nor the index); then merging the
 * chosen ones in order into the current branch (a merge commit or a squash), stopping at the first
 * conflict (the merge is undone, the conflicting files named), and removing each merged worktree
 * and branch. A dirty tree (tracked changes) is refused unless the caller says the person agreed.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shortId } from "../session/ids.js";
import { GitError, runGit } from "../subagents/worktrees/git.js";
import { worktreeAdmin } from "../subagents/worktrees/worktree.js";
import { errorMessage } from "../protocol/error-message.js";

export interface QueueBranch {
  branch: string;
  /** The worktree holding the branch (removed once merged); may be gone already. */
  worktree?: string;
  /** Who made it (a child's id and title), for the listing. */
  childId?: string;
  title?: string;
}

export interface BranchState extends QueueBranch {
  /** `git diff --stat` of what merging would bring (HEAD...branch), plus a worktree's uncommitted work. */
  diffstat: string;
  files: string[];
  /** True when the branch merges into HEAD without a conflict. */
  clean: boolean;
  /** Files of this branch another listed branch changes too. */
  overlaps: string[];
  /** The worktree has changes not committed on the branch (committed by Ink before merging). */
  uncommitted: boolean;
}

export interface MergeOutcome {
  ok: boolean;
  merged: string[];
  /** The branch that conflicted (nothing of it was kept; the tree is as before it), and what it was to merge into. */
  conflict?: MergeConflict;
  /** Branches after the conflicting one that were not tried (in order). */
  remaining?: QueueBranch[];
  /** Why nothing (more) was merged: a dirty tree, an unknown branch, a git failure. */
  error?: string;
  /** Worktrees or branches that could not be removed after merging (with why). */
  leftovers: string[];
}

export interface MergeConflict extends QueueBranch {
  files: string[];
  detail: string;
  /** The conflicting hunks as git showed them mid-merge (`git diff`, with the markers), cut to CONFLICT_DIFF_LINES lines. */
  diff: string;
  /** The branch (or commit, on a detached HEAD) the queue merges into. */
  into: string;
}

/** At most this many lines of a conflict's diff are kept (the rest is in the branch's worktree). */
export const CONFLICT_DIFF_LINES = 40;

const IDENTITY = ["-c", "user.name=Ink", "-c", "user.email=ink@localhost"];

async function git(cwd: string, args: string[]): Promise<string> {
  return (await runGit(args, { cwd })).stdout;
}
async function gitCode(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await runGit(args, { cwd });
    return { code: 0, ...r };
  } catch (err) {
    if (err instanceof GitError && err.exitCode !== null) return { code: err.exitCode, stdout: err.stdout, stderr: err.stderr };
    throw err;
  }
}

/** The repository root of `cwd`. */
export async function repoRoot(cwd: string): Promise<string> {
  return (await git(cwd, ["rev-parse", "--show-toplevel"])).trim();
}

/** True when the branch exists in the repository. */
async function branchExists(root: string, branch: string): Promise<boolean> {
  return (await gitCode(root, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).code === 0;
}

async function hasUncommitted(worktree: string | undefined): Promise<boolean> {
  if (!worktree || !existsSync(worktree)) return false;
  return (await git(worktree, ["status", "--porcelain"])).trim() !== "";
}

/**
 * A commit of `worktree`'s HEAD plus its uncommitted work (tracked and untracked, as `git add -A`
 * takes them), on no branch: what the branch brings once Ink commits that work. Made with an index
 * of its own, so the worktree's index, files and branch stay as they are. Undefined when git fails.
 */
async function withUncommitted(worktree: string): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "ink-merge-preview-"));
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    await runGit(["read-tree", "HEAD"], { cwd: worktree, env });
    await runGit(["add", "-A"], { cwd: worktree, env });
    const tree = (await runGit(["write-tree"], { cwd: worktree, env })).stdout.trim();
    return (await runGit([...IDENTITY, "commit-tree", tree, "-p", "HEAD", "-m", "ink: uncommitted work (merge preview)"], { cwd: worktree })).stdout.trim();
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The listed branches that still exist, with their diffstat, overlaps and whether each applies cleanly to HEAD. */
export async function inspectQueue(cwd: string, branches: readonly QueueBranch[]): Promise<BranchState[]> {
  const root = await repoRoot(cwd);
  const states: BranchState[] = [];
  for (const b of branches) {
    if (!(await branchExists(root, b.branch))) continue;
    const uncommitted = await hasUncommitted(b.worktree);
    // A worktree's uncommitted work is committed on its branch before merging, so the diffstat and
    // the clean check are of the branch with that work (a commit on no branch; see withUncommitted).
    const tip = (uncommitted ? await withUncommitted(b.worktree!) : undefined) ?? b.branch;
    const files = (await git(root, ["diff", "--name-only", `HEAD...${tip}`])).split("\n").filter(Boolean);
    const diffstat = (await git(root, ["diff", "--stat", `HEAD...${tip}`])).trimEnd();
    if (uncommitted && tip === b.branch) for (const f of (await git(b.worktree!, ["status", "--porcelain", "-uall"])).split("\n").filter(Boolean)) if (!files.includes(f.slice(3))) files.push(f.slice(3));
    const clean = (await gitCode(root, ["merge-tree", "--write-tree", "--name-only", "HEAD", tip])).code === 0;
    states.push({ ...b, diffstat, files, clean, overlaps: [], uncommitted });
  }
  for (const s of states) s.overlaps = s.files.filter((f) => states.some((o) => o !== s && o.files.includes(f)));
  return states;
}

/** Lines for the person: one block per branch, numbered as `/merge <n>` takes them. */
export function queueListing(states: readonly BranchState[]): string[] {
  if (states.length === 0) return ["No kept worktree branches in this session (a worktree child that changed something keeps one)."];
  const lines = ["Kept worktree branches (merged in the order you give):"];
  // Short enough that three branches fit an 80x24 screen with their first line: the child's id is
  // left out when the branch name holds it, and a one-file diffstat loses its summary line.
  states.forEach((s, i) => {
    const id = s.childId && !s.branch.endsWith(`/${s.childId}`) ? ` [${s.childId}]` : "";
    const who = s.title ? ` — ${s.title}${id}` : id;
    lines.push(`  ${i + 1}. ${s.branch}${who} · ${s.clean ? "applies cleanly to HEAD" : "CONFLICTS with HEAD"}${s.uncommitted ? " · has uncommitted work (Ink commits it first)" : ""}`);
    const stat = s.diffstat.split("\n").filter(Boolean);
    for (const l of stat.length === 2 && /^\s*1 file changed/.test(stat[1]!) ? stat.slice(0, 1) : stat) lines.push(`     ${l.trim()}`);
    if (s.overlaps.length > 0) lines.push(`     also changed by another branch: ${s.overlaps.join(", ")}`);
  });
  lines.push("/merge <n> [<n>…] | all  [squash]  — merges in that order, stops at the first conflict, removes each merged worktree and branch");
  return lines;
}

/** Merges `branches` in order into the current branch of `cwd`'s repository. */
export async function mergeQueue(cwd: string, branches: readonly QueueBranch[], opts: { squash?: boolean; allowDirty?: boolean } = {}): Promise<MergeOutcome> {
  const out: MergeOutcome = { ok: false, merged: [], leftovers: [] };
  let root: string;
  try {
    root = await repoRoot(cwd);
  } catch (err) {
    return { ...out, error: `not a git repository (${errorMessage(err)})` };
  }
  const files = (await git(root, ["status", "--porcelain", "--untracked-files=no"])).split("\n").filter(Boolean).map((l) => l.slice(3));
  if (files.length > 0 && !opts.allowDirty) {
    return { ...out, error: `the working tree has uncommitted changes (${files.slice(0, 5).join(", ")}${files.length > 5 ? ", …" : ""}); commit or stash them first, or confirm merging anyway` };
  }
  const head = (await gitCode(root, ["symbolic-ref", "--quiet", "--short", "HEAD"])).stdout.trim() || (await git(root, ["rev-parse", "--short", "HEAD"])).trim();
  for (const [i, b] of branches.entries()) {
    if (!(await branchExists(root, b.branch))) return { ...out, error: `branch ${b.branch} does not exist (merged or deleted already?)` };
    try {
      if (await hasUncommitted(b.worktree)) {
        await git(b.worktree!, ["add", "-A"]);
        await git(b.worktree!, [...IDENTITY, "commit", "-q", "--no-verify", "-m", `ink: uncommitted work of ${b.title ?? b.branch}`]);
      }
      const merge = opts.squash ? ["merge", "--squash", b.branch] : ["merge", "--no-ff", "--no-edit", b.branch];
      const r = await gitCode(root, [...IDENTITY, ...merge]);
      if (r.code !== 0) {
        const files = (await git(root, ["diff", "--name-only", "--diff-filter=U"])).split("\n").filter(Boolean);
        const diffLines = files.length > 0 ? (await gitCode(root, ["diff", "--no-color", "--", ...files])).stdout.trimEnd().split("\n") : [];
        const diff = diffLines.length > CONFLICT_DIFF_LINES ? [...diffLines.slice(0, CONFLICT_DIFF_LINES), `… ${diffLines.length - CONFLICT_DIFF_LINES} more lines`].join("\n") : diffLines.join("\n");
        await gitCode(root, ["merge", "--abort"]);
        if (opts.squash) await gitCode(root, ["reset", "--merge"]);
        return { ...out, conflict: { ...b, files, detail: (r.stdout + r.stderr).trim(), diff, into: head }, remaining: branches.slice(i + 1) };
      }
      if (opts.squash) await git(root, [...IDENTITY, "commit", "-q", "--no-verify", "-m", `Squashed ${b.branch}${b.title ? ` (${b.title})` : ""}`]);
    } catch (err) {
      return { ...out, error: `merging ${b.branch} failed: ${errorMessage(err)}` };
    }
    out.merged.push(b.branch);
    if (b.worktree && existsSync(b.worktree)) {
      const rm = await worktreeAdmin(root, () => gitCode(root, ["worktree", "remove", "--force", b.worktree!]));
      if (rm.code !== 0) out.leftovers.push(`worktree ${b.worktree}: ${rm.stderr.trim()}`);
    }
    const del = await gitCode(root, ["branch", "-D", b.branch]);
    if (del.code !== 0) out.leftovers.push(`branch ${b.branch}: ${del.stderr.trim()}`);
  }
  return { ...out, ok: true };
}

/**
 * The prompt that hands a conflict to the branch's own child (resumed in its worktree): merge the
 * target into its branch there, resolve, commit — so the branch then merges cleanly.
 */
export function conflictPrompt(c: MergeConflict): string {
  return [
    `[Ink merge queue] Merging your branch ${c.branch} into ${c.into} conflicts in: ${c.files.join(", ") || "(see git's message below)"}.`,
    `Resolve it on your branch, in your worktree${c.worktree ? ` (${c.worktree})` : ""}: run \`git merge ${c.into}\`, edit each conflicting file so that both your change and ${c.into}'s are kept, then \`git add\` them and \`git commit --no-edit\`.`,
    `Change nothing else. End with one line saying how you resolved each file.`,
    ...(c.detail ? ["", "Git said:", c.detail] : []),
  ].join("\n");
}

/**
 * What `/merge` says after merging: the outcome, and at a conflict git's message, the conflicting
 * hunks and the offer to hand it to the branch's child (`/merge hand`).
 */
export function mergeNotice(o: MergeOutcome): string {
  const lines = [describeMerge(o)];
  const c = o.conflict;
  if (!c) return lines[0]!;
  // git's CONFLICT lines and the hunks only: "Auto-merging", "Automatic merge failed" and the
  // diff's index/---/+++ header say nothing the person needs, and at 80x24 they pushed the first
  // line (what was merged, where it stopped) off the screen.
  const conflictLines = c.detail.split("\n").filter((l) => l.startsWith("CONFLICT"));
  lines.push(...(conflictLines.length > 0 ? conflictLines : c.detail ? [c.detail] : []));
  if (c.diff) lines.push(...c.diff.split("\n").filter((l) => !/^(index |--- |\+\+\+ )/.test(l)));
  const rest = (o.remaining ?? []).map((b) => b.branch);
  const then = `then merges ${c.branch}${rest.length > 0 ? ` and ${rest.join(", ")}` : ""}`;
  if (c.childId) lines.push(`→ /merge hand resumes ${c.title ?? "its child"} [${shortId(c.childId)}] in its worktree with this conflict as its prompt, ${then}`);
  return lines.join("\n");
}

/** One line for the person about a merge's outcome. */
export function describeMerge(o: MergeOutcome): string {
  const merged = o.merged.length > 0 ? `merged ${o.merged.join(", ")} (worktrees and branches removed)` : "nothing merged";
  const left = o.leftovers.length > 0 ? `; could not remove: ${o.leftovers.join("; ")}` : "";
  if (o.conflict) return `${merged}; stopped at ${o.conflict.branch}: it conflicts in ${o.conflict.files.join(", ") || "(see git's message)"} — the merge was undone, its worktree and branch kept; resolve it there (or ask its child to) and merge again${left}`;
  if (o.error) return `${merged}; ${o.error}${left}`;
  return merged + left;
}
