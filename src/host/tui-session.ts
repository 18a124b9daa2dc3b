/**
 * TuiSession: the session as the TUI holds it — ops in (`submit`), events out (`subscribe`), and
 * the facts the screen shows (`facts`, with `onFacts` saying when they may have changed). The UI
 * imports this narrow type, never AgentSession; `tuiSession` binds one AgentSession to it.
 *
 * Besides ops and events the TUI reads what no op carries: the session store (saved sessions,
 * children's transcripts) and late notices, and it registers as the budget question's asker.
 */
import type { AgentEvent } from "../protocol/events.js";
import type { OpOf, OpType } from "../protocol/ops.js";
import type { PermissionMode } from "../permissions/decide.js";
import type { FailedPrompt } from "../core/failed-turn.js";
import type { ChildReportNote } from "../protocol/child-report-note.js";
import type { CheckpointBound } from "../checkpoints/rewind.js";
import type { MergeConflict } from "../merge/merge-queue.js";
import type { FileCommand } from "../commands/command-files.js";
import type { ProfileLoad } from "../subagents/profiles/profiles.js";
import type { SpendRow } from "../core/usage-ledger.js";
import type { TreeBudgetView } from "../subagents/runtime/tree-budget.js";
import type { AskBudget } from "../subagents/runtime/budget.js";
import type { SessionStore } from "../session/store.js";
import type { AgentSession } from "./agent-session.js";
import type { Answerers, OpResults, SubmitOptions } from "./session-submit.js";
import type { SessionClient } from "./session-client.js";

/** The session's facts as the screen shows them; the same object until one of them changes. */
export interface SessionFacts {
  readonly sessionId: string;
  /** The main session file, once the first prompt created it (a resumed one's at once). */
  readonly sessionPath?: string;
  readonly cwd: string;
  /** The provider's name. */
  readonly provider: string;
  readonly model: string;
  /** The context window of `model`. */
  readonly contextWindow: number;
  readonly permissionMode: PermissionMode;
  /** The session is kept in memory only (its file cannot be written). */
  readonly unsaved: boolean;
  /** The session file that holds the tool results, while it is being written (long results are read back from it). */
  readonly resultsFile?: string;
  /** Messages in the conversation. */
  readonly historyLength: number;
  /** The last prompt whose request failed for good (cleared by the next prompt). */
  readonly lastFailure?: FailedPrompt;
  readonly runningChildren: readonly string[];
  /** A background child's report waits for the main agent. */
  readonly hasUndeliveredReports: boolean;
  /** Reports of children the person resumed, waiting for the next prompt. */
  readonly pendingChildReports: readonly ChildReportNote[];
  /** The conflict the last merge stopped at (`/merge hand`). */
  readonly mergeConflict?: MergeConflict;
  /** The checkpoint store's bound; undefined when there is no store. */
  readonly checkpointBound?: CheckpointBound;
  /** Notices for the person (profiles, trust, MCP problems, leftover worktrees, budgets). */
  readonly notices: readonly string[];
  /** What may be run as `/name`. */
  readonly invocableCommands: readonly FileCommand[];
  readonly profiles: ProfileLoad;
  /** The usage ledger's rows: every token and cost figure. */
  readonly spend: readonly SpendRow[];
  /** The tree's spend against its budget (status bar); undefined without one. */
  readonly treeBudget?: TreeBudgetView;
  /** The tree's spend now, by kind (a budget question's figure). */
  readonly treeSpent: { readonly tokens: string; readonly cost: string };
}

/** The session as the TUI holds it: what every front end holds (ops in, one event stream out), plus the screen's facts. */
export interface TuiSession extends SessionClient {
  /** The facts now (the same object while none changed). */
  facts(): SessionFacts;
  /** Calls `listener` when the facts may have changed (an op, an event, a spend); returns the unsubscribe function. */
  onFacts(listener: () => void): () => void;
  /** Notices that arise after start-up (an MCP server failed or crashed); returns the unsubscribe function. */
  onNotice(listener: (text: string) => void): () => void;
  /** The saved sessions; undefined when sessions are not saved. */
  readonly store?: SessionStore;
  /** Who answers a reached budget (the screen's question); undefined: the agent stops instead. */
  setBudgetAsk(ask: AskBudget | undefined, answer?: Answerers["budget"]): void;
}

type Plain = Record<string, unknown>;

/** Equal fields: the same value, or arrays / plain objects of the same values. */
function sameField(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (a && b && typeof a === "object" && typeof b === "object" && Object.getPrototypeOf(a) === Object.prototype && Object.getPrototypeOf(b) === Object.prototype) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => (a as Plain)[k] === (b as Plain)[k]);
  }
  return false;
}

/** Streaming pieces: they change no fact, so they do not call the facts' listeners. */
const STREAMING = new Set<AgentEvent["type"]>(["text_delta", "thinking_delta", "toolcall_delta", "tool_update"]);
const streaming = (event: AgentEvent): boolean => STREAMING.has(event.type) || (event.type === "subagent_event" && streaming(event.event));

/** Binds `session` as a TuiSession. */
export function tuiSession(session: AgentSession): TuiSession {
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of [...listeners]) l();
  };
  // Fixed at start-up: read once.
  const fixed = { sessionId: session.sessionId, cwd: session.cwd, provider: session.provider.name, checkpointBound: session.checkpointBound, invocableCommands: session.invocableCommands, profiles: session.profiles };
  let shown: SessionFacts | undefined;
  const read = (): SessionFacts => {
    const store = session.store;
    const unsaved = session.unsaved;
    return {
      ...fixed,
      sessionPath: session.sessionPath,
      model: session.model,
      contextWindow: session.provider.contextWindow(session.model),
      permissionMode: session.permissionMode,
      unsaved,
      resultsFile: !store || unsaved ? undefined : (session.sessionPath ?? (session.history.length > 0 ? store.path(session.sessionId) : undefined)),
      historyLength: session.history.length,
      lastFailure: session.lastFailure,
      runningChildren: session.runningChildren,
      hasUndeliveredReports: session.hasUndeliveredReports,
      pendingChildReports: [...session.pendingChildReports],
      mergeConflict: session.mergeConflict,
      notices: session.notices,
      spend: session.ledger.rows(),
      treeBudget: session.treeBudget.view(),
      treeSpent: { tokens: session.treeBudget.spent("tokens"), cost: session.treeBudget.spent("cost") },
    };
  };
  const facts = (): SessionFacts => {
    const now = read();
    if (shown && (Object.keys(now) as (keyof SessionFacts)[]).every((k) => sameField(now[k], shown![k]))) return shown;
    return (shown = now);
  };
  session.ledger.subscribe(changed);
  session.treeBudget.subscribe(changed);
  session.subscribe((event) => streaming(event) || changed());
  return {
    submit<T extends OpType>(op: OpOf<T>, opts: SubmitOptions = {}): OpResults[T] {
      const onEvent = opts.onEvent;
      const result = session.submit(op, {
        ...opts,
        onEvent: (event) => {
          onEvent?.(event);
          if (!streaming(event)) changed();
        },
      });
      changed();
      if (result instanceof Promise) result.then(changed, changed);
      return result;
    },
    subscribe: (listener) => session.subscribe(listener),
    facts,
    onFacts(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onNotice: (listener) =>
      session.onNotice((text) => {
        listener(text);
        changed(); // the notices grew
      }),
    get store() {
      return session.store;
    },
    setBudgetAsk: (ask, answer) => session.setBudgetAsk(ask, answer),
  };
}
