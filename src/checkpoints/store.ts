/**
 * The checkpoint store of one session (issue #40): before every change an agent makes to the
 * shared working tree (edit, write, bash) a snapshot of what it may change, after it a snapshot
 * of what it left, and the difference as a `change` entry (turn, agent, files, +/− lines). The
 * snapshots live in a shadow git store (shadow-git.ts) under `$INK_HOME/checkpoints/<session>/`,
 * the entries in `index.jsonl` beside it, so a resumed session keeps them.
 *
 * Bound: the last `maxTurns` turns (default 100) and at most `maxBytes` of objects (default
 * 256 MB); when either is passed at the start of a turn the oldest turns are dropped (their
 * entries and every snapshot only they used). The current turn is never dropped.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ShadowGit } from "./shadow-git.js";

export const DEFAULT_MAX_TURNS = 100;
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** A checkpoint folder without a session file is left alone this long (its session may not have written its file yet). */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes the checkpoint folders of sessions that no longer exist (their `sessions/<id>.jsonl` was
 * deleted), except `keep` and folders changed within ORPHAN_GRACE_MS. Returns the ids removed; never throws.
 */
export function removeOrphanCheckpoints(inkHome: string, keep: string, now = Date.now()): string[] {
  const root = join(inkHome, "checkpoints");
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const id of names) {
    const dir = join(root, id);
    try {
      if (id === keep || existsSync(join(inkHome, "sessions", `${id}.jsonl`))) continue;
      if (!existsSync(join(dir, "index.jsonl")) && !existsSync(join(dir, "git"))) continue; // not one of ours
      const changed = Math.max(statSync(dir).mtimeMs, existsSync(join(dir, "index.jsonl")) ? statSync(join(dir, "index.jsonl")).mtimeMs : 0);
      if (now - changed < ORPHAN_GRACE_MS) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(id);
    } catch {
      // one folder that cannot be read or removed does not stop the others
    }
  }
  return removed;
}

export interface FileChange {
  path: string;
  added: number;
  removed: number;
}

/** Who made a change: "main", a child's id, or "rewind" (a rewind restoring files). */
export interface ChangeAgent {
  id: string;
  label: string;
  /** A child's description (its pane's name); absent for main, rewind and entries written before it was kept. */
  description?: string;
}

export type CheckpointEntry =
  | { type: "turn"; turn: number; historyLength: number; head: string; prompt: string; at: string }
  | { type: "change"; turn: number; agent: ChangeAgent; tool: string; pre: string; post: string; files: FileChange[]; at: string }
  | { type: "rewind"; turn: number; files: boolean; conversation: boolean; at: string };

/** One turn as `/rewind` lists it. */
export interface TurnSummary {
  turn: number;
  prompt: string;
  at: string;
  /** Files changed in this turn, by agent (in the order they first changed something). */
  changes: Array<{ agent: ChangeAgent; files: FileChange[] }>;
  /** History length before the turn's user message, and a hash of the first message then (see AgentSession.rewind). */
  historyLength: number;
  head: string;
}

export interface FilesRewind {
  /** Files put back as they were before the turn (relative paths); deleted ones included. */
  restored: string[];
  /** Files whose content is not what the agent left (changed since by the person): nothing was changed. */
  changedSince: string[];
}

export interface CheckpointStoreOptions {
  inkHome: string;
  sessionId: string;
  cwd: string;
  maxTurns?: number;
  maxBytes?: number;
}

interface Pending {
  turn: number;
  agent: ChangeAgent;
  tool: string;
  pre: string;
  paths?: string[];
}

export class CheckpointStore {
  readonly dir: string;
  private readonly git: ShadowGit;
  private readonly indexPath: string;
  private entries: CheckpointEntry[] = [];
  private readonly pending = new Map<string, Pending>();
  private ready?: Promise<void>;
  readonly maxTurns: number;
  readonly maxBytes: number;

