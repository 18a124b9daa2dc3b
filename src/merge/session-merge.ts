/**
 * The merge queue of one session: its kept worktree branches come from the task records in its
 * file (this run's and, resumed, earlier runs'), the latest record of a branch winning.
 */
import { existsSync } from "node:fs";
import { loadSessionFile } from "../session/load.js";
import type { TaskRecord } from "../session/types.js";
import type { QueueBranch } from "./merge-queue.js";

/** The kept worktree branches of `records`, oldest first, one per branch. */
export function keptBranches(records: readonly TaskRecord[]): QueueBranch[] {
  const byBranch = new Map<string, QueueBranch>();
  for (const r of records) {
    if (!r.worktree) continue;
    byBranch.delete(r.worktree.branch);
    if (r.worktree.kept) byBranch.set(r.worktree.branch, { branch: r.worktree.branch, worktree: r.worktree.path, childId: r.sessionId ?? r.childId, title: r.description ?? r.profile ?? "general" });
  }
  return [...byBranch.values()];
}

/** The task records of the session file at `path` (none when it does not exist yet), else `fallback`. */
export function sessionRecords(path: string | undefined, fallback: readonly TaskRecord[]): readonly TaskRecord[] {
  if (!path || !existsSync(path)) return fallback;
  try {
    return loadSessionFile(path).records;
  } catch {
    return fallback;
  }
}

/** `/merge` arguments: nothing (list), `hand` (the last conflict to its child), `all` or numbers / branch names, and `squash`, `dirty` (merge over uncommitted changes). */
export function parseMergeArgs(args: string): { list: true } | { hand: true } | { pick: "all" | Array<number | string>; squash: boolean; allowDirty: boolean } {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { list: true };
  if (words.length === 1 && words[0]!.toLowerCase() === "hand") return { hand: true };
  let squash = false;
  let allowDirty = false;
  const pick: Array<number | string> = [];
  let all = false;
  for (const w of words) {
    if (w.toLowerCase() === "squash") squash = true;
    else if (w.toLowerCase() === "dirty") allowDirty = true;
    else if (w.toLowerCase() === "all") all = true;
    else pick.push(/^\d+$/.test(w) ? Number(w) : w);
  }
  return { pick: all || pick.length === 0 ? "all" : pick, squash, allowDirty };
}
