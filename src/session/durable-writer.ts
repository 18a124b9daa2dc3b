/**
 * A session writer that never loses what it was given and never throws for I/O: it checks after
 * each append that the file holds what it wrote, recreates a file that vanished or was replaced
 * from the file it holds open (so it does not keep what it wrote in memory: a long session's
 * lines would be held a second time), and when the location cannot be written (full disk,
 * read-only, removed directory) goes on in memory and retries later. A file cut short in place
 * (truncated by someone else) is recreated with what it still holds and the lines after. Each
 * change of state is reported once through `onNotice`. */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionEntryInput } from "./types.js";

/** What a writer tells its owner (shown to the person: a warning line, stderr in print mode). */
export interface PersistenceNotice {
  kind: "recreated" | "in-memory" | "restored" | "stopped";
  message: string;
}

/** Appends entries to one session file. */
export interface SessionWriter {
  readonly id: string;
  readonly path: string;
  /** Appends `entry` as one JSON line (`at` defaults to now). Never throws for I/O problems. */
  append(entry: SessionEntryInput): void;
  /** True while entries are kept in memory only (the file could not be written). */
  readonly inMemory: boolean;
  /** The first reason persistence failed, if it ever did (the file may lack entries). */
  readonly failure?: string;
  /** Stops writing for good (e.g. the session's lock was taken over); later entries are dropped. */
  stop(reason: string): void;
  /** Tries to write everything from memory now; true when the file is complete again. */
  retry(): boolean;
  /** Lets go of the file it holds open (done appending for now); a later append holds it again. */
  close(): void;
}

export interface DurableWriterOptions {
  id: string;
  path: string;
  /** The lines already in the file (header first), without newlines. */
  lines: string[];
  /** False when the first write already failed (`failure` says why). */
  persisted: boolean;
  failure?: string;
  /** Receives each state change once. Must not throw. */
  onNotice?: (notice: PersistenceNotice) => void;
  /** Minimum ms between automatic retries while in memory (default 5000). */
  retryAfterMs?: number;
}

/**
 * Creates directory `dir` and its parents. Throws the precise reason when it cannot: Node reports
 * ENOENT for a recursive mkdir on a read-only file system, so that case is retried without
 * `recursive` to get EROFS (or the real ENOENT when a parent is missing).
 */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    mkdirSync(dirname(dir), { recursive: true });
    mkdirSync(dir);
  }
}

/**
 * A writer over `options.lines` (see the module comment). What the file holds is not kept in
 * memory: after each write it checked, the writer holds the file open (read-only), and recreates a
 * removed or replaced file from the file it holds (its data stay while it is open). Only lines not
 * in a file yet (the location cannot be written) are kept in memory.
 */
