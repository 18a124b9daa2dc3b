/**
 * AgentEvent: everything a UI, print mode or session store learns about a run. The loop emits
 * these; child agents' events come back wrapped in `subagent_event` tagged with the child's id,
 * so one stream carries the whole tree.
 */
import type { AgentMessage, AssistantMessage, ToolCall, ToolResult, Usage } from "./messages.js";
import type { RetryEvent } from "./provider.js";
import type { Spender } from "./spend.js";

/** Why a compaction ran: the threshold before a turn, a provider overflow error, or a request (`/compact`). */
export type CompactionReason = "threshold" | "overflow" | "manual";

/** Progress of one compaction, for a UI or a log. */
export type CompactionEvent =
  | { type: "compaction_start"; reason: CompactionReason; tokensBefore: number; replacing: number }
  | { type: "compaction_end"; reason: CompactionReason; ok: true; replacedCount: number; tokensBefore: number; tokensAfter: number; summary: string }
  | { type: "compaction_end"; reason: CompactionReason; ok: false; tokensBefore: number; error: string };

/**
 * Something the person should know that does not stop the run: the session file is not being
 * saved, a lock was taken over, a child repeats one tool call, a summariser was switched off.
 */
export interface WarningEvent {
  type: "warning";
  /** What it is about: "session" (persistence), "lock", "loop" (repeated calls), "compaction", "mcp" (a child's own MCP server), "hook" (a hook blocked or failed), "budget" (the session's budget stopped the main agent), "command" (a command file's model is not served). */
  source: "session" | "lock" | "loop" | "compaction" | "mcp" | "hook" | "budget" | "command" | "model";
  message: string;
}

/** Who is running: the main agent or a child. */
export interface AgentInfo {
  /** "main" or the child's id. */
  id: string;
  /** Display label: "main", or the profile name / "general" for children. */
  label: string;
  /** Profile name when the agent runs a profile. */
  profile?: string;
  /** A child's description (see subagent_start), so an approval question can name it. */
  description?: string;
  /** 0 for main, 1 for a child. */
  depth: number;
  /** The agent's working directory (a worktree child: its worktree); set for approval checks. */
  cwd?: string;
  /** A child's own permission mode from its agent file's `permissionMode` (see AgentProfile.permissionMode). */
  permissionMode?: "plan" | "accept-edits" | "yolo" | "dont-ask";
}

/** Summary of a child's run carried by `subagent_end`. */
export interface SubagentSummary {
  status: "ok" | "aborted" | "timeout" | "crash";
  turns: number;
  usage: Usage;
  durationMs: number;
  reason?: string;
  sessionId?: string;
}

export type AgentEvent =
  | { type: "agent_start"; agent: AgentInfo }
  | { type: "turn_start"; turn: number }
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | { type: "toolcall_start"; id: string; name: string }
  | { type: "toolcall_delta"; id: string; partialJson: string }
  | { type: "message"; message: AgentMessage }
  | { type: "tool_start"; call: ToolCall }
  | { type: "tool_update"; toolCallId: string; text: string }
  | { type: "tool_end"; call: ToolCall; result: ToolResult; details?: unknown; durationMs: number }
  | { type: "usage"; usage: Usage }
  /** A model call failed transiently and is tried again after `delayMs` (see RetryEvent). */
  | RetryEvent
  | { type: "turn_end"; turn: number; message: AssistantMessage }
  | { type: "error"; message: string }
  /**
   * A child's model call failed for good with a transient cause (`label`: `rate limited`,
   * `overloaded`, `connection reset`…): it waits `delayMs` and tries again; `pausedMs` so far of at
   * most `limitMs` in all. `resumed` follows when it tries again (early: the person asked).
   */
  | { type: "paused"; label: string; reason: string; delayMs: number; pausedMs: number; limitMs: number }
  | { type: "resumed"; early: boolean }
  /**
   * Two agents changed one file of the shared tree (src/subagents/edit-claims.ts): `refused` — this
   * child's write/edit of `path` was refused because `other` (a running child) changed it; else
   * `other` (another child, or the main agent) changed or tried to change a file this child changed.
   */
  | { type: "edit_overlap"; path: string; other: string; refused: boolean }
  /**
   * A budget was reached before the agent's next model request (`budget`: "budget of 50k tokens";
   * scope "tree": the session's). `asking`: the person is asked to extend or stop (a `resumed`
   * follows an extension); else the agent stops. See src/subagents/runtime/budget.ts.
   */
  /** `next`: set when the budget is not reached yet but the next request (about this amount) would cross it. */
  | { type: "budget_paused"; scope: "child" | "tree"; budget: string; spent: string; asking: boolean; next?: string }
  /** A message sent to the agent while it worked entered its history (at a turn boundary). */
  | { type: "steered"; text: string; from: SteerSource }
  /** Files a prompt's `@path` mentions attached (and the mentions that could not be). */
  | { type: "attachments"; files: Array<{ path: string; lines: number; truncated: boolean; directory: boolean }>; problems: string[] }
  | WarningEvent
  | CompactionEvent
  | { type: "agent_end"; reason: LoopStopReason; turns: number; usage: Usage }
  | {
      type: "subagent_start";
      childId: string;
      parentToolCallId: string;
      profile?: string;
      /** The profile's pane colour (a terminal colour name or #rrggbb). */
      color?: string;
      /** What names the child: its `task` description, else the first words of its first prompt (a resumed child keeps its own). */
      description?: string;
      prompt: string;
      /** The model the child runs on. */
      model?: string;
      sessionId?: string;
      worktree?: string;
      resumed: boolean;
    }
  | { type: "subagent_event"; childId: string; parentToolCallId: string; profile?: string; event: AgentEvent }
  | { type: "subagent_end"; childId: string; parentToolCallId: string; profile?: string; summary: SubagentSummary }
  /**
   * A child works in the background now: started so (`task` with `background`), or moved there by
   * the person (Ctrl-B, Esc). Its later events come through the session's channel (AgentSession.subscribe).
   */
  | { type: "background_start"; childId: string; parentToolCallId: string; profile?: string; prompt: string; by: "call" | "user" }
  /** A background child ended and its report waits for the main agent (`mainIdle`: no main run takes it up now). */
  | { type: "background_ready"; childIds: string[]; mainIdle: boolean }
  /** Background children's reports entered the main agent's history (once each); `startsTurn`: they started a main turn by themselves. */
  | { type: "background_delivery"; childIds: string[]; startsTurn: boolean }
  /**
   * Something the person should know about the session itself (AgentSession.subscribe only): a
   * skipped profile, an untrusted project, a resume repair, an MCP server that failed. A new
   * subscriber first gets the notices so far, then each later one as it arises.
   */
  | { type: "notice"; text: string }
  /** Tokens spent by `agent` (main or a child's run) on `model`, as the session's usage ledger counts them (AgentSession.subscribe only). */
  | ({ type: "spend"; usage: Usage } & Spender);

/** Who sent a message to a running agent: the person at the keyboard, or its parent agent. */
export type SteerSource = "user" | "parent";

/** Why a loop returned. */
export type LoopStopReason = "done" | "aborted" | "max_iterations";
