/**
 * The sidebar's rows: the resumable child sessions — this session's children (from the event
 * stream, so running ones show at once) merged with the project's saved child sessions (from the
 * session store). Pure.
 */
import type { SessionSummary } from "../../src/session/types.js";
import { firstLine, formatAge } from "./format.js";
import { childTick } from "./child-status.js";
import { promptWords } from "../../src/subagents/runtime/child-label.js";
import type { ChildStatus, TranscriptItem } from "./transcript-types.js";

/** One child session in the sidebar. */
export interface SidebarRow {
  /** Child (= session) id. */
  id: string;
  /** How it stands; "unknown" when its file has no end status (cut off, or running elsewhere). */
  status: ChildStatus | "unknown";
  profile?: string;
  /** Its `task` description (from this session's events, else its session header); absent when none was given in an older run. */
  description?: string;
  /** First line of its first prompt. */
  prompt: string;
  /** Last activity, ms since the epoch: a running child's start, a finished one's end. */
  at: number;
  /** Started by this session (otherwise an earlier one of the project). */
  current: boolean;
  /** The task tool's result text, when this session saw it end. */
  result?: string;
  /** The main session that started it (earlier sessions' children are grouped by it). */
  parent?: string;
}

const KNOWN: readonly string[] = ["running", "ok", "aborted", "timeout", "crash"];

/**
 * The age column (header "age") of `row` at clock `now`: a running child's time since it started,
 * in seconds, at the child tick (the elapsed time its pane and row show at the same clock); any other's time since it ended, in whole minutes at least (`<1m`, `3m`,
 * `5h`, `2d`) — it changes only when its unit does, never every second.
 */
export function rowAge(row: SidebarRow, now: number): string {
  if (row.status === "running") return formatAge(childTick(now) - row.at);
  const ms = now - row.at;
  return ms < 60_000 ? "<1m" : formatAge(ms);
}

/** This session's children as the transcript shows them: the latest run of each id. */
export function transcriptChildren(items: readonly TranscriptItem[]): SidebarRow[] {
  const byId = new Map<string, SidebarRow>();
  for (const item of items) {
    if (item.kind !== "tool" || !item.child) continue;
    const c = item.child;
    byId.set(c.childId, {
      id: c.childId,
      status: c.status,
      profile: c.profile,
      // A description that is only the prompt's first words adds nothing to the prompt's first line the row shows.
      ...(c.description && c.description !== promptWords(c.prompt) ? { description: c.description } : {}),
      prompt: firstLine(c.prompt),
      at: c.startedAt + (c.durationMs ?? 0),
      current: true,
      result: item.done ? item.result : undefined,
    });
  }
  return [...byId.values()];
}

/** A saved child session as a row (`sessionId` = the current main session). */
export function storedRow(s: SessionSummary, sessionId: string): SidebarRow {
  return {
    id: s.id,
    status: s.status !== undefined && KNOWN.includes(s.status) ? (s.status as ChildStatus) : "unknown",
    profile: s.profile,
    ...(s.description ? { description: s.description } : {}),
    prompt: firstLine(s.prompt ?? ""),
    at: s.mtimeMs,
    current: s.parentId === sessionId,
    parent: s.parentId,
  };
}

/**
 * Merges the transcript's children over the saved ones (same id: the transcript's status, time
 * and result win; the saved first prompt wins). Order: this session's children (running first,
 * then newest first), then earlier ones grouped by the session that started them — groups by
 * their newest child, newest first within a group.
 */
export function sidebarRows(fromTranscript: readonly SidebarRow[], stored: readonly SessionSummary[], sessionId: string): SidebarRow[] {
  const rows = new Map<string, SidebarRow>(stored.map((s) => [s.id, storedRow(s, sessionId)]));
  for (const row of fromTranscript) {
    const saved = rows.get(row.id);
    // A resumed child's live row names its first prompt and saved description, not the resume prompt's words.
    rows.set(row.id, { ...row, prompt: saved?.prompt || row.prompt, description: saved?.description ?? row.description });
  }
  const rank = (r: SidebarRow) => (r.current ? (r.status === "running" ? 0 : 1) : 2);
  const all = [...rows.values()];
  const groupAt = new Map<string, number>();
  for (const r of all) if (!r.current) groupAt.set(r.parent ?? "", Math.max(groupAt.get(r.parent ?? "") ?? 0, r.at));
  const group = (r: SidebarRow) => (r.current ? 0 : groupAt.get(r.parent ?? "")!);
  return all.sort((a, b) => rank(a) - rank(b) || group(b) - group(a) || (a.parent ?? "").localeCompare(b.parent ?? "") || b.at - a.at || (a.id < b.id ? -1 : 1));
}
