/**
 * "The latest main session of this cwd" (`ink --continue`) at a cost that does not grow with the
 * number of sessions, giving exactly the id `SessionStore.list({cwd, kind: "main"})[0]` gives.
 *
 * Each cwd has a small record (latest-record.ts) of its candidates: the sessions that may still
 * be written (an `open` event is appended BEFORE a session's file is created, reopened or
 * appended to after a close) and the closed ones with their size and mtime at close; every main
 * session of the cwd not in it is closed and no more recent than the best closed candidate. The
 * answer stats and reads the header of the candidates only, and orders them as `list` does.
 *
 * Sessions made by anything that does not keep the records (an older Ink, a person) are noticed
 * through the sessions dir's mtime: every Ink operation that creates or deletes an entry there
 * (session file, lock, index) moves the claim along (`dirOp`), but only when the dir was still
 * as claimed just before it, so a change nobody claimed is never absorbed and the next
 * `--continue` reads the full listing and rebuilds the record. A closed candidate whose size or
 * mtime changed, a missing open or best closed candidate, a torn or incomplete record, or a record
 * of an older claim generation also fall back to the full listing.
 * Limits: a foreign change made during the microseconds of an Ink operation on the same dir (or
 * within the same timestamp tick, on a file system with coarse timestamps) is not seen. An
 * in-place edit of an old session that is not a candidate makes no dir change, but the listing
 * does not see it either (its index trusts the lines of closed sessions), so the answers agree.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { acquireLock } from "./lock.js";
import {
  appendVerified, baseLine, breakClaim, dirState, ensureLatestDir, eventLine, newGen, readClaim, readRecord, recordPath, rewriteRecord, writeClaim,
  type CwdRecord, type RecordEvent,
} from "./latest-record.js";
import { readHeaderAt } from "./summary.js";
import type { SessionHeader, SessionSummary } from "./types.js";

/** Records longer than this are compacted after a fast answer. */
const COMPACT_AFTER_LINES = 64;
/**
 * A rebuild drops an open event whose file is missing this long after its session's creation
 * (its file is created right after the event, or was deleted since); until then it is doubtful.
 */
const ABANDONED_MS = 60_000;

/** How the last `find` was answered, for tests and benchmarks. */
export interface LatestStats {
  path: "fast" | "full";
  /** Why the full listing was read. */
  reason?: string;
  /** Candidates looked at (fast path). */
  candidates: number;
  /** The record was rewritten (rebuilt or compacted). */
  rewritten: boolean;
}

/** What the full listing gives a rebuild: the cwd's main sessions in `list` order, and which may still be written. */
export type FullListing = (cwd: string) => { sessions: SessionSummary[]; open: ReadonlySet<string> };

type Candidate = { id: string; mtimeMs: number; createdAt: string };

/** The latest-session records of sessions dir `dir`. */
export class LatestSessions {
  lastStats: LatestStats = { path: "full", candidates: 0, rewritten: false };

  constructor(
    readonly dir: string,
    private readonly fullListing: FullListing,
  ) {}

  /** Notes that main session `id` of `header.cwd` may be written from now on; call BEFORE writing. Never throws. */
  opening(id: string, header: Pick<SessionHeader, "kind" | "cwd" | "createdAt">): void {
    if (header.kind !== "main") return;
    const ok = ensureLatestDir(this.dir) && appendVerified(recordPath(this.dir, resolve(header.cwd)), eventLine({ id, open: true, createdAt: header.createdAt }));
    if (!ok) breakClaim(this.dir);
  }

