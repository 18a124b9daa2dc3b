/**
 * The shapes stored in a session file (SPEC §5): one `SessionHeader` line, then one
 * `SessionEntry` line per event. Plain data, shared by the store, the loader and callers.
 */
import type { AgentMessage, Usage, UserMessage } from "../protocol/messages.js";
import type { ThinkingConfig } from "../protocol/provider.js";
import type { BackgroundReport } from "../protocol/background-report.js";
import type { SpendRow } from "../protocol/spend.js";

/** The format version written by this code; readers refuse newer ones. */
export const SESSION_FORMAT_VERSION = 1;

/** A git worktree a session runs in. */
export interface SessionWorktree {
  path: string;
  branch: string;
}

/** The first line of every session file. */
export interface SessionHeader {
  type: "header";
  version: 1;
  id: string;
  kind: "main" | "child";
  /** Session id of the parent (child sessions only). */
  parentId?: string;
  /** The parent's `task` tool call that started this child. */
  parentToolCallId?: string;
  /** Absolute working directory the agent ran in. */
  cwd: string;
  provider: string;
  model: string;
  /** Agent profile name (child sessions started with `agent`). */
  profile?: string;
  /** `fingerprint(system, tools)` at creation; resume refuses a mismatch. */
  fingerprint: string;
  toolNames: string[];
  createdAt: string;
  /** First user prompt, for listings. */
  prompt?: string;
  /** A child's short description, as given to `task` (absent when none was given, and in older files). */
  description?: string;
  worktree?: SessionWorktree;
  /** projectContextHash of the system prompt at creation (names an AGENTS.md change on resume). */
  contextHash?: string;
  /** The Ink version that created the session (absent in files of versions before it was recorded). */
  inkVersion?: string;
  /** textHash of the system prompt at creation, and each tool declaration's hash: a refused resume names what changed. */
  systemHash?: string;
  toolHashes?: Record<string, string>;
  /** textHash of the system prompt without its tool list: names a changed prompt beside a changed tool set. */
  promptHash?: string;
  /** The child's profile's hash at creation (its file's text): names an edited profile on resume. */
  profileHash?: string;
  /** Set when the `task` call chose the model (not the parent or the profile): resume keeps `model`. */
  modelFrom?: "task";
  /** Extended thinking the child was started with (resume keeps it). */
  thinking?: ThinkingConfig;
  /** A child's budget (task arguments over its profile's): each resumed run gets this allowance afresh. */
  budget?: { maxTokens?: number; maxCostUsd?: number };
}

/** What `SessionStore.create` takes: the header without the fields the store fills in. */
export type NewSessionHeader = Omit<SessionHeader, "type" | "version" | "id" | "createdAt">;

/** The status of a task record whose call was refused before a child started (no child, no transcript). */
export const REFUSED_STATUS = "refused";

/** The status of a task record whose call was stopped (the run aborted) while it waited to start its child: no child, no transcript. */
export const NOT_STARTED_STATUS = "cancelled";

/** True for a record of a `task` call under which no child ran (refused, or stopped before it started): no child to list or restore. */
export function isChildlessRecord(record: Pick<TaskRecord, "status">): boolean {
  return record.status === REFUSED_STATUS || record.status === NOT_STARTED_STATUS;
}

/** A finished (or failed) child run, saved in the parent's session; never sent to the model. */
export interface TaskRecord {
  childId: string;
  sessionId?: string;
  /** The `task` tool call this run answered (so a resumed transcript puts it in its place). */
  toolCallId?: string;
  profile?: string;
  status: string;
  turns: number;
  usage: Usage;
  durationMs: number;
  worktree?: SessionWorktree & { kept: boolean };
  prompt: string;
  /** What names the child (its description, else its first prompt's first words); absent in older files. */
  description?: string;
  /** The model the child ran on (prices its usage when the session is resumed); absent in older files. */
  model?: string;
  /** When the run ended (ISO): the loader fills it from the entry's time; never written. */
  endedAt?: string;
  /** Why this run has no transcript: the call was refused before a child started, or its file could not be saved. */
  noTranscript?: string;
}

/** Details attached to a `task` tool result for the UI and the parent's session (never sent to the model). */
export interface TaskDetails {
  taskRecord: TaskRecord;
}

/** How a transcript note looked (the UI's tones). */
export type NoteTone = "info" | "warn" | "error" | "dim";