  constructor(private readonly options: CheckpointStoreOptions) {
    this.dir = join(options.inkHome, "checkpoints", options.sessionId);
    this.git = new ShadowGit(join(this.dir, "git"), resolve(options.cwd));
    this.indexPath = join(this.dir, "index.jsonl");
    this.maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    if (existsSync(this.indexPath)) {
      for (const line of readFileSync(this.indexPath, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        try {
          this.entries.push(JSON.parse(line) as CheckpointEntry);
        } catch {
          // a torn last line: the entry is lost, the rest stands
        }
      }
    }
  }

  private init(): Promise<void> {
    this.ready ??= this.git.init();
    return this.ready;
  }

  private append(entry: CheckpointEntry): void {
    this.entries.push(entry);
    mkdirSync(this.dir, { recursive: true });
    appendFileSync(this.indexPath, JSON.stringify(entry) + "\n");
  }

  /** The turn changes are counted in now (0 before the first). */
  get turn(): number {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.type === "turn") return e.turn;
    }
    return 0;
  }

  /** A new main turn starts (a prompt): returns its index. Drops the oldest turns when the store is over its bound. */
  async beginTurn(info: { historyLength: number; head: string; prompt: string }): Promise<number> {
    const turn = this.turn + 1;
    this.append({ type: "turn", turn, ...info, at: new Date().toISOString() });
    await this.enforceBound();
    return turn;
  }

  /** The path of `file` (absolute or relative to `cwd`) relative to the project, or undefined when outside it. */
  relativePath(file: string, cwd: string): string | undefined {
    const abs = isAbsolute(file) ? file : resolve(cwd, file);
    const rel = relative(this.git.workTree, abs);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel) || rel.split(sep).includes(".git")) return undefined;
    return rel.split(sep).join("/");
  }

  /** Before a change: snapshots `paths` (relative; undefined = the whole tree) under `callId`. */
  async before(callId: string, agent: ChangeAgent, tool: string, paths?: string[]): Promise<void> {
    await this.init();
    const pre = await this.git.snapshot(paths);
    this.pending.set(callId, { turn: this.turn, agent, tool, pre, paths });
  }

  /** After the change of `callId`: snapshots again and records what changed. Returns the files (none when nothing changed or no `before`). */
  async after(callId: string): Promise<FileChange[]> {
    const p = this.pending.get(callId);
    if (!p) return [];
    this.pending.delete(callId);
    const post = await this.git.snapshot(p.paths);
    const files = await this.git.diff(p.pre, post);
    if (files.length > 0) this.append({ type: "change", turn: p.turn, agent: p.agent, tool: p.tool, pre: p.pre, post, files, at: new Date().toISOString() });
    return files;
  }

  /** Closes every change whose `after` never came (the call was aborted). */
  async settle(): Promise<void> {
    for (const id of [...this.pending.keys()]) await this.after(id);
  }

  /** Every turn still in the store, oldest first, with what each changed. */
  turns(): TurnSummary[] {
    const byTurn = new Map<number, TurnSummary>();
    for (const e of this.entries) {
      if (e.type === "turn") byTurn.set(e.turn, { turn: e.turn, prompt: e.prompt, at: e.at, changes: [], historyLength: e.historyLength, head: e.head });
      else if (e.type === "change") {
        const t = byTurn.get(e.turn);
        if (!t) continue;
        let group = t.changes.find((c) => c.agent.id === e.agent.id);
        if (!group) t.changes.push((group = { agent: e.agent, files: [] }));
        for (const f of e.files) {
          const had = group.files.find((g) => g.path === f.path);
          if (had) {
            had.added += f.added;
            had.removed += f.removed;
          } else group.files.push({ ...f });
        }
      }
    }
    return [...byTurn.values()];
  }

  /**
   * Puts every file agents changed in `turn` and later back as it was just before its first such
   * change. A file whose content now is not what the agents left (the person changed it since)
   * stops the whole rewind — nothing is written — and is named in `changedSince`, unless `force`.
   * The restoring is itself recorded as a change (agent "rewind"), so it can be rewound too.
   */
  async rewindFiles(turn: number, opts: { force?: boolean } = {}): Promise<FilesRewind> {
    await this.init();
    await this.settle();
    const first = new Map<string, string>(); // path → tree before its first change at/after turn
    const last = new Map<string, string>(); // path → tree after its last change
    for (const e of this.entries) {
      if (e.type !== "change" || e.turn < turn) continue;
      for (const f of e.files) {
        if (!first.has(f.path)) first.set(f.path, e.pre);
        last.set(f.path, e.post);
      }
    }
    const changedSince: string[] = [];
    const toRestore: string[] = [];
    for (const [path, post] of last) {
      const left = (await this.git.entry(post, path))?.blob;
      const now = await this.git.hashFile(path);
      const target = (await this.git.entry(first.get(path)!, path))?.blob;
      if (now === target) continue; // already as it was
      if (now !== left) changedSince.push(path);
      toRestore.push(path);
    }
    if (changedSince.length > 0 && !opts.force) return { restored: [], changedSince };
    if (toRestore.length === 0) {
      this.append({ type: "rewind", turn, files: true, conversation: false, at: new Date().toISOString() });
      return { restored: [], changedSince };
    }
    const callId = `rewind-${Date.now()}`;
    await this.before(callId, { id: "rewind", label: "rewind" }, "rewind", toRestore);
    for (const path of toRestore) {
      const abs = join(this.git.workTree, path);
      const target = await this.git.entry(first.get(path)!, path);
      if (!target) {
        rmSync(abs, { force: true });
        continue;
      }
      mkdirSync(dirname(abs), { recursive: true });
      rmSync(abs, { force: true }); // a symlink or a file the person made read-only is replaced, not written through
      writeFileSync(abs, await this.git.blob(target.blob));
      if (target.mode === "100755") chmodSync(abs, 0o755);
    }
    await this.after(callId);
    this.append({ type: "rewind", turn, files: true, conversation: false, at: new Date().toISOString() });
    return { restored: toRestore, changedSince };
  }

  /** Notes a conversation rewind (the listing keeps every turn; the session file holds the truncation). */
  noteConversationRewind(turn: number): void {
    this.append({ type: "rewind", turn, files: false, conversation: true, at: new Date().toISOString() });
  }

  /** Bytes of snapshots held now. */
  async sizeBytes(): Promise<number> {
    await this.init();
    return this.git.sizeBytes();
  }

  /** Drops the oldest turns while more than `maxTurns` are kept or the objects pass `maxBytes` (the current turn stays). */
  async enforceBound(): Promise<void> {
    const turnsOf = () => [...new Set(this.entries.filter((e) => e.type === "turn").map((e) => e.turn))];
    let turns = turnsOf();
    let drop = Math.max(0, turns.length - this.maxTurns);
    let size = existsSync(join(this.dir, "git")) ? await this.sizeBytes() : 0;
    if (drop === 0 && size <= this.maxBytes) return;
    for (;;) {
      if (drop === 0 && turns.length > 1) drop = 1; // over the byte bound: drop one more turn and measure again
      if (drop === 0) return;
      const oldestKept = turns[Math.min(drop, turns.length - 1)]!;
      this.entries = this.entries.filter((e) => e.turn >= oldestKept);
      writeFileSync(this.indexPath, this.entries.map((e) => JSON.stringify(e) + "\n").join(""));
      const keep = new Set<string>();
      for (const e of this.entries) if (e.type === "change") keep.add(e.pre).add(e.post);
      for (const p of this.pending.values()) keep.add(p.pre);
      await this.init();
      await this.git.prune(keep);
      turns = turnsOf();
      size = await this.sizeBytes();
      if (size <= this.maxBytes || turns.length <= 1) return;
      drop = 0;
    }
  }
}
