/**
 * The session store: one append-only JSONL file per session under `<inkHome>/sessions/`
 * (header line first, then one entry per line). Each append is one synchronous write of one
 * complete line, so a crash loses at most the entry being written.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { endAtLineBoundary } from "./file-lines.js";
import { assertSessionId, newSessionId } from "./ids.js";
import { loadSessionFile } from "./load.js";
import { acquireLock, type AcquireOptions, type SessionLock } from "./lock.js";
import { durableWriter, ensureDir, type PersistenceNotice, type SessionWriter } from "./durable-writer.js";
import { LatestSessions } from "./latest-session.js";
import { SessionIndex } from "./session-index.js";
import { readHeaderAt } from "./summary.js";
import { SESSION_FORMAT_VERSION, type LoadedSession, type NewSessionHeader, type SessionHeader, type SessionSummary } from "./types.js";

export type { SessionWriter, PersistenceNotice } from "./durable-writer.js";

/** Options of `create`/`open`. */
export interface WriterOptions {
  id?: string;
  /** Receives persistence warnings (file recreated, in-memory mode, saved again). */
  onNotice?: (notice: PersistenceNotice) => void;
}

/** Options of the store itself. */
export interface SessionStoreOptions {
  /** Where new session ids come from (default `newSessionId`); tests inject one. */
  newId?: () => string;
}