  /** Notes that main session `id` is no longer written (call after its last write). Never throws. */
  closed(id: string, header: Pick<SessionHeader, "kind" | "cwd" | "createdAt">): void {
    if (header.kind !== "main") return;
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(join(this.dir, `${id}.jsonl`));
    } catch {
      return; // gone: the open event stays, and a missing open candidate is skipped
    }
    const line = eventLine({ id, open: false, size: stat.size, mtimeMs: stat.mtimeMs, createdAt: header.createdAt });
    if (!appendVerified(recordPath(this.dir, resolve(header.cwd)), line)) breakClaim(this.dir);
  }

  /**
   * Runs `fn`, an operation that may create or delete entries of the sessions dir, and moves the
   * claim past its change when the dir was claimed just before it: by the claim read before, or
   * by the one read after (another Ink process claimed its own change meanwhile). A dir that was
   * not claimed just before stays unclaimed.
   */
  dirOp<T>(fn: () => T): T {
    const claim = readClaim(this.dir);
    const before = dirState(this.dir);
    try {
      return fn();
    } finally {
      const after = dirState(this.dir);
      const now = after === undefined || after === before ? undefined : readClaim(this.dir);
      const covered = now !== undefined && (now.dir === before || (claim !== undefined && claim.dir === before && claim.gen === now.gen));
      if (covered && now.dir !== after) writeClaim(this.dir, { dir: after!, gen: now.gen });
    }
  }

  /** The id of the latest main session of `cwd` (resolved here), as `list(...)[0]` gives it. */
  find(cwd: string): string | undefined {
    const abs = resolve(cwd);
    const fast = this.fast(abs);
    if (typeof fast === "string") return this.full(abs, fast);
    return fast.id;
  }

  /** The fast answer (`{id}`), or why it cannot be given. */
  private fast(cwd: string): { id: string | undefined } | string {
    const stats: LatestStats = { path: "fast", candidates: 0, rewritten: false };
    this.lastStats = stats;
    const claim = readClaim(this.dir);
    if (!claim) return "no claim";
    if (dirState(this.dir) !== claim.dir) return "the sessions dir changed";
    const path = recordPath(this.dir, cwd);
    const record = readRecord(path);
    if (!record) return "no record";
    if (record.torn) return "a torn record";
    if (record.base !== claim.gen) return "a record of another generation";
    const last = lastEvents(record);
    const best = bestClosed(last);
    let answer: Candidate | undefined;
    for (const e of last.values()) {
      stats.candidates++;
      const c = this.candidate(e, cwd);
      if (c === "skip") continue;
      if (typeof c === "string") {
        if (!e.open && e.id !== best?.id && c === "gone") continue; // a closed one stands for others only while it is the best
        return `candidate ${e.id}: ${c}`;
      }
      if (!answer || newer(c, answer)) answer = c;
    }
    if (record.lines > COMPACT_AFTER_LINES) stats.rewritten = this.compact(path, claim.gen, cwd);
    return { id: answer?.id };
  }

  /** Candidate `e` checked against its file: its sort key, "skip" (not listed), or what makes it doubtful. */
  private candidate(e: RecordEvent, cwd: string): Candidate | "skip" | string {
    const path = join(this.dir, `${e.id}.jsonl`);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      // An open one may not be created yet, or may have been the best closed one before it was
      // reopened (standing for sessions the record no longer names): doubtful either way.
      return "gone";
    }
    if (!e.open && (stat.size !== e.size || stat.mtimeMs !== e.mtimeMs)) return "changed since it was closed";
    let header: SessionHeader;
    try {
      header = readHeaderAt(path);
    } catch {
      return e.open ? "skip" : "unreadable header";
    }
    if (header.kind !== "main" || resolve(header.cwd) !== cwd) return e.open ? "skip" : "header changed";
    return { id: e.id, mtimeMs: stat.mtimeMs, createdAt: header.createdAt };
  }

  /** The full listing's answer; rebuilds the record (and claims the dir when nothing was claimed). */
  private full(cwd: string, reason: string): string | undefined {
    const stats: LatestStats = { path: "full", reason, candidates: 0, rewritten: false };
    // Before the dir is stat'ed (creating .latest changes it); a missing sessions dir is not created.
    if (dirState(this.dir) !== undefined) ensureLatestDir(this.dir);
    const claim = readClaim(this.dir);
    const before = dirState(this.dir);
    let gen: string | undefined;
    if (before !== undefined) {
      if (claim?.dir === before) gen = claim.gen;
      else {
        // A new generation claimed BEFORE listing: Ink operations from here on move it along,
        // and anything else breaks it; records of older generations are no longer trusted.
        const fresh = newGen();
        if (writeClaim(this.dir, { dir: before, gen: fresh })) gen = fresh;
      }
    }
    const { sessions, open } = this.fullListing(cwd);
    this.lastStats = stats;
    if (gen === undefined) return sessions[0]?.id;
    const locked = lockedIds(this.dir);
    const stillOpen = (id: string) => open.has(id) || locked.has(id);
    stats.rewritten = this.withRecordLock(cwd, (path) =>
      rewriteRecord(path, (old) => {
        const lines = [baseLine(gen)];
        const kept = new Set<string>();
        for (const e of lastEvents(old).values()) {
          if (!e.open || abandoned(e, this.dir)) continue;
          kept.add(e.id);
          lines.push(eventLine(e));
        }
        let closedDone = false;
        for (const s of sessions) {
          if (kept.has(s.id)) continue;
          if (stillOpen(s.id)) lines.push(eventLine({ id: s.id, open: true, createdAt: s.createdAt }));
          else if (!closedDone) {
            closedDone = true;
            lines.push(eventLine({ id: s.id, open: false, size: s.size, mtimeMs: s.mtimeMs, createdAt: s.createdAt }));
          }
        }
        return lines;
      }),
    );
    return sessions[0]?.id;
  }

  /** Keeps the open events and the best closed one, when every closed one dropped is unchanged. */
  private compact(path: string, gen: string, cwd: string): boolean {
    return this.withRecordLock(cwd, () =>
      rewriteRecord(path, (old) => {
        if (old.torn || old.base !== gen) return undefined;
        const last = lastEvents(old);
        const best = bestClosed(last);
        const lines = [baseLine(gen)];
        for (const e of last.values()) {
          if (e.open || e.id === best?.id) lines.push(eventLine(e));
          else if (!unchangedFile(join(this.dir, `${e.id}.jsonl`), e)) return undefined; // doubtful: the next answer falls back
        }
        return lines;
      }),
    );
  }

  /** Runs `fn` holding the rewrite lock of `cwd`'s record; false when another process holds it. */
  private withRecordLock(cwd: string, fn: (path: string) => boolean): boolean {
    const path = recordPath(this.dir, cwd);
    let lock: ReturnType<typeof acquireLock>;
    try {
      lock = acquireLock(`${path}.lock`, "latest-session record rewrite");
    } catch {
      return false;
    }
    try {
      return fn(path);
    } finally {
      lock.release();
    }
  }
}