export function durableWriter(options: DurableWriterOptions): SessionWriter {
  /** Lines not in the held file (all of them until a write succeeds). */
  let pending: string[] = options.persisted ? [] : [...options.lines];
  /** This session's bytes at the start of the held file (what the file at the path must hold). */
  let bytes = options.persisted ? options.lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0) : 0;
  /** The session's lines (header included), in the held file and pending. */
  let count = options.lines.length;
  let held: number | undefined;
  const token = {};
  let inMemory = !options.persisted;
  let failure = options.failure;
  let stopped: string | undefined;
  let lastAttempt = Date.now();
  const retryAfter = options.retryAfterMs ?? 5_000;
  const notify = (notice: PersistenceNotice) => {
    try {
      options.onNotice?.(notice);
    } catch {
      // a notice must never break the run
    }
  };
  const goInMemory = (why: string) => {
    if (inMemory) return;
    inMemory = true;
    failure ??= why;
    notify({ kind: "in-memory", message: `session file ${options.path} cannot be written (${why}); the session goes on in memory and Ink will retry saving it` });
  };
  const release = () => {
    if (held === undefined) return;
    unheld.unregister(token);
    closeQuietly(held);
    held = undefined;
  };
  /** Holds the file at the path; throws when it has fewer bytes than this session wrote to it. */
  const hold = (): void => {
    release();
    held = openSync(options.path, "r");
    unheld.register(token, held, token);
    if (fstatSync(held).size < bytes) throw new Error(`${options.path} is shorter than what was written to it`);
  };

  /**
   * Writes the session (this session's bytes of the held file, then the pending lines) to the path
   * via a temp file and rename, and holds the new file. Returns how many lines were lost: those of
   * a held file cut short in place (what it still holds is kept, up to its last whole line).
   */
  const writeAll = (): number => {
    ensureDir(dirname(options.path));
    let kept = Buffer.alloc(0);
    if (held !== undefined && bytes > 0) {
      kept = Buffer.alloc(Math.min(bytes, fstatSync(held).size));
      for (let n = 0, got = -1; got !== 0 && n < kept.length; n += got) got = readSync(held, kept, n, kept.length - n, n);
      if (kept.length < bytes) kept = kept.subarray(0, kept.lastIndexOf(0x0a) + 1);
    }
    const text = Buffer.concat([kept, Buffer.from(pending.map((l) => `${l}\n`).join(""))]);
    const tmp = `${options.path}.${process.pid}.rewrite`;
    try {
      writeFileSync(tmp, text);
      renameSync(tmp, options.path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    const before = count;
    if (kept.length < bytes) count = lineCount(kept) + pending.length;
    bytes = text.length;
    pending = [];
    hold();
    return before - count;
  };

  const retry = (): boolean => {
    if (stopped) return false;
    lastAttempt = Date.now();
    try {
      writeAll();
    } catch {
      return false;
    }
    if (inMemory) {
      inMemory = false;
      notify({ kind: "restored", message: `session file ${options.path} is saved again (${count - 1} entries written from memory)` });
    }
    return true;
  };

  /** What is at the path now: absent, another file than the held one, or the held file's size. */
  const fileNow = (): "absent" | "replaced" | number => {
    let now;
    try {
      now = statSync(options.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return "absent";
      throw err;
    }
    const mine = fstatSync(held!);
    return now.ino === mine.ino && now.dev === mine.dev ? now.size : "replaced";
  };
  const recreate = (what: string) => {
    const lost = writeAll();
    notify({ kind: "recreated", message: `session file ${options.path} ${what}; recreated it from the file Ink held open (header + ${count - 1} entries)${lost > 0 ? `; ${lost} lines cut from it could not be brought back` : ""}` });
  };

  if (options.persisted) {
    try {
      hold();
    } catch (err) {
      release(); // written but not held: kept in memory until a write succeeds
      pending = [...options.lines];
      bytes = 0;
      goInMemory(describe(err));
    }
  }

  return {
    id: options.id,
    path: options.path,
    get inMemory() {
      return inMemory || stopped !== undefined;
    },
    get failure() {
      return failure ?? stopped;
    },
    stop(reason) {
      if (stopped) return;
      stopped = reason;
      failure ??= reason;
      release();
      pending = [];
      notify({ kind: "stopped", message: `stopped writing session file ${options.path}: ${reason}` });
    },
    retry,
    close() {
      if (!inMemory) release(); // in memory the held file is part of what a retry writes
    },
    append(entry) {
      if (stopped) return;
      const line = JSON.stringify({ ...entry, at: entry.at ?? new Date().toISOString() });
      count++;
      if (inMemory) {
        pending.push(line);
        if (Date.now() - lastAttempt >= retryAfter) retry();
        return;
      }
      let written = false;
      try {
        if (held === undefined) hold(); // after close()
        const before = fileNow();
        if (typeof before !== "number" || before < bytes) {
          pending.push(line);
          written = true;
          recreate(before === "absent" ? "disappeared" : before === "replaced" ? "was replaced" : "was cut short");
          return;
        }
        appendFileSync(options.path, `${line}\n`);
        const after = fileNow();
        if (typeof after !== "number" || after < bytes + Buffer.byteLength(line) + 1) {
          pending.push(line); // written from memory after what the held file still has of this session
          written = true;
          recreate("lost lines while being written");
        } else {
          written = true;
          bytes = after; // with what someone else appended too; the lock/lease decides who may go on
        }
      } catch (err) {
        if (!written) pending.push(line);
        lastAttempt = Date.now();
        goInMemory(describe(err));
      }
    },
  };
}

/** Closes the held files of writers dropped without `close()`. */
const unheld = new FinalizationRegistry<number>(closeQuietly);

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function lineCount(data: Buffer): number {
  let n = 0;
  for (let i = data.indexOf(0x0a); i >= 0; i = data.indexOf(0x0a, i + 1)) n++;
  return n;
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, "")}` : String((err as Error)?.message ?? err);
}
