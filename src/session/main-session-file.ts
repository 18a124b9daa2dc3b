/**
 * MainSessionFile: the file of one main conversation — created on the first prompt (or reopened
 * when resuming), its single-writer lock and the lease that renews it, and every entry appended
 * as it happens. Persistence never breaks the run: a failed write is reported once and the
 * conversation goes on in memory (tried again later and at close); a lock taken over by another
 * process stops writing and aborts `leaseLost`, so the run stops too.
 */
import { resolve } from "node:path";
import type { AgentEvent } from "../protocol/events.js";
import type { AgentMessage } from "../protocol/messages.js";
import { errorMessage } from "../protocol/error-message.js";
import type { PersistenceNotice } from "./durable-writer.js";
import type { SessionLock } from "./lock.js";
import { startLease, type Lease } from "./lock-lease.js";
import type { SessionStore, SessionWriter } from "./store.js";
import type { LoadedSession, NewSessionHeader, SessionEntryInput, SessionHeader, TaskRecord } from "./types.js";

export interface MainSessionFileOptions {
  store: SessionStore;
  sessionId: string;
  /** The file exists already (a resumed session): it is reopened, not created. */
  resume: boolean;
  /** `--take-over-lock`: take over a resumed session's lock held on another host, or an old-format lock that cannot be checked. */
  takeOverLock?: boolean;
  /** How often the lock is renewed (ms; default 10 s). */
  leaseIntervalMs?: number;
  /** The header of a new file, asked for when the first prompt creates it. */
  header: (prompt: string | undefined) => NewSessionHeader;
}

/** A resumed session's repaired contents. */
export interface LoadedMain {
  messages: AgentMessage[];
  records: TaskRecord[];
  /** What the repair did, and a missing lock, as notes for the person. */
  notes: string[];
  header: SessionHeader;
  view: LoadedSession["view"];
  settings: LoadedSession["settings"];
  pendingShell: LoadedSession["pendingShell"];
  pendingBackground: LoadedSession["pendingBackground"];
  spend: LoadedSession["spend"];
}

/** The main session's file, lock and lease. */
export class MainSessionFile {
  /** Aborted when the lock is taken over: the run stops (see startLease). */
  readonly leaseLost = new AbortController();
  private writer?: SessionWriter;
  private lock?: SessionLock;
  private lease?: Lease;
  private writeFailed = false;
  private closed = false;
  /** Entries recorded with `recordLater` before a new session's file existed. */
  private waiting: SessionEntryInput[] = [];
  /** Closed interrupted calls found when resuming, written once the file is open. */
  private pendingRepairs: AgentMessage[] = [];
  /** True once the file names the session by the person's first question (its header's prompt, or a `title` entry). */
  private titled = false;
  /** Where persistence and lock warnings go (the latest run's event sink). */
  private warnTo: (e: AgentEvent) => void = () => undefined;

  constructor(private readonly options: MainSessionFileOptions) {}

  private get id(): string {
    return this.options.sessionId;
  }

  /**
   * Locks and loads a main session to resume in `cwd`. Throws when it is a child session or was
   * started elsewhere (naming the command to use); a location that cannot be written goes on
   * without a lock, said in the notes.
   */
  load(cwd: string): LoadedMain {
    const { store } = this.options;
    const header = store.readHeader(this.id);
    if (header.kind !== "main") throw new Error(`session ${this.id} is a child session; resume it with task({resume: "${this.id}"}) or from the sidebar`);
    if (resolve(header.cwd) !== cwd) throw new Error(`session ${this.id} was started in ${header.cwd}; run ink --cwd ${header.cwd} --resume ${this.id}`);
    // Lock before reading, so no other process appends between this read and our writes.
    let lockNote: string | undefined;
    try {
      this.lock = store.lock(this.id, "main session", { takeOverOtherHost: this.options.takeOverLock, takeOverUnverified: this.options.takeOverLock });
    } catch (err) {
      // A location that cannot be written (read-only, full) never blocks the work: go on without a lock.
      if (typeof (err as NodeJS.ErrnoException).code !== "string") throw err;
      lockNote = `session ${this.id} runs without a lock: ${errorMessage(err)}`;
    }
    const loaded = store.load(this.id);
    this.titled = header.prompt !== undefined || loaded.title !== undefined;
    this.pendingRepairs = loaded.toPersist;
    const { messages, records, view, settings, pendingShell, pendingBackground, spend } = loaded;
    return { messages, records, notes: lockNote ? [...loaded.notes, lockNote] : loaded.notes, header, view, settings, pendingShell, pendingBackground, spend };
  }