/** The last event of each id, in first-seen order. */
function lastEvents(record: CwdRecord): Map<string, RecordEvent> {
  const last = new Map<string, RecordEvent>();
  for (const e of record.events) last.set(e.id, e);
  return last;
}

/** The closed event with the newest recorded activity (as `list` orders). */
function bestClosed(last: Map<string, RecordEvent>): RecordEvent | undefined {
  let best: RecordEvent | undefined;
  for (const e of last.values()) {
    if (e.open) continue;
    if (!best || newer({ id: e.id, mtimeMs: e.mtimeMs!, createdAt: e.createdAt ?? "" }, { id: best.id, mtimeMs: best.mtimeMs!, createdAt: best.createdAt ?? "" })) best = e;
  }
  return best;
}

/** True when `a` sorts before `b` in `list` (more recent activity; ties by createdAt, then id). */
function newer(a: Candidate, b: Candidate): boolean {
  if (a.mtimeMs !== b.mtimeMs) return a.mtimeMs > b.mtimeMs;
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.id > b.id;
}

/** Ids whose session file has a lock file (someone may be writing it). */
function lockedIds(dir: string): Set<string> {
  const ids = new Set<string>();
  try {
    for (const name of readdirSync(dir)) if (name.endsWith(".jsonl.lock")) ids.add(name.slice(0, -11));
  } catch {
    // no dir: no locks
  }
  return ids;
}

/** An open event whose file never appeared, long ago. */
function abandoned(e: RecordEvent, dir: string): boolean {
  const at = e.createdAt === undefined ? NaN : Date.parse(e.createdAt);
  if (!(Date.now() - at > ABANDONED_MS)) return false;
  try {
    statSync(join(dir, `${e.id}.jsonl`));
    return false;
  } catch {
    return true;
  }
}

/** True when the file at `path` still has the size and mtime closed event `e` recorded. */
function unchangedFile(path: string, e: RecordEvent): boolean {
  try {
    const s = statSync(path);
    return s.size === e.size && s.mtimeMs === e.mtimeMs;
  } catch {
    return true; // deleted: dropping it changes nothing
  }
}
