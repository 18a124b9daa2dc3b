/**
 * The session index: `<sessions>/.index.ndjson`, one JSON line per update of a session's listing
 * facts (its summary), the last line of an id winning. Listing reads this file and the directory's
 * names instead of every session file, so it costs about the same with 10 or 10,000 sessions.
 *
 * The index is a cache, never the record: every answer is reconciled with the directory.
 * - A file with no (valid) line is read and added; a line whose file is gone is dropped.
 * - A session marked `open` (created or reopened, not yet released) may still be written, so its
 *   size and mtime are checked and its status re-read when they changed.
 * - A torn or garbage line is skipped (each line is written after a newline, so a torn one never
 *   spoils the next); the file is rewritten clean (temp file + rename) when anything was repaired
 *   or it holds many superseded lines.
 * Updates append one line (O_APPEND), so processes writing at once do not lose each other's lines;
 * a line lost anyway (to a rewrite racing an append) costs a re-read, and the re-read marks the
 * session open when its lock file exists. Limit: a lost "open again" line of a resumed session
 * leaves its older closed line in force until the next update. Index I/O errors never reach the
 * caller: listing then reads the files.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { isSafeSessionId } from "./ids.js";
import { lastStatus, readSummary, SUMMARY_PROMPT_CHARS, titleOf } from "./summary.js";
import { SESSION_FORMAT_VERSION, type SessionSummary } from "./types.js";

/** The index file's name in the sessions dir (not `*.jsonl`, so it is never taken for a session). */
export const INDEX_FILE = ".index.ndjson";
const INDEX_VERSION = 1;

/** A summary as stored: without `path` (it follows from the id) and the fields every header has the same. */
type Stored = Omit<SessionSummary, "path" | "type" | "version" | "id">;

interface IndexLine {
  v: typeof INDEX_VERSION;
  id: string;
  /** True while the session may still be written (created or reopened and not released). */
  open: boolean;
  s: Stored;
}

/** What `summaries` found, for tests and benchmarks. */
export interface IndexStats {
  /** Session files read because the index had nothing valid for them. */
  read: number;
  /** Open sessions whose size or mtime had changed (status re-read). */
  refreshed: number;
  /** Index lines dropped: torn, invalid, superseded or naming a deleted file. */
  dropped: number;
  /** True when the index file was rewritten. */
  rewritten: boolean;
}

/** The index of the sessions directory `dir`. */
export class SessionIndex {
  readonly path: string;
  /** Filled by each `summaries` call. */
  lastStats: IndexStats = { read: 0, refreshed: 0, dropped: 0, rewritten: false };
  /** The sessions the last `summaries` returned that are marked open (may still be written). */
  lastOpen = new Set<string>();
  /** Wraps every write that may create or replace a dir entry (the store passes `LatestSessions.dirOp`). */
  dirChange: <T>(fn: () => T) => T = (fn) => fn();

  constructor(readonly dir: string) {
    this.path = join(dir, INDEX_FILE);
  }

  /** Records session `id`'s current listing facts (`open`: it may still be written). Never throws. */
  record(id: string, open: boolean): void {
    const summary = readSummary(join(this.dir, `${id}.jsonl`));
    if (!summary) return;
    try {
      this.dirChange(() => appendFileSync(this.path, `\n${JSON.stringify(toLine(summary, open))}\n`));
    } catch {
      // the index is a cache: the next listing reads the file instead
    }
  }

