/**
 * Single-writer lock files for sessions: only one run may write to a session at a time. A lock
 * file holds `{pid, hostname, startedAt, owner, token, procStart, heartbeatAt}`; a lock whose
 * process is gone, whose pid now belongs to another process (start time differs), or whose file is
 * unreadable garbage is stale and taken over (the takeover is recorded in the new lock); a live
 * one is refused naming who holds it since when. A lock from another host is refused unless the
 * caller explicitly asks to take it over.
 */
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname as osHostname } from "node:os";
import { basename, dirname } from "node:path";
import { isDifferentProcess, processCommandLine, processStartTime } from "./process-identity.js";

/** The content of a lock file. */
export interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
  owner?: string;
  /** Random per acquisition, so `release` only removes its own lock. */
  token?: string;
  /** Kernel start time of the holder (see process-identity), to detect a reused pid. */
  procStart?: string;
  /** The holder's command line, when its start time is unavailable. */
  command?: string;
  /** Last time the holder renewed the lock (see `SessionLock.renew`). */
  heartbeatAt?: string;
  /** The stale lock this one replaced, and why it was stale. */
  takeover?: { pid: number; hostname: string; startedAt: string; reason: string };
}

/** Options of `acquireLock`. */
export interface AcquireOptions {
  /** Take over a lock held on another host (its process cannot be checked from here). */
  takeOverOtherHost?: boolean;
  /** Take over a lock in the old format (no process identity) whose pid is alive but cannot be told apart from an unrelated process. */
  takeOverUnverified?: boolean;
}

/** A held lock. */
export interface SessionLock {
  path: string;
  /** Set when this lock replaced a stale one: whose it was and why it was stale. */
  readonly takenOver?: LockInfo["takeover"];
  /**
   * Checks the lock is still ours and writes a fresh heartbeat into it. A lock file that vanished
   * (deleted, or its directory removed) is taken again when nobody else took it meanwhile
   * (`restored` says so). `ok: false` (with who holds it now) when it was taken over or cannot be
   * restored; then the caller must stop writing the session.
   */
  renew(): { ok: true; restored?: true } | { ok: false; reason: string };
  /** Removes the lock file if it is still ours (no-op otherwise, and when called twice); `renew` does nothing afterwards. */
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
    ...(typeof info.procStart === "string" ? { procStart: info.procStart } : {}),
    ...(typeof info.command === "string" ? { command: info.command } : {}),
    ...(typeof info.heartbeatAt === "string" ? { heartbeatAt: info.heartbeatAt } : {}),
    ...(info.takeover && typeof info.takeover === "object" ? { takeover: info.takeover } : {}),
  };
}

/** "process 123 (owner) on host h, since T, last heartbeat H" — who holds a lock. */
export function describeHolder(holder: LockInfo, withHost = false): string {
  const owner = holder.owner ? ` (${holder.owner})` : "";
  const host = withHost ? ` on host ${holder.hostname}` : "";
  const beat = holder.heartbeatAt ? `, last heartbeat ${holder.heartbeatAt}` : "";
  return `process ${holder.pid}${owner}${host} since ${holder.startedAt}${beat}`;
}

/**
 * Takes the lock at `path` (e.g. `<session file>.lock`). Creates it atomically (exclusive
 * create); when it exists, a holder alive on this host makes it throw `SessionLockedError`
 * naming the holder and since when — this includes the calling process itself. A lock held on
 * another host is refused too (its pid cannot be checked) unless `opts.takeOverOtherHost`. A dead
 * holder, a reused pid or an unparsable lock file is replaced atomically and the takeover recorded
 * in the new lock. Other I/O errors are thrown.
 */