/** How many generated ids `create` draws before it gives up (each names an existing session). */
const MAX_ID_DRAWS = 16;

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
  /** The listing cache (see session-index.ts): updated on create, open and lock release. */
  readonly index: SessionIndex;
  /** The per-cwd records behind `latestMain` (see latest-session.ts): updated on create, open, append after a release and release. */
  readonly latest: LatestSessions;
  /** Sessions this store marked closed in the index; an append to one marks it open again. */
  private readonly closed = new Set<string>();
  /** Headers of the sessions this store created or opened (what the latest records need). */
  private readonly headers = new Map<string, Pick<SessionHeader, "kind" | "cwd" | "createdAt">>();

  /** The id source of `create` when no id is given. */
  private readonly newId: () => string;

  constructor(inkHome: string, opts: SessionStoreOptions = {}) {
    this.newId = opts.newId ?? (() => newSessionId());
    this.dir = join(resolve(inkHome), "sessions");
    this.index = new SessionIndex(this.dir);
    this.latest = new LatestSessions(this.dir, (cwd) => ({ sessions: this.list({ cwd, kind: "main" }), open: this.index.lastOpen }));
    this.index.dirChange = (fn) => this.latest.dirOp(fn);
  }

  /** The file path of session `id` (whether or not it exists). Throws for an unsafe id. */
  path(id: string): string {
    assertSessionId(id);
    return join(this.dir, `${id}.jsonl`);
  }

  /**
   * Creates a new session file holding the header line (id = `opts.id` or a new id, createdAt =
   * now) and returns a writer for it. Throws when the given `opts.id` already names a session; a
   * generated id that does is drawn again, so an existing session is never written into. When the
   * location cannot be written, the writer starts in memory (one notice) and retries later.
   */
  create(fields: NewSessionHeader, opts: WriterOptions = {}): SessionWriter {
    let failure: string | undefined;
    try {
      ensureDir(this.dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      failure = code === "EEXIST" || code === "ENOTDIR" ? `${code}: ${this.dir} (or a parent) is a file, not a directory` : errorText(err);
    }
    for (let draw = 1; ; draw++) {
      const id = opts.id ?? this.newId();
      const path = this.path(id);
      const taken = () => {
        if (opts.id !== undefined) throw new Error(`session "${id}" already exists (${path}); choose another id or open it instead`);
        if (draw >= MAX_ID_DRAWS) throw new Error(`cannot find a free session id in ${this.dir}: ${MAX_ID_DRAWS} generated ids each named an existing session`);
      };
      if (failure === undefined && existsSync(path)) {
        taken(); // checked before anything names this id, so the existing session's records stay as they are
        continue;
      }
      const header: SessionHeader = {
        type: "header",
        version: SESSION_FORMAT_VERSION,
        id,
        ...fields,
        createdAt: new Date().toISOString(),
      };
      const line = JSON.stringify(header);
      if (failure === undefined) this.latest.opening(id, header); // before the file exists
      try {
        if (failure === undefined) this.latest.dirOp(() => writeFileSync(path, `${line}\n`, { flag: "wx" }));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST") {
          taken(); // created by someone else since the check: "wx" left it untouched
          continue;
        }
        failure = errorText(err);
      }
      this.remember(header);
      const writer = durableWriter({ id, path, lines: [line], persisted: failure === undefined, failure, onNotice: opts.onNotice });
      this.watchAppends(writer);
      if (failure === undefined) this.index.record(id, true);
      if (failure !== undefined) {
        opts.onNotice?.({ kind: "in-memory", message: `session file ${path} cannot be created (${failure}); the session goes on in memory and Ink will retry saving it` });
      }
      return writer;
    }
  }

  /**
   * A writer appending to existing session `id`. Validates the header; a torn last line left by
   * a crash is cut off first so new lines start cleanly. Throws `SessionNotFoundError` when absent.
   * When the file can be read but not written (read-only or full location), the writer starts in
   * memory (one notice) and retries later, as `create` does.
   */
  open(id: string, opts: Omit<WriterOptions, "id"> = {}): SessionWriter {
    const path = this.existingPath(id);
    const header = readHeaderAt(path);
    this.remember(header);
    this.latest.opening(id, header); // before anything is written
    let failure: string | undefined;
    try {
      endAtLineBoundary(path);
    } catch (err) {
      failure = errorText(err);
    }
    const text = readFileSync(path, "utf8");
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    else if (failure !== undefined && !isJsonLine(lines.at(-1)!)) lines.pop(); // the torn tail the file still has
    this.index.record(id, true);
    this.closed.delete(id);
    const writer = durableWriter({ id, path, lines, persisted: failure === undefined, failure, onNotice: opts.onNotice });
    if (failure !== undefined) {
      opts.onNotice?.({ kind: "in-memory", message: `session file ${path} cannot be written (${failure}); the session goes on in memory and Ink will retry saving it` });
    }
    return this.watchAppends(writer);
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
    const path = this.existingPath(id);
    const lock = this.latest.dirOp(() => acquireLock(`${path}.lock`, owner, opts));
    const release = lock.release.bind(lock);
    const renew = lock.renew.bind(lock);
    lock.renew = () => this.latest.dirOp(renew); // the heartbeat replaces the lock file
    lock.release = () => {
      this.latest.dirOp(release);
      if (this.closed.has(id)) return;
      this.closed.add(id);
      this.index.record(id, false); // done writing: listings may trust this line
      const header = this.knownHeader(id);
      if (header) this.latest.closed(id, header);
    };
    return lock;
  }

  /**
   * Sessions matching `filter`, most recently active first (file mtime; ties by createdAt, then
   * id). `status` is the last status entry within the file's last ~4 MB. Files whose header
   * cannot be read are left out. An absent sessions dir gives `[]`.
   */
  list(filter: SessionFilter = {}): SessionSummary[] {
    const cwd = filter.cwd === undefined ? undefined : resolve(filter.cwd);
    const resolved = new Map<string, string>(); // few distinct directories: resolve each once
    const sameCwd = (c: string) => {
      let r = resolved.get(c);
      if (r === undefined) resolved.set(c, (r = resolve(c)));
      return r === cwd;
    };
    const out = this.index.summaries(
      (s) =>
        (filter.kind === undefined || s.kind === filter.kind) &&
        (filter.parentId === undefined || s.parentId === filter.parentId) &&
        (cwd === undefined || sameCwd(s.cwd)),
    );
    return out.sort(
      (a, b) => b.mtimeMs - a.mtimeMs || compare(b.createdAt, a.createdAt) || compare(b.id, a.id),
    );
  }

  /**
   * The id of the most recently active main session of `cwd` (`list({cwd, kind: "main"})[0]`),
   * from the cwd's latest-session record when it can be trusted (see latest-session.ts).
   */
  latestMain(cwd: string): string | undefined {
    return this.latest.find(resolve(cwd));
  }

  /** Makes an append to a session marked closed in the index mark it open again; returns `writer`. */
  private watchAppends(writer: SessionWriter): SessionWriter {
    const append = writer.append.bind(writer);
    writer.append = (entry) => {
      if (this.closed.has(writer.id)) {
        const header = this.knownHeader(writer.id);
        if (header) this.latest.opening(writer.id, header); // before the append
      }
      append(entry);
      if (this.closed.delete(writer.id)) this.index.record(writer.id, true);
    };
    return writer;
  }

  /** The header of session `id` as this store saw it, else read from its file (undefined when unreadable). */
  private knownHeader(id: string): Pick<SessionHeader, "kind" | "cwd" | "createdAt"> | undefined {
    let header = this.headers.get(id);
    if (!header) {
      try {
        header = this.remember(readHeaderAt(this.path(id)));
      } catch {
        return undefined;
      }
    }
    return header;
  }

  /** Keeps what the latest records need of `header`; returns it. */
  private remember(header: SessionHeader): Pick<SessionHeader, "kind" | "cwd" | "createdAt"> {
    const kept = { kind: header.kind, cwd: header.cwd, createdAt: header.createdAt };
    this.headers.set(header.id, kept);
    return kept;
  }

  /** The path of session `id`, which must exist. */
  private existingPath(id: string): string {
    const path = this.path(id);
    if (!existsSync(path)) throw new SessionNotFoundError(id, this.dir);
    return path;
  }
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, "")}` : String((err as Error)?.message ?? err);
}