/** One line after the header. `at` is an ISO timestamp. */
export type SessionEntry =
  | { type: "message"; message: AgentMessage; at: string }
  | { type: "task_record"; record: TaskRecord; at: string }
  | { type: "compaction"; summary: string; replacedCount: number; at: string }
  /**
   * Usage: with `agent`, one addition to the session's usage ledger (core/usage-ledger.ts: who spent
   * it — `main` or a child id, the child's run — and on which model); without, a run's total (a child file's lifetime).
   */
  | { type: "usage"; usage: Usage; agent?: string; run?: string; model?: string; at: string }
  | { type: "status"; status: string; reason?: string; at: string }
  /** A line the person saw in the transcript besides the conversation (a command's output, a notice, an interruption); never sent to the model. */
  | { type: "note"; text: string; tone: NoteTone; at: string }
  /** A command the person ran with `!` and what it returned; its output reaches the model inside the next user message. */
  | { type: "shell"; command: string; output: string; isError: boolean; durationMs?: number; at: string }
  /** The person switched the model and/or the permission mode for the next turns. */
  | { type: "settings"; model?: string; permissionMode?: string; at: string }
  /** A background child ended; its report waits for delivery to the main agent (until a `background_delivered` names it). */
  | { type: "background_report"; report: BackgroundReport; at: string }
  /** Background reports that entered the main agent's history (or were returned by task_wait). */
  | { type: "background_delivered"; childIds: string[]; at: string }
  /** The person rewound the conversation to before main turn `turn`: the history keeps its first `keep` messages (counted as the live one was); the lines before stay in the file. */
  | { type: "rewind"; keep: number; turn: number; at: string }
  /** The person's first question, in a file a run of theirs created before it (a child resumed from the sidebar): listings name the session by it (the header has no prompt). */
  | { type: "title"; prompt: string; at: string };

/** A note or `!` command of a loaded session, placed after the first `after` messages of its history. */
export interface ViewEntry {
  after: number;
  entry: Extract<SessionEntry, { type: "note" | "shell" }>;
}

type WithOptionalAt<E> = E extends { at: string } ? Omit<E, "at"> & { at?: string } : never;

/** What `SessionWriter.append` takes: an entry whose `at` may be omitted (the writer fills it). */
export type SessionEntryInput = WithOptionalAt<SessionEntry>;

/** A session file read back and repaired, ready to continue. */
export interface LoadedSession {
  header: SessionHeader;
  /** The history to send to the model (compactions applied, tool calls all answered). */
  messages: AgentMessage[];
  /** Task records, in file order. */
  records: TaskRecord[];
  /** True when anything was dropped, skipped or synthesised while loading. */
  repaired: boolean;
  /** Human-readable notes on what was repaired (each names the file, and the line when known). */
  notes: string[];
  /** Short phrases for the model ("1 interrupted tool call closed", "a torn last line dropped"). */
  repairs: string[];
  /** Messages to append to the file so it matches `messages` (closed interrupted calls). */
  toPersist: AgentMessage[];
  /** Totals over every earlier run saved in the file: usage entries and assistant turns. */
  lifetime: { usage: Usage; turns: number };
  /** Notes and `!` commands the person saw, in file order, each placed among `messages`. */
  view: ViewEntry[];
  /** The latest model and permission mode the person chose (settings entries), if any. */
  settings: { model?: string; permissionMode?: string };
  /**
   * The session's usage ledger (core/usage-ledger.ts), rows merged: its saved additions, and for the
   * part of the file written before the ledger was saved, rows read from its assistant turns and task records.
   */
  spend: SpendRow[];
  /** The first `title` entry's prompt (see SessionEntry), if any. */
  title?: string;
  /** `!` commands whose output no user message carried yet (it goes with the next one). */
  pendingShell: Array<{ command: string; output: string; isError: boolean }>;
  /** Reports of background children that ended but were never delivered to the main agent (file order). */
  pendingBackground: BackgroundReport[];
}

/**
 * One row of `SessionStore.list`: the header plus file facts. `fingerprint` and `toolNames` are
 * left out of listings (only resuming needs them: read them with `readHeader`) and `prompt` is cut
 * to 200 characters, so the session index stays small.
 */
export type SessionSummary = Omit<SessionHeader, "fingerprint" | "toolNames"> & Partial<Pick<SessionHeader, "fingerprint" | "toolNames">> & {
  path: string;
  /** File size in bytes. */
  size: number;
  /** Last modification time (last activity), ms since the epoch. */
  mtimeMs: number;
  /** The last `status` entry, if any. */
  status?: string;
  statusReason?: string;
};

/** Prefix of the user message that stands in for compacted history. */
export const COMPACTION_SUMMARY_PREFIX = "[Summary of the earlier conversation]";

/** The user message that replaces compacted history (used when loading; compaction may reuse it). */
export function compactionSummaryMessage(summary: string): UserMessage {
  return { role: "user", content: `${COMPACTION_SUMMARY_PREFIX}\n\n${summary}` };
}
