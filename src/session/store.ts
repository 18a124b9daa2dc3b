/**
 * The session store: one append-only JSONL file per session under `<inkHome>/sessions/`
 * (header line first, then one entry per line). Each append is one synchronous write of one
 * complete line, so a crash loses at most the entry being written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEntryLine, parseHeaderLine } from "./entries.js";
import { endAtLineBoundary, findLastLine, readFirstLine } from "./file-lines.js";
import { assertSessionId, newSessionId } from "./ids.js";
import { loadSessionFile } from "./load.js";
import { acquireLock, type AcquireOptions, type SessionLock } from "./lock.js";
import { durableWriter, type PersistenceNotice, type SessionWriter } from "./durable-writer.js";
import {
  SESSION_FORMAT_VERSION,
  type LoadedSession,
  type NewSessionHeader,
  type SessionEntry,
  type SessionHeader,
  type SessionSummary,
} from "./types.js";

export type { SessionWriter, PersistenceNotice } from "./durable-writer.js";

/** Options of `create`/`open`. */
export interface WriterOptions {
  id?: string;
  /** Receives persistence warnings (file recreated, in-memory mode, saved again). */
  onNotice?: (notice: PersistenceNotice) => void;
}

/** Which sessions `list` returns (all given fields must match). */
export interface SessionFilter {
  /** Working directory (compared after `path.resolve`). */
  cwd?: string;
  parentId?: string;
  kind?: SessionHeader["kind"];
}

/** Thrown for a session id with no file. */
export class SessionNotFoundError extends Error {
  override readonly name = "SessionNotFoundError";
  constructor(
    readonly sessionId: string,
    readonly dir: string,
  ) {
    super(`unknown session "${sessionId}": there is no ${sessionId}.jsonl in ${dir}`);
  }
}

export class SessionStore {
  /** `<inkHome>/sessions`; created on the first `create`. */
  readonly dir: string;

  constructor(inkHome: string) {
    this.dir = join(resolve(inkHome), "sessions");
  }

  /** The file path of session `id` (whether or not it exists). Throws for an unsafe id. */
  path(id: string): string {
    assertSessionId(id);
    return join(this.dir, `${id}.jsonl`);
  }

  /**
   * Creates a new session file holding the header line (id = `opts.id` or a new id, createdAt =
   * now) and returns a writer for it. Throws when a session with that id already exists; when the
   * location cannot be written, the writer starts in memory (one notice) and retries later.
   */
  create(fields: NewSessionHeader, opts: WriterOptions = {}): SessionWriter {
    const id = opts.id ?? newSessionId();
    const path = this.path(id);
    const header: SessionHeader = {
      type: "header",
      version: SESSION_FORMAT_VERSION,
      id,
      ...fields,
      createdAt: new Date().toISOString(),
    };
    const line = JSON.stringify(header);
    let failure: string | undefined;
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch (err) {
      failure = errorText(err);
    }
    try {
      if (failure === undefined) writeFileSync(path, `${line}\n`, { flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") {
        throw new Error(`session "${id}" already exists (${path}); choose another id or open it instead`);
      }
      failure = errorText(err);
    }
    const writer = durableWriter({ id, path, lines: [line], persisted: failure === undefined, failure, onNotice: opts.onNotice });
    if (failure !== undefined) {
      opts.onNotice?.({ kind: "in-memory", message: `session file ${path} cannot be created (${failure}); the session goes on in memory and Ink will retry saving it` });
    }
    return writer;
  }

  /**
   * A writer appending to existing session `id`. Validates the header; a torn last line left by
   * a crash is cut off first so new lines start cleanly. Throws `SessionNotFoundError` when absent.
   */
  open(id: string, opts: Omit<WriterOptions, "id"> = {}): SessionWriter {
    const path = this.existingPath(id);
    readHeaderAt(path);
    endAtLineBoundary(path);
    const lines = readFileSync(path, "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    return durableWriter({ id, path, lines, persisted: true, onNotice: opts.onNotice });
  }

  /** The header of session `id`; throws when absent or invalid (naming the path). */
  readHeader(id: string): SessionHeader {
    return readHeaderAt(this.existingPath(id));
  }

  /** Reads session `id` back, repaired (see `loadSessionFile`). */
  load(id: string): LoadedSession {
    return loadSessionFile(this.existingPath(id));
  }

  /**
   * Takes the single-writer lock of session `id` (`<file>.lock`); throws `SessionLockedError`
   * when a live process holds it and `SessionNotFoundError` when the session does not exist.
   */
  lock(id: string, owner?: string, opts: AcquireOptions = {}): SessionLock {
    return acquireLock(`${this.existingPath(id)}.lock`, owner, opts);
  }

  /**
   * Sessions matching `filter`, most recently active first (file mtime; ties by createdAt, then
   * id). `status` is the last status entry within the file's last ~4 MB. Files whose header
   * cannot be read are left out. An absent sessions dir gives `[]`.
   */
  list(filter: SessionFilter = {}): SessionSummary[] {
    if (!existsSync(this.dir)) return [];
    const cwd = filter.cwd === undefined ? undefined : resolve(filter.cwd);
    const out: SessionSummary[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(".jsonl")) continue;
      const path = join(this.dir, name);
      let header: SessionHeader;
      let stat: ReturnType<typeof statSync>;
      try {
        header = readHeaderAt(path);
        stat = statSync(path);
      } catch {
        continue;
      }
      if (cwd !== undefined && resolve(header.cwd) !== cwd) continue;
      if (filter.parentId !== undefined && header.parentId !== filter.parentId) continue;
      if (filter.kind !== undefined && header.kind !== filter.kind) continue;
      const status = lastStatus(path);
      out.push({
        ...header,
        path,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        ...(status ? { status: status.status } : {}),
        ...(status?.reason !== undefined ? { statusReason: status.reason } : {}),
      });
    }
    return out.sort(
      (a, b) => b.mtimeMs - a.mtimeMs || compare(b.createdAt, a.createdAt) || compare(b.id, a.id),
    );
  }

  /** The path of session `id`, which must exist. */
  private existingPath(id: string): string {
    const path = this.path(id);
    if (!existsSync(path)) throw new SessionNotFoundError(id, this.dir);
    return path;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function readHeaderAt(path: string): SessionHeader {
  let line: string;
  try {
    line = readFirstLine(path);
  } catch (err) {
    throw new Error(`cannot read session file ${path}: ${(err as Error).message}`);
  }
  if (line.trim() === "") {
    throw new Error(`invalid session file ${path}: it is empty (the first line must be the session header)`);
  }
  return parseHeaderLine(line, path);
}

/** How far back from the end `list` looks for the last status entry. */
const STATUS_SCAN_BYTES = 4 * 1024 * 1024;

/** The last `status` entry of a session file, scanning back from the end (at most ~4 MB). */
function lastStatus(path: string): Extract<SessionEntry, { type: "status" }> | undefined {
  return findLastLine(path, (line) => {
    if (!line.includes('"status"')) return undefined;
    const parsed = parseEntryLine(line);
    return "entry" in parsed && parsed.entry.type === "status" ? parsed.entry : undefined;
  }, STATUS_SCAN_BYTES);
}

function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, "")}` : String((err as Error)?.message ?? err);
}
