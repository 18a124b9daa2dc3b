/**
 * `ink worktrees [--prune [--force]] [--cwd <dir>]`: the worktrees Ink made for subagents of the
 * repository containing the working directory — who owns each and what it holds — and, with
 * `--prune`, removal of those whose run has ended and that hold nothing (see leftover-worktrees.ts).
 */
import { resolve } from "node:path";
import { describeInkWorktree, listInkWorktrees, pruneInkWorktrees } from "../subagents/worktrees/leftover-worktrees.js";
import { errorMessage } from "../protocol/error-message.js";

export const WORKTREES_USAGE = `Usage: ink worktrees [--prune [--force]] [--cwd <dir>]
  (no flag)   list Ink's subagent worktrees of this repository: branch, path, owner, changes
  --prune     remove the worktrees whose run has ended and that hold nothing (branches with commits,
              dropped commits or stashes are kept; every kept worktree says why)
  --force     with --prune: also remove worktrees with uncommitted changes (their branches stay)
  --cwd <dir> the repository to look at (default: the current directory)`;

/** Parsed flags; throws an Error naming a bad flag and the usage. */
export function parseWorktreesArgs(argv: readonly string[]): { prune: boolean; force: boolean; cwd?: string; help: boolean } {
  const out = { prune: false, force: false, cwd: undefined as string | undefined, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--prune") out.prune = true;
    else if (a === "--force") out.force = true;
    else if (a === "-h" || a === "--help") out.help = true;
    else if (a === "--cwd") {
      const dir = argv[++i];
      if (!dir) throw new Error(`--cwd needs a directory\n${WORKTREES_USAGE}`);
      out.cwd = dir;
    } else throw new Error(`ink worktrees: unknown argument "${a}"\n${WORKTREES_USAGE}`);
  }
  if (out.force && !out.prune) throw new Error(`ink worktrees: --force only goes with --prune\n${WORKTREES_USAGE}`);
  return out;
}

/** Runs the command; returns its exit code. Output lines go to `out`, errors to `err`. Never throws. */
export async function runWorktreesCommand(argv: readonly string[], env: { inkHome: string; cwd: string; out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  let args: ReturnType<typeof parseWorktreesArgs>;
  try {
    args = parseWorktreesArgs(argv);
  } catch (e) {
    env.err(errorMessage(e));
    return 2;
  }
  if (args.help) {
    env.out(WORKTREES_USAGE);
    return 0;
  }
  const cwd = resolve(env.cwd, args.cwd ?? ".");
  try {
    if (!args.prune) {
      const { repoRoot, worktrees } = await listInkWorktrees(env.inkHome, cwd);
      if (worktrees.length === 0) {
        env.out(`No Ink worktrees for ${repoRoot}.`);
        return 0;
      }
      env.out(`Ink worktrees of ${repoRoot} (oldest first):`);
      for (const w of worktrees) env.out(`  ${describeInkWorktree(w)}`);
      env.out("Merge a branch with git merge <branch>; ink worktrees --prune removes the ones that hold nothing.");
      return 0;
    }
    const outcomes = await pruneInkWorktrees(env.inkHome, cwd, { force: args.force });
    if (outcomes.length === 0) {
      env.out("No Ink worktrees to prune.");
      return 0;
    }
    for (const o of outcomes) env.out(`${o.removed ? "removed" : "kept   "} ${o.branch ?? "(detached)"}  ${o.path}: ${o.note}`);
    const removed = outcomes.filter((o) => o.removed).length;
    env.out(`${removed} removed, ${outcomes.length - removed} kept.`);
    return 0;
  } catch (e) {
    env.err(`ink worktrees: ${errorMessage(e)}`);
    return 1;
  }
}