  /** Path of the file once the first prompt created it; a resumed session's file from the start (it exists already). */
  get path(): string | undefined {
    return this.writer?.path ?? (this.options.resume ? this.options.store.path(this.id) : undefined);
  }

  /** True while the session is kept in memory only (its file cannot be written, or writing stopped). */
  get unsaved(): boolean {
    return this.writer?.inMemory ?? false;
  }

  /**
   * Appends one entry (none: only makes sure the file exists, `prompt` naming a new one). A failed
   * write is reported once on `onEvent` as an error naming the file; the conversation goes on.
   */
  record(entry: SessionEntryInput | undefined, onEvent?: (e: AgentEvent) => void, prompt?: string): void {
    if (onEvent) this.warnTo = onEvent;
    try {
      const existed = this.writer !== undefined || this.options.resume === true;
      const writer = this.ensureWriter(prompt);
      // A file a run of the person's created (no prompt in its header) is named by their first question when it comes.
      if (prompt !== undefined && !this.titled) {
        if (existed) writer.append({ type: "title", prompt });
        this.titled = true;
      }
      if (entry) writer.append(entry);
    } catch (err) {
      if (this.writeFailed) return;
      this.writeFailed = true;
      const why = errorMessage(err);
      onEvent?.({ type: "error", message: `session file ${this.options.store.path(this.id)} could not be written (${why}); this conversation goes on but is no longer saved — free disk space or check INK_HOME` });
    }
  }

  /**
   * Appends an entry that alone must not create a new session's file (a notice, a setting, a `!`
   * command): before the first prompt it waits and is written, in order, when the file is created.
   */
  recordLater(entry: SessionEntryInput, onEvent?: (e: AgentEvent) => void): void {
    if (this.writer || this.options.resume) this.record(entry, onEvent);
    else this.waiting.push(entry);
  }

  /** A file kept in memory tries to save everything now; undefined when complete, else why not. */
  saveNow(): string | undefined {
    const writer = this.writer;
    if (!writer || !writer.inMemory) return undefined;
    return writer.retry() ? undefined : (writer.failure ?? "the session file could not be written");
  }

  /** Saves once more if needed, stops the lease and releases the lock. */
  close(): void {
    this.closed = true;
    this.saveNow();
    this.lease?.stop();
    this.lock?.release();
    this.lock = undefined;
  }

  private ensureWriter(prompt: string | undefined): SessionWriter {
    if (this.writer) return this.writer;
    const { store } = this.options;
    const onNotice = (notice: PersistenceNotice) => {
      this.warnTo({ type: "warning", source: "session", message: notice.message });
      if (notice.kind === "restored" && !this.lock && !this.closed) this.takeLock();
    };
    if (this.options.resume) {
      this.writer = store.open(this.id, { onNotice });
      for (const message of this.pendingRepairs.splice(0)) this.writer.append({ type: "message", message });
      this.watchLock();
      return this.writer;
    }
    this.writer = store.create(this.options.header(prompt), { id: this.id, onNotice });
    if (!this.writer.inMemory) this.takeLock();
    else this.watchLock();
    for (const entry of this.waiting.splice(0)) this.writer.append(entry);
    return this.writer;
  }

  /** Takes the lock of a file just created, or saved again after running in memory. */
  private takeLock(): void {
    try {
      this.lock = this.options.store.lock(this.id, "main session");
    } catch (err) {
      this.warnTo({ type: "warning", source: "lock", message: `session ${this.id} runs without a lock (${errorMessage(err)})` });
    }
    this.watchLock();
  }

  /** Renews the lock on a timer; when it was taken over: stop writing, stop the run, say why. */
  private watchLock(): void {
    const lock = this.lock;
    if (!lock || this.lease) return;
    if (lock.takenOver) this.warnTo({ type: "warning", source: "lock", message: `took over the lock of session ${this.id} from process ${lock.takenOver.pid} on ${lock.takenOver.hostname} (since ${lock.takenOver.startedAt}): ${lock.takenOver.reason}` });
    this.lease = startLease(lock, (reason) => {
      this.writer?.stop(reason);
      this.warnTo({ type: "warning", source: "lock", message: `session ${this.id}: ${reason}; stopped writing the session file and stopped the run` });
      this.leaseLost.abort(reason);
    }, this.options.leaseIntervalMs);
  }
}
