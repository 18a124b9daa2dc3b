/**
 * Single-writer lock files for sessions: only one run may write to a session at a time. A lock
 * file holds `{pid, hostname, startedAt, owner, token}`; a lock whose process is gone (or whose
 * file is unreadable garbage) is stale and taken over, a live one is refused.
 */
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname as osHostname } from "node:os";
import { basename } from "node:path";

/** The content of a lock file. */
export interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
  owner?: string;
  /** Random per acquisition, so `release` only removes its own lock. */
  token?: string;
}

/** A held lock. */
export interface SessionLock {
  path: string;
  /** Removes the lock file if it is still ours (no-op otherwise, and when called twice). */
  release(): void;
}

/** Thrown when a live process holds the lock. */
export class SessionLockedError extends Error {
  override readonly name = "SessionLockedError";
  constructor(
    readonly sessionId: string,
    readonly lockPath: string,
    readonly holder: LockInfo,
    message: string,
  ) {
    super(message);
  }
}

/** The session id a lock path belongs to: `<dir>/<id>.jsonl.lock` → `<id>`. */
function sessionIdOf(lockPath: string): string {
  return basename(lockPath).replace(/\.lock$/, "").replace(/\.jsonl$/, "");
}

/** True when a process with this pid exists on this machine (EPERM counts as alive). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Reads and validates a lock file; `undefined` when it is missing, unreadable or not a lock. */
export function readLock(path: string): LockInfo | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const info = parsed as Partial<LockInfo>;
  if (!Number.isInteger(info.pid) || (info.pid as number) <= 0 || typeof info.hostname !== "string") return undefined;
  return {
    pid: info.pid as number,
    hostname: info.hostname,
    startedAt: typeof info.startedAt === "string" ? info.startedAt : "an unknown time",
    ...(typeof info.owner === "string" ? { owner: info.owner } : {}),
    ...(typeof info.token === "string" ? { token: info.token } : {}),
  };
}

/**
 * Takes the lock at `path` (e.g. `<session file>.lock`). Creates it atomically (exclusive
 * create); when it exists, a holder alive on this host makes it throw `SessionLockedError`
 * ("session <id> is in use by process <pid> (since <time>); wait for it to finish or stop it") —
 * this includes the calling process itself. A lock held on another host is refused too (its pid cannot be checked). A dead
 * holder or an unparsable lock file is replaced atomically. Other I/O errors are thrown.
 */
export function acquireLock(path: string, owner?: string): SessionLock {
  const mine: LockInfo = {
    pid: process.pid,
    hostname: osHostname(),
    startedAt: new Date().toISOString(),
    ...(owner !== undefined ? { owner } : {}),
    token: randomBytes(8).toString("hex"),
  };
  const text = `${JSON.stringify(mine)}\n`;
  if (!tryCreate(path, text)) {
    const staleText = readRaw(path);
    const holder = readLock(path);
    if (holder) refuseIfHeld(path, holder);
    if (!takeOver(path, staleText, text)) {
      // Another process took the stale lock over at the same moment; it wins.
      const winner = readLock(path);
      if (winner) refuseIfHeld(path, winner);
      throw new Error(`could not take over the stale lock ${path}; try again`);
    }
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      if (readLock(path)?.token === mine.token) removeQuietly(path);
    },
  };
}

/**
 * Creates `path` exclusively, already holding `text` (written to a temp file, then hard-linked
 * into place, so no reader ever sees an empty lock); false when it already exists.
 */
function tryCreate(path: string, text: string): boolean {
  const tmp = writeTemp(path, text);
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    removeQuietly(tmp);
  }
}

/** Writes `text` to a fresh temp file next to `path` and returns its path. */
function writeTemp(path: string, text: string): string {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, text, { flag: "wx" });
  return tmp;
}

/** Unlinks `path`, ignoring a missing file. */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** Throws `SessionLockedError` unless `holder` is a dead process on this host. */
function refuseIfHeld(path: string, holder: LockInfo): void {
  const id = sessionIdOf(path);
  const sameHost = holder.hostname === osHostname();
  if (sameHost && !isProcessAlive(holder.pid)) return;
  const where = sameHost ? "" : ` on host ${holder.hostname}`;
  const fix = sameHost
    ? "wait for it to finish or stop it"
    : `wait for it to finish or stop it (if that process is gone, delete ${path})`;
  throw new SessionLockedError(id, path, holder, `session ${id} is in use by process ${holder.pid}${where} (since ${holder.startedAt}); ${fix}`);
}

/** The raw text of `path`, or undefined when it cannot be read. */
function readRaw(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Replaces a stale lock whose content was `staleText` by ours. Racing processes are serialised by
 * renaming the stale file away to a name of our own (only one rename of it can succeed); if what
 * we moved is not the stale lock (a live one was created meanwhile), it is put back. Then the
 * lock is created exclusively. Returns false when another process got there first.
 */
function takeOver(path: string, staleText: string | undefined, text: string): boolean {
  const grave = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(path, grave);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    return tryCreate(path, text); // already gone: someone released or moved it
  }
  if (readRaw(grave) !== staleText) {
    // We moved a fresh lock taken in between: restore it (unless yet another one exists) and give up.
    try {
      linkSync(grave, path);
    } catch {
      // EEXIST: a newer lock is in place already.
    }
    removeQuietly(grave);
    return false;
  }
  removeQuietly(grave);
  return tryCreate(path, text);
}
