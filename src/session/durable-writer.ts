/**
 * A session writer that never loses what it was given and never throws for I/O: it keeps every
 * line (header + entries) in memory, checks after each append that the file holds what it wrote,
 * recreates a file that vanished (or was cut short) from memory, and when the location cannot be
 * written (full disk, read-only, removed directory) goes on in memory and retries later. Each
 * change of state is reported once through `onNotice`.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  /** Stops writing for good (e.g. the session's lock was taken over); entries stay in memory. */
  stop(reason: string): void;
  /** Tries to write everything from memory now; true when the file is complete again. */
  retry(): boolean;
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

/** A writer over `options.lines` (see the module comment). */
export function durableWriter(options: DurableWriterOptions): SessionWriter {
  const lines = [...options.lines];
  let bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
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

  /** Writes every line to the file (via a temp file and rename). */
  const writeAll = (): void => {
    ensureDir(dirname(options.path));
    const tmp = `${options.path}.${process.pid}.rewrite`;
    try {
      writeFileSync(tmp, lines.map((l) => `${l}\n`).join(""));
      renameSync(tmp, options.path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
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
      notify({ kind: "restored", message: `session file ${options.path} is saved again (${lines.length - 1} entries written from memory)` });
    }
    return true;
  };

  const sizeNow = (): number | undefined => {
    try {
      return statSync(options.path).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  };

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
      notify({ kind: "stopped", message: `stopped writing session file ${options.path}: ${reason}` });
    },
    retry,
    append(entry) {
      const line = JSON.stringify({ ...entry, at: entry.at ?? new Date().toISOString() });
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
      if (stopped) return;
      if (inMemory) {
        if (Date.now() - lastAttempt >= retryAfter) retry();
        return;
      }
      try {
        const before = sizeNow();
        if (before === undefined || before < bytes - Buffer.byteLength(line) - 1) {
          writeAll();
          notify({ kind: "recreated", message: `session file ${options.path} ${before === undefined ? "disappeared" : "was cut short"}; recreated it from memory (header + ${lines.length - 1} entries)` });
          return;
        }
        appendFileSync(options.path, `${line}\n`);
        const after = sizeNow();
        if (after === undefined || after < bytes) {
          writeAll();
          notify({ kind: "recreated", message: `session file ${options.path} lost lines while being written; recreated it from memory (header + ${lines.length - 1} entries)` });
        } else if (after > bytes) {
          bytes = after; // someone else appended too; the lock/lease decides who may go on
        }
      } catch (err) {
        lastAttempt = Date.now();
        goInMemory(describe(err));
      }
    },
  };
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, "")}` : String((err as Error)?.message ?? err);
}