export function acquireLock(path: string, owner?: string, opts: AcquireOptions = {}): SessionLock {
  const now = new Date().toISOString();
  const mine: LockInfo = {
    pid: process.pid,
    hostname: osHostname(),
    startedAt: now,
    ...(owner !== undefined ? { owner } : {}),
    token: randomBytes(8).toString("hex"),
    ...identity(),
    heartbeatAt: now,
  };
  if (!tryCreate(path, `${JSON.stringify(mine)}\n`)) {
    const staleText = readRaw(path);
    const holder = readLock(path);
    const reason = holder ? staleReason(path, holder, opts) : "the lock file was unreadable";
    mine.takeover = { pid: holder?.pid ?? 0, hostname: holder?.hostname ?? "unknown", startedAt: holder?.startedAt ?? "an unknown time", reason };
    if (!takeOver(path, staleText, `${JSON.stringify(mine)}\n`)) {
      // Another process took the stale lock over at the same moment; it wins.
      const winner = readLock(path);
      if (winner) staleReason(path, winner, opts);
      throw new Error(`could not take over the stale lock ${path}; try again`);
    }
  }
  let released = false;
  return {
    path,
    takenOver: mine.takeover,
    renew() {
      if (released) return { ok: true }; // nothing to renew, and a released lock is never re-created
      let current = readLock(path);
      if (current === undefined && !existsSync(path)) {
        const restored = restore(path, mine);
        // Not re-creatable (e.g. a full disk) while nobody else holds it: go on; the next renewal tries again.
        if (restored !== "taken") return restored === "restored" ? { ok: true, restored: true } : { ok: true };
        current = readLock(path); // another process took it in between
      }
      if (current?.token !== mine.token) {
        const reason = current
          ? `its lock ${path} was taken over by ${describeHolder(current, current.hostname !== mine.hostname)}`
          : `its lock ${path} was removed`;
        return { ok: false, reason };
      }
      mine.heartbeatAt = new Date().toISOString();
      try {
        const tmp = writeTemp(path, `${JSON.stringify(mine)}\n`);
        renameSync(tmp, path);
      } catch {
        // A missed heartbeat is harmless: liveness is decided by the pid, not the clock.
      }
      return { ok: true };
    },
    release() {
      if (released) return;
      released = true;
      if (readLock(path)?.token === mine.token) removeQuietly(path);
    },
  };
}

/** This process's identity for a lock (start time, else command line). */
function identity(): Pick<LockInfo, "procStart" | "command"> {
  const procStart = processStartTime(process.pid);
  if (procStart !== undefined) return { procStart };
  const command = processCommandLine(process.pid);
  return command !== undefined ? { command } : {};
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

/**
 * Re-creates a vanished lock `path` holding `mine` (recreating its directory), exclusively, so a
 * process that took the session meanwhile keeps it: "taken" then, "failed" for an I/O error.
 */
function restore(path: string, mine: LockInfo): "restored" | "taken" | "failed" {
  try {
    mkdirSync(dirname(path), { recursive: true });
    mine.heartbeatAt = new Date().toISOString();
    return tryCreate(path, `${JSON.stringify(mine)}\n`) ? "restored" : "taken";
  } catch {
    return "failed";
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

/**
 * Why `holder`'s lock may be taken over (a dead process, a reused pid, an explicit takeover of
 * another host's lock); throws `SessionLockedError` when it may not.
 */
function staleReason(path: string, holder: LockInfo, opts: AcquireOptions): string {
  const id = sessionIdOf(path);
  if (holder.hostname === osHostname()) {
    if (!isProcessAlive(holder.pid)) return `process ${holder.pid} is gone`;
    if (isDifferentProcess(holder.pid, holder)) return `pid ${holder.pid} now belongs to another process (the holder crashed)`;
    if (holder.procStart === undefined && holder.command === undefined) {
      // An old-format lock: nothing tells whether the live pid is still that run or a reused pid.
      if (opts.takeOverUnverified) return `taken over on request (an old-format lock naming live process ${holder.pid}, which could not be checked)`;
      const now = processCommandLine(holder.pid);
      const running = now ? ` (pid ${holder.pid} now runs: ${now.length > 80 ? `${now.slice(0, 77)}...` : now})` : "";
      throw new SessionLockedError(
        id,
        path,
        holder,
        `session ${id} has a lock in an older format naming ${describeHolder(holder)}${running}; that pid is alive, but the lock does not say which process took it, so it may be an unrelated one. If no Ink run is using this session, take the lock over with --take-over-lock (e.g. ink --continue --take-over-lock)`,
      );
    }
    throw new SessionLockedError(id, path, holder, `session ${id} is in use by ${describeHolder(holder)}; wait for it to finish or stop it`);
  }
  if (opts.takeOverOtherHost) return `taken over from host ${holder.hostname} on request`;
  throw new SessionLockedError(
    id,
    path,
    holder,
    `session ${id} is in use by ${describeHolder(holder, true)}; this machine cannot check whether that process still runs. Let it finish there, or — only if that run is over — take the lock over with --take-over-lock`,
  );
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
