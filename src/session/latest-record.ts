/**
 * The files behind latest-session.ts, all under `<sessions>/.latest/` (a subdirectory, so writing
 * them never changes the sessions directory's own mtime):
 * - `claim.json`: `{v, dir, gen}` — "every session file created or deleted in the sessions dir up
 *   to the dir state `dir` (inode + mtime in ns) was made by a process that keeps the records";
 *   `gen` names the unbroken run of such claims. Replaced whole (temp file + rename).
 * - `<sha1(cwd)>.ndjson`: one cwd's record, O_APPEND lines (each written after a newline, so a
 *   torn line never spoils the next). The first line of a complete record is `{v, base: gen}`;
 *   then one line per session event: `open` (it may be written from now on: written BEFORE the
 *   session's file is created or appended to) or closed with the file's size and mtime then.
 *
 * Appends are verified: after writing, the inode written to must still be the one at the path,
 * else the line is written again (a rewrite renamed a new file over it meanwhile). Rewrites hold
 * `<record>.lock` and copy over whatever was appended to the old file after they read it, so
 * together no appended line is ever lost.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { isSafeSessionId } from "./ids.js";

export const LATEST_DIR = ".latest";
const VERSION = 1;

/** A claim about the sessions dir (see the module comment). */
export interface Claim {
  dir: string;
  gen: string;
}

/** One session event of a cwd record. */
export interface RecordEvent {
  id: string;
  open: boolean;
  /** The closed file's size and mtime (closed events only). */
  size?: number;
  mtimeMs?: number;
  createdAt?: string;
}

/** A cwd record as read: its base generation (undefined: incomplete) and events in file order. */
export interface CwdRecord {
  base?: string;
  events: RecordEvent[];
  /** True when a non-empty line could not be parsed (torn or foreign). */
  torn: boolean;
  /** Non-empty lines. */
  lines: number;
}

/** The `.latest` dir of sessions dir `dir`. */
export function latestDir(dir: string): string {
  return join(dir, LATEST_DIR);
}

/** The record file of `cwd` (already resolved). */
export function recordPath(dir: string, cwd: string): string {
  return join(latestDir(dir), `${createHash("sha1").update(cwd).digest("hex")}.ndjson`);
}

/** `<ino>:<mtimeNs>` of the sessions dir, or undefined when it cannot be stat'ed. */
export function dirState(dir: string): string | undefined {
  try {
    const s = statSync(dir, { bigint: true });
    return `${s.ino}:${s.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/** A new generation name. */
export function newGen(): string {
  return randomBytes(6).toString("hex");
}

/** The current claim, or undefined when missing or unreadable. */
export function readClaim(dir: string): Claim | undefined {
  try {
    const v = JSON.parse(readFileSync(join(latestDir(dir), "claim.json"), "utf8")) as Partial<Claim> & { v?: number };
    return v.v === VERSION && typeof v.dir === "string" && typeof v.gen === "string" ? { dir: v.dir, gen: v.gen } : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the claim (temp file + rename); false when it could not be written. */
export function writeClaim(dir: string, claim: Claim): boolean {
  const path = join(latestDir(dir), "claim.json");
  const tmp = `${path}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify({ v: VERSION, ...claim })}\n`);
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** Removes the claim, so nothing is trusted until a full listing claims again. Never throws. */
export function breakClaim(dir: string): void {
  try {
    rmSync(join(latestDir(dir), "claim.json"), { force: true });
  } catch {
    // nothing more can be done; a record that cannot be written cannot be trusted either
  }
}

/** Creates `.latest` when missing. Never throws (false on failure). */
export function ensureLatestDir(dir: string): boolean {
  try {
    mkdirSync(latestDir(dir), { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/** The line of `event` (without its newlines). */
export function eventLine(event: RecordEvent): string {
  return JSON.stringify({ v: VERSION, ...event });
}

/** The base line of generation `gen`. */
export function baseLine(gen: string): string {
  return JSON.stringify({ v: VERSION, base: gen });
}

/**
 * Appends `line` to `path` so that it survives concurrent rewrites (see the module comment);
 * false when it could not be written. `afterWrite` runs between the write and the check (tests).
 */
export function appendVerified(path: string, line: string, afterWrite?: () => void): boolean {
  for (let attempt = 0; attempt < 8; attempt++) {
    let fd: number | undefined;
    let ino: bigint;
    try {
      fd = openSync(path, "a");
      writeSync(fd, `\n${line}\n`);
      ino = fstatSync(fd, { bigint: true }).ino;
    } catch {
      return false;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    afterWrite?.();
    try {
      if (statSync(path, { bigint: true }).ino === ino) return true;
    } catch {
      // renamed away and not yet replaced: write again
    }
  }
  return false;
}

/** Parses record text. */
export function parseRecord(text: string): CwdRecord {
  const record: CwdRecord = { events: [], torn: false, lines: 0 };
  for (const line of text.split("\n")) {
    if (line === "") continue;
    record.lines++;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line) as Record<string, unknown>;
    } catch {
      record.torn = true;
      continue;
    }
    if (v === null || typeof v !== "object" || v.v !== VERSION) {
      record.torn = true;
    } else if (typeof v.base === "string") {
      if (record.lines === 1) record.base = v.base;
      else record.torn = true; // a base line anywhere else: not ours
    } else if (typeof v.id === "string" && isSafeSessionId(v.id) && typeof v.open === "boolean") {
      const e: RecordEvent = { id: v.id, open: v.open };
      if (typeof v.createdAt === "string") e.createdAt = v.createdAt;
      if (!v.open) {
        if (typeof v.size !== "number" || typeof v.mtimeMs !== "number") {
          record.torn = true;
          continue;
        }
        e.size = v.size;
        e.mtimeMs = v.mtimeMs;
      }
      record.events.push(e);
    } else {
      record.torn = true;
    }
  }
  return record;
}

/** Reads the record at `path` (undefined when missing or unreadable). */
export function readRecord(path: string): CwdRecord | undefined {
  try {
    return parseRecord(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Rewrites the record at `path`: `build(old)` gets the old record's content (empty when missing)
 * and returns the new lines (undefined: leave the file as it is). The old file's bytes appended after it was read are copied over.
 * The caller holds the record's rewrite lock. Returns false when nothing was written.
 */
export function rewriteRecord(path: string, build: (old: CwdRecord) => string[] | undefined): boolean {
  let fd: number | undefined;
  const tmp = `${path}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  try {
    try {
      fd = openSync(path, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") return false;
    }
    const all = fd === undefined ? Buffer.alloc(0) : readAll(fd, 0);
    // Only whole lines: a line still being written is read again below.
    const whole = all.lastIndexOf(0x0a) + 1;
    const lines = build(parseRecord(all.subarray(0, whole).toString("utf8")));
    if (lines === undefined) return false;
    writeFileSync(tmp, lines.map((l) => `${l}\n`).join(""));
    renameSync(tmp, path);
    if (fd === undefined) return true;
    const after = readAll(fd, whole).toString("utf8");
    for (const line of after.split("\n")) {
      if (line !== "" && !appendVerified(path, line)) return false;
    }
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The bytes of `fd` from byte `from` to its end. */
function readAll(fd: number, from: number): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(64 * 1024);
  let pos = from;
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    pos += n;
  }
  return Buffer.concat(chunks);
}
