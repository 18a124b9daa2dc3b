/**
 * The merge queue of one session: its kept worktree branches come from the task records in its
 * file (this run's and, resumed, earlier runs'), the latest record of a branch winning.
 */
import { existsSync } from "node:fs";
import { loadSessionFile } from "../session/load.js";
import type { TaskRecord } from "../session/types.js";
import type { QueueBranch } from "./merge-queue.js";

/**
 * The kept worktree branches of `records`, one per branch, in the order their children were
 * delegated: by the position of the branch's first \`task\` call in `callOrder` (the conversation's
 * tool call ids, oldest first). Children finish in any order, so record order alone would make
 * "merge all" differ from run to run. A branch whose call is no longer in the conversation
 * (compacted away) is older than any that is; among those, record order.
 */
export function keptBranches(records: readonly TaskRecord[], callOrder: readonly string[] = []): QueueBranch[] {
  const byBranch = new Map<string, QueueBranch>();
  const firstCall = new Map<string, number>();
  const position = new Map(callOrder.map((id, i) => [id, i]));
  for (const r of records) {
    if (!r.worktree) continue;
    if (!firstCall.has(r.worktree.branch)) firstCall.set(r.worktree.branch, r.toolCallId !== undefined ? (position.get(r.toolCallId) ?? -1) : -1);
    byBranch.delete(r.worktree.branch);
    if (r.worktree.kept) byBranch.set(r.worktree.branch, { branch: r.worktree.branch, worktree: r.worktree.path, childId: r.sessionId ?? r.childId, title: r.description ?? r.profile ?? "general" });
  }
  return [...byBranch.values()].map((b, i) => ({ b, i })).sort((x, y) => firstCall.get(x.b.branch)! - firstCall.get(y.b.branch)! || x.i - y.i).map((x) => x.b);
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