  /**
   * Every readable session of the directory that `match` accepts (all without it), reconciled with
   * the index as described above, in no particular order. An absent directory gives `[]`.
   */
  summaries(match?: (summary: Pick<SessionSummary, "kind" | "cwd" | "parentId">) => boolean): SessionSummary[] {
    const stats: IndexStats = { read: 0, refreshed: 0, dropped: 0, rewritten: false };
    this.lastStats = stats;
    const open = new Set<string>();
    this.lastOpen = open;
    if (!existsSync(this.dir)) return [];
    const names = readdirSync(this.dir);
    const { entries, lines } = this.readLines();
    const out: SessionSummary[] = [];
    const kept: IndexLine[] = [];
    let changed = false;
    const prefix = `${this.dir}${sep}`;
    for (const name of names) {
      if (!name.endsWith(".jsonl")) continue;
      const id = name.slice(0, -6);
      const path = prefix + name;
      let entry = entries.get(id);
      if (entry?.open) {
        const fresh = refreshed(entry, path);
        if (fresh === undefined) entry = undefined;
        else if (fresh !== entry) {
          entry = fresh; // not worth a rewrite: the next listing checks open sessions anyway
          stats.refreshed++;
        }
      }
      if (!entry) {
        const summary = readSummary(path);
        if (!summary) continue; // unreadable header: left out, as listings always did
        stats.read++;
        changed = true;
        // Its index line was lost (a concurrent rewrite read the index or the dir just before this
        // session's line or file appeared) or never written: a lock file says it may still be written.
        entry = toLine(summary, existsSync(`${path}.lock`));
      }
      entries.delete(id);
      kept.push(entry);
      if (!match || match(entry.s)) {
        out.push({ type: "header", version: SESSION_FORMAT_VERSION, id, ...entry.s, path });
        if (entry.open) open.add(id);
      }
    }
    stats.dropped = lines - (kept.length - stats.read);
    if (entries.size > 0 || changed || stats.dropped > kept.length + 50) {
      stats.rewritten = this.rewrite(kept);
    }
    return out;
  }

  /** The valid lines of the index file, last per id, and how many non-empty lines it had. */
  private readLines(): { entries: Map<string, IndexLine>; lines: number } {
    const entries = new Map<string, IndexLine>();
    let text = "";
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return { entries, lines: 0 };
    }
    let lines = 0;
    for (const line of text.split("\n")) {
      if (line === "") continue;
      lines++;
      const parsed = parseLine(line);
      if (parsed) entries.set(parsed.id, parsed);
    }
    return { entries, lines };
  }

  /** Replaces the index with `lines` (temp file + rename); false when it could not be written. */
  private rewrite(lines: IndexLine[]): boolean {
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      this.dirChange(() => {
        writeFileSync(tmp, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
        renameSync(tmp, this.path);
      });
      return true;
    } catch {
      rmSync(tmp, { force: true });
      return false;
    }
  }
}

function toLine(summary: SessionSummary, open: boolean): IndexLine {
  const { path: _path, type: _type, version: _version, id: _id, ...s } = summary;
  return { v: INDEX_VERSION, id: summary.id, open, s };
}

/** `entry` when its file is unchanged, an updated copy (new size, mtime, status) when it changed, undefined when gone. */
function refreshed(entry: IndexLine, path: string): IndexLine | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  if (stat.size === entry.s.size && stat.mtimeMs === entry.s.mtimeMs) return entry;
  let status: ReturnType<typeof lastStatus>;
  let title: string | undefined;
  try {
    status = lastStatus(path);
    // A main session created without a prompt (by a run of the person's) is named by its first question once asked.
    if (entry.s.prompt === undefined && entry.s.kind === "main") title = titleOf(path);
  } catch {
    return undefined;
  }
  const { status: _s, statusReason: _r, ...rest } = entry.s;
  return {
    ...entry,
    s: {
      ...rest,
      ...(title !== undefined ? { prompt: title.slice(0, SUMMARY_PROMPT_CHARS) } : {}),
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ...(status ? { status: status.status } : {}),
      ...(status?.reason !== undefined ? { statusReason: status.reason } : {}),
    },
  };
}

/** A valid index line, or undefined for a torn, foreign or malformed one. */
function parseLine(line: string): IndexLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const l = value as Partial<IndexLine>;
  const s = l.s as Partial<Stored> | undefined;
  if (l.v !== INDEX_VERSION || typeof l.id !== "string" || !isSafeSessionId(l.id) || typeof l.open !== "boolean") return undefined;
  if (typeof s !== "object" || s === null) return undefined;
  if (typeof s.size !== "number" || typeof s.mtimeMs !== "number" || typeof s.cwd !== "string" || typeof s.createdAt !== "string") return undefined;
  if (s.kind !== "main" && s.kind !== "child") return undefined;
  return l as IndexLine;
}
