/**
 * What the task tool is built from: the parent's provider, model, prompt and tools, the profiles,
 * the store of child sessions and the session's registries. Its own file so that the tool and its
 * preparation (task-prepare.ts) both read it without importing each other.
 */
import type { CompactionEntry } from "../../core/compaction.js";
import type { LoopOptions } from "../../core/loop.js";
import type { OnToolCall } from "../../core/tool-runner.js";
import type { SubagentHookCalls } from "../../hooks/session-hooks.js";
import type { AgentEvent } from "../../protocol/events.js";
import type { Provider, ThinkingConfig } from "../../protocol/provider.js";
import type { AnyTool } from "../../protocol/tool.js";
import type { SessionStore } from "../../session/store.js";
import type { BackgroundChildren } from "../runtime/background-children.js";
import type { AskBudget, TreeGate } from "../runtime/budget.js";
import type { EditClaims } from "../runtime/edit-claims.js";
import type { AgentProfile } from "../profiles/profile-parse.js";
import type { RunningChildren } from "../runtime/running-children.js";

export interface TaskToolOptions {
  provider: Provider;
  /** The parent's model; children use it unless their profile names one. */
  model: string;
  /** The parent's assembled system prompt (read at call time). */
  getSystem: () => string;
  /** The parent's tool pool (read at call time); `task` is removed for children. */
  getTools: () => readonly AnyTool[];
  profiles: readonly AgentProfile[];
  /** Project profile files skipped because the project is not trusted (the unknown-agent error says so). */
  untrustedProfileFiles?: number;
  /** Where child sessions are saved; without it children are not resumable. */
  store?: SessionStore;
  parentSessionId?: string;
  /** `$INK_HOME`, the home of worktrees. */
  inkHome: string;
  onToolCall?: OnToolCall;
  /**
   * Builds the context-compaction hooks for one child (the same check as the main agent):
   * `record` saves a compaction into the child's session, `emit` reports it in the child's events.
   */
  compaction?: (child: { system: string; model: string; record: (entry: CompactionEntry) => void; emit: (event: AgentEvent) => void }) => Pick<LoopOptions, "onBeforeTurn" | "onContextOverflow">;
  /** Timeout for children that set none (non-interactive runs); undefined = none. */
  defaultTimeoutMs?: number;
  /** How often a running child renews its session lock (ms; default 10 s). */
  leaseIntervalMs?: number;
  /** Children running at once (default 4); the rest queue. */
  maxConcurrent?: number;
  thinking?: ThinkingConfig;
  /** How long a child may stay paused on transient failures in all (default 30 min; 0 = never pause). */
  pauseLimitMs?: number;
  /** Running children by id, so one can be stopped alone (see stopChild). */
  running?: RunningChildren;
  /** SubagentStart / SubagentStop hooks (read at call time). */
  subagentHooks?: () => SubagentHookCalls | undefined;
  /** The session's children registry: background runs and their delivery (without it, `background` is ignored). */
  children?: BackgroundChildren;
  /** Files changed by the session's running children (edit conflicts) and its kept worktree branches. */
  editClaims?: EditClaims;
  /** The session tree's budget (counts every child's usage; may pause or stop a child's requests). */
  treeBudget?: TreeGate;
  /** Who answers a reached budget's question (read at each question); undefined: the child stops (headless). */
  askBudget?: () => AskBudget | undefined;
}
