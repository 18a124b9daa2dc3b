/**
 * The UI's view of a conversation: transcript items (finished ones go to <Static>, live ones are
 * redrawn), the state of every child agent shown at the place of its task call, and totals.
 * Plain data produced by `reduceStream` and rendered by the components.
 */
import type { Usage } from "../../src/protocol/messages.js";
import type { CostTally } from "../../src/core/pricing.js";
import type { SpendRow } from "../../src/protocol/spend.js";

/** Lifecycle of a tool call line. */
export type ToolStatus = "pending" | "running" | "ok" | "error";

/** How a child agent stands: running, or how it ended. */
export type ChildStatus = "running" | "ok" | "aborted" | "timeout" | "crash";

/** One tool call made by a child, with the head of its result once finished. */
export interface ChildToolEntry {
  kind: "tool";
  id: string;
  name: string;
  args: Record<string, unknown>;
  status: ToolStatus;
  /** First lines of the result once finished (each capped). */
  resultHead?: string[];
  /** Lines of the whole result. */
  resultLines?: number;
}

/** A stretch of the child's streamed text (one per turn or between tool calls). */
export interface ChildTextEntry {
  kind: "text";
  text: string;
  /** Closed by a new turn: the next text starts a new entry. */
  closed?: boolean;
}

/** What the child did, in the order it happened. */
export type ChildEntry = ChildTextEntry | ChildToolEntry;

/** A child agent as the pane and summary line show it. */
export interface ChildView {
  childId: string;
  /** Profile name; undefined = the general-purpose subagent. */
  profile?: string;
  /** The profile's pane colour (its name and a running pane's border). */
  color?: string;
  /** What names it (its `task` description, else its first prompt's first words); absent for children of older files. */
  description?: string;
  prompt: string;
  /** The model it runs on (absent in events recorded before models were reported). */
  model?: string;
  status: ChildStatus;
  /** UI clock (ms) when the child started. */
  startedAt: number;
  /** Set when it ended (from the core's summary). */
  durationMs?: number;
  turns: number;
  usage: Usage;
  /** Its cost so far: its run's rows of the session's usage ledger (absent until it spent anything). */
  cost?: CostTally;
  /** The run: the id of the `task` call it answered (its rows in the ledger; absent in older files). */
  run?: string;
  /**
   * The child's latest non-empty assistant text: its report so far. Read it through `childReport`:
   * once its task call finished with a result that starts with the report, the report is kept only
   * there (`report` empty, `reportChars` its length; see foldReport).
   */
  report: string;
  /** Set when the report is the first `reportChars` characters of its task item's result. */
  reportChars?: number;
  /** Its text and tool calls interleaved as they happened (the latest ones, capped); emptied when it ends (its transcript is in its session file). */
  entries: ChildEntry[];
  /** Entries dropped from the front by the cap. */
  dropped: number;
  /** True while the child is thinking (until its next text). */
  thinking: boolean;
  /** Why it stopped (aborted, timeout, crash). */
  reason?: string;
  resumed: boolean;
  worktree?: string;
  /** The person asked to stop this child alone; its end has not been reported yet. */
  stopping?: boolean;
  /** Latest context compaction of this child, as one line. */
  note?: string;
  /** UI clock (ms) of the child's latest event: a running child silent for long is shown as such. */
  lastEventAt?: number;
  /** Characters streamed since its last usage report (counted into the live token estimate). */
  pendingChars?: number;
  /** Its model call failed transiently and waits to be tried again. */
  retry?: RetryView;
}

export type ItemTone = "info" | "warn" | "error" | "dim";

/**
 * An agent's model call waiting to be tried again (from its latest `retry` event): shown as one
 * live line that counts down to `until`, gone at the agent's next progress or error.
 */
export interface RetryView {
  /** Short name of the failure: `429 rate limited`, `connection refused`. */
  label: string;
  /** The attempt that failed (1-based) and the most there will be. */
  attempt: number;
  maxAttempts: number;
  /** UI clock (ms) when the next attempt starts, and the wait announced. */
  until: number;
  delayMs: number;
  /** The failure's whole message. */
  reason: string;
  /** A paused child (its provider's retries ran out; it tries again by itself): no attempt count. */
  paused?: boolean;
  /** Paused on a reached budget: no countdown; it waits for the person's answer (extend or stop). */
  budget?: boolean;
}

/** One block of the transcript. `done` items can never change again. */
export type TranscriptItem =
  | { kind: "header"; id: string; done: true; cwd: string; model: string; provider: string; notices: string[] }
  | {
      kind: "user";
      id: string;
      done: true;
      text: string;
      /** Set when the prompt went to a child the person resumed (its label), not to the main agent. */
      target?: string;
    }
  | { kind: "assistant"; id: string; done: boolean; text: string }
  | { kind: "thinking"; id: string; done: boolean; chars: number; /** The thought itself, shown with Ctrl-O. */ text?: string }
  | {
      kind: "tool";
      /** The tool call id. */
      id: string;
      done: boolean;
      name: string;
      args: Record<string, unknown>;
      status: ToolStatus;
      /** Latest line of live output (tool_update). */
      update?: string;
      /** The whole result once finished, when it is kept in UI state (short, a `task` report, or not saved). */
      result?: string;
      /** A long result kept in the session file: only its first lines (each capped) are kept here. */
      resultHead?: string[];
      /** Lines of the whole result (with `resultHead`). */
      resultLines?: number;
      /** Where the whole result is saved (with `resultHead`): the session file and the tool call id there. */
      saved?: { file: string; callId: string };
      durationMs?: number;
      /** A background child's own row (id `bg-<childId>`): it stays live beside the conversation until the child ends. */
      background?: boolean;
      /** The child agent of a `task` call. */
      child?: ChildView;
    }
  /** A notice; with `retry`, the live (not done) line of the main agent's model call waiting to be tried again. */
  | { kind: "info"; id: string; done: boolean; text: string; tone: ItemTone; retry?: RetryView };

export type ToolItem = Extract<TranscriptItem, { kind: "tool" }>;

/** Everything the UI renders about the conversation. */
export interface StreamState {
  /** Finished items, append-only (rendered once in <Static>). */
  finished: TranscriptItem[];
  /** Items of the current run not yet finished (or behind an unfinished one), in order. */
  live: TranscriptItem[];
  /** Bumped by `clear` so <Static> starts afresh. */
  epoch: number;
  running: boolean;
  /** The session's usage ledger as last reported (core/usage-ledger.ts): every figure below is read from it. */
  spend: readonly SpendRow[];
  /** Total tokens of the whole tree (main + children) this session: the ledger's. */
  usage: Usage;
  /** Cost of the whole tree this session, each row priced by its own model: the ledger's. */
  cost: CostTally;
  /** Input tokens (incl. cache) of the main agent's latest model call: its context use. */
  contextTokens: number;
  /** childId → tool call id of its task item, for the children that have not ended. */
  childIndex: Record<string, string>;
  /** Source of item ids. */
  nextId: number;
  /** The current run already showed an error item. */
  runError: boolean;
  /** The main agent is compacting its context now. */
  compacting: boolean;
  /**
   * Whole results of tool items that keep only their head, while the session file does not hold
   * them (the turn's result message is not written yet, or writing it failed): tool call id → text.
   */
  heldResults?: Readonly<Record<string, string>>;
  /** How many times a background child's report started a turn of the idle main agent (for notifications). */
  deliveryTurns?: number;
}
