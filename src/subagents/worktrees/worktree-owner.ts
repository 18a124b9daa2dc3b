/**
 * Who owns a child's worktree: a small JSON record beside the worktree directory
 * (`<worktree>.owner.json`) naming the process that made (or resumed) it, the repository, branch
 * and base commit. It is written before `git worktree add`, so even a kill -9 right after leaves a
 * record; a worktree whose owner process is gone was left by a run that ended (see
 * leftover-worktrees.ts and `ink worktrees`).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { isDifferentProcess, processStartTime } from "../../session/process-identity.js";
import { isProcessAlive } from "../../session/lock.js";

/** The content of an owner record. */
export interface WorktreeOwner {
  /** Absolute path of the worktree. */
  path: string;
  branch: string;
  baseCommit: string;
  /** Root of the user's checkout. */
  repoRoot: string;
  pid: number;
  hostname: string;
  /** Kernel start time of the owner (detects a reused pid). */
  procStart?: string;
  /** When the worktree was made, or last resumed. */
  since: string;
}

/** Path of the owner record of the worktree at `worktreePath`. */
export function ownerRecordPath(worktreePath: string): string {
  return `${worktreePath}.owner.json`;
}

/** Writes (atomically) a record naming this process as the owner. Throws on I/O errors. */
export function writeWorktreeOwner(wt: { path: string; branch: string; baseCommit: string; repoRoot: string }): WorktreeOwner {
  const owner: WorktreeOwner = {
    path: wt.path,
    branch: wt.branch,
    baseCommit: wt.baseCommit,
    repoRoot: wt.repoRoot,
    pid: process.pid,
    hostname: hostname(),
    ...(processStartTime(process.pid) !== undefined ? { procStart: processStartTime(process.pid) } : {}),
    since: new Date().toISOString(),
  };
  const file = ownerRecordPath(wt.path);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(owner)}\n`);
  renameSync(tmp, file);
  return owner;
}

/** Makes this process the owner of a kept worktree being resumed (keeps the rest of the record). Never throws. */
export function claimWorktreeOwner(worktreePath: string, branch: string): void {
  const old = readWorktreeOwner(worktreePath);
  try {
    writeWorktreeOwner({ path: worktreePath, branch, baseCommit: old?.baseCommit ?? "", repoRoot: old?.repoRoot ?? "" });
  } catch {
    // a missing record only means `ink worktrees` shows the owner as unknown
  }
}

/** Reads the owner record of a worktree; undefined when missing or not a record. */
export function readWorktreeOwner(worktreePath: string): WorktreeOwner | undefined {
  let parsed: Partial<WorktreeOwner>;
  try {
    parsed = JSON.parse(readFileSync(ownerRecordPath(worktreePath), "utf8"));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || !Number.isInteger(parsed.pid) || typeof parsed.path !== "string") return undefined;
  return {
    path: parsed.path,
    branch: String(parsed.branch ?? ""),
    baseCommit: String(parsed.baseCommit ?? ""),
    repoRoot: String(parsed.repoRoot ?? ""),
    pid: parsed.pid as number,
    hostname: String(parsed.hostname ?? ""),
    ...(typeof parsed.procStart === "string" ? { procStart: parsed.procStart } : {}),
    since: String(parsed.since ?? "an unknown time"),
  };
}

/** Removes a worktree's owner record (after the worktree itself was removed). Never throws. */
export function removeWorktreeOwner(worktreePath: string): void {
  try {
    unlinkSync(ownerRecordPath(worktreePath));
  } catch {
    // already gone
  }
}

/** "alive" when the owner still runs on this host, "other-host" when it cannot be checked, else "gone". */
export function ownerState(owner: WorktreeOwner): "alive" | "gone" | "other-host" {
  if (owner.hostname !== hostname()) return "other-host";
  if (!isProcessAlive(owner.pid)) return "gone";
  return isDifferentProcess(owner.pid, owner) ? "gone" : "alive";
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Every owner record under `<inkHome>/worktrees/` whose repository contains `cwd` (real paths
 * compared), without running git. Never throws.
 */
export function ownerRecordsFor(inkHome: string, cwd: string): WorktreeOwner[] {
  const base = join(inkHome, "worktrees");
  if (!existsSync(base)) return [];
  const here = realOrSelf(cwd);
  const out: WorktreeOwner[] = [];
  let repos: string[];
  try {
    repos = readdirSync(base);
  } catch {
    return [];
  }
  for (const repo of repos) {
    let names: string[];
    try {
      names = readdirSync(join(base, repo)).filter((n) => n.endsWith(".owner.json"));
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = readWorktreeOwner(join(base, repo, name.slice(0, -".owner.json".length)));
      if (!owner || !owner.repoRoot) continue;
      const root = realOrSelf(owner.repoRoot);
      if (here === root || here.startsWith(`${root}/`)) out.push(owner);
    }
  }
  return out.sort((a, b) => a.since.localeCompare(b.since));
}
