/**
 * AgentSession.submit: the one entry through which a front end asks the session for something (an
 * op, src/protocol/ops.ts). Each op is dispatched to the session's own method; what the op returns
 * is typed by OpResults. Events come out two ways: the events of the run an op starts go to the
 * `onEvent` given with it (the submission's events, Codex's events tagged by submission), and the
 * session's own channel (`subscribe`: background children, deliveries, notices, spend) carries the rest.
 *
 * Ops are typed in-process, so `submit` does not re-validate them; input from outside (a control
 * channel line, a client's request) goes through `parseOp` first.
 */
import type { LoopResult } from "../core/loop.js";
import type { CheckpointStore, TurnSummary } from "../checkpoints/store.js";
import type { RewindResult } from "../checkpoints/rewind.js";
import type { BranchState, MergeOutcome } from "../merge/merge-queue.js";
import type { AgentEvent } from "../protocol/events.js";
import type { AgentMessage, ToolResult } from "../protocol/messages.js";
import type { CheckpointBound } from "../checkpoints/rewind.js";
import type { TaskRecord, ViewEntry } from "../session/types.js";
import type { Op, OpOf, OpType } from "../protocol/ops.js";
import type { PermissionMode } from "../permissions/decide.js";
import type { ChildRow } from "../subagents/runtime/background-children.js";
import type { BudgetAnswer } from "../subagents/runtime/budget.js";
import type { FileCommand } from "../commands/command-files.js";
import type { NoteTone } from "../session/types.js";

/** How the op's run is stopped and where its events go. */
export interface SubmitOptions {
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Id of the `task` call that shows a resumed child or a forked command (default: one made up). */
  toolCallId?: string;
}

/** The session's facts (`get_state`). */
export interface SessionState {
  sessionId: string;
  sessionPath: string | null;
  cwd: string;
  provider: string;
  model: string;
  permissionMode: PermissionMode;
  /** Settings disable yolo (`disableBypassPermissionsMode`): `set_mode` yolo gives default. */
  yoloDisabled: boolean;
  runningChildren: string[];
  /** The checkpoint store's bound (what `/rewind`'s listing names); undefined without checkpoints. */
  checkpointBound?: CheckpointBound;
}

/** What a command file run gave: a main turn's result, or a forked child's. */
export type CommandRun = { kind: "prompt"; result: LoopResult } | { kind: "child"; result: ToolResult };

/** What `submit` returns for each op: the quick ones at once, the ones that run as a promise. */
export interface OpResults {
  prompt: Promise<LoopResult>;
  /** False when nothing runs to read it (no prompt, or child `child` is not running). */
  steer: boolean;
  /** With `child`: false when it is not running. Without: whether any submitted run was going. */
  abort: boolean;
  approve: void;
  deny: void;
  get_state: SessionState;
  list_children: ChildRow[];
  resume_child: Promise<ToolResult>;
  list_branches: Promise<BranchState[]>;
  merge: Promise<MergeOutcome>;
  /** The child's result (absent when nothing was handed) and the merge that followed (or why none did). */
  merge_hand: Promise<{ handed?: ToolResult; outcome: MergeOutcome }>;
  list_turns: Promise<TurnSummary[]>;
  rewind: Promise<RewindResult>;
  answer_budget: void;
  wake_child: boolean;
  /** The ids moved. */
  background: string[];
  run_command: Promise<CommandRun>;
  shell: Promise<ToolResult>;
  /** Undefined when no report waited. */
  deliver_background: Promise<LoopResult | undefined>;
  /** A warning when the provider's model list lacks the model (it is set all the same). */
  set_model: string | undefined;
  set_mode: void;
  /** False when there was too little to compact. */
  compact: Promise<boolean>;
  clear: Promise<void>;
  input: Promise<CommandRun>;
  list_commands: FileCommand[];
  /** A copy of the main agent's messages. */
  get_history: AgentMessage[];
  list_task_records: TaskRecord[];
  start_mcp: Promise<void>;
  /** Undefined when the file holds everything; else why it does not (after `create`: always undefined). */
  save: string | undefined;
  wait_background: Promise<void>;
  end: Promise<void>;
  close: void;
  note: void;
  /** Undefined when `command` has no report. */
  report: string[] | undefined;
  list_models: Promise<string[]>;
  get_view: ViewEntry[];
}

// The ops' permission modes are the permission layer's (ops.ts cannot import it): a mismatch fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const modesMatch: Same<OpOf<"set_mode">["mode"], PermissionMode> = true;
void modesMatch;

/** Who answers the questions the session put to the front end (approvals, budgets); a front end sets them. */
export interface Answerers {
  /** Answers approval `requestId`; returns why it cannot (no such question) or undefined. */
  approval?: (requestId: string, approved: boolean, reason?: string) => string | undefined;
  /** Answers budget question `requestId`. */
  budget?: (requestId: number, answer: BudgetAnswer) => void;
}

/** The session as `dispatchOp` sees it: its existing methods (AgentSession implements it). */
export interface SubmitTarget {
  readonly sessionId: string;
  readonly sessionPath: string | undefined;
  readonly cwd: string;
  readonly provider: { name: string };
  readonly model: string;
  readonly permissionMode: PermissionMode;
  readonly yoloDisabled: boolean;
  readonly runningChildren: string[];
  readonly checkpointBound: CheckpointBound | undefined;
  readonly history: readonly AgentMessage[];
  readonly taskRecords: readonly TaskRecord[];
  readonly childRows: ChildRow[];
  readonly checkpoints?: CheckpointStore;
  prompt(text: string, opts: SubmitOptions): Promise<LoopResult>;
  steer(text: string): boolean;
  messageChild(childId: string, text: string): boolean;
  stopChild(childId: string): boolean;
  wakeChild(childId: string): boolean;
  moveToBackground(childId?: string): string[];
  resumeChild(childId: string, prompt: string, opts: SubmitOptions): Promise<ToolResult>;
  mergeCandidates(): Promise<BranchState[]>;
  mergeBranches(pick: "all" | ReadonlyArray<number | string>, opts: { squash?: boolean; allowDirty?: boolean }): Promise<MergeOutcome>;
  handMergeConflict(opts: SubmitOptions): Promise<{ handed?: ToolResult; outcome: MergeOutcome }>;
  rewindTurns(): Promise<TurnSummary[]>;
  rewind(turn: number, opts: { files?: boolean; conversation?: boolean; force?: boolean; stopChildren?: boolean }): Promise<RewindResult>;
  runCommandText(text: string, opts: SubmitOptions): Promise<CommandRun>;
  runShell(command: string, opts: SubmitOptions): Promise<ToolResult>;
  deliverBackground(opts: SubmitOptions): Promise<LoopResult | undefined>;
  setModel(model: string): string | undefined;
  setPermissionMode(mode: PermissionMode): void;
  compact(signal?: AbortSignal, onEvent?: (e: AgentEvent) => void): Promise<boolean>;
  end(reason: NonNullable<OpOf<"end">["reason"]>, opts?: { signal?: AbortSignal }): Promise<void>;
  readonly invocableCommands: FileCommand[];
  commandInvocation(text: string): unknown;
  startMcp(): Promise<void>;
  createFile(): void;
  saveNow(): string | undefined;
  whenBackgroundIdle(signal?: AbortSignal): Promise<void>;
  close(): void;
  note(text: string, tone?: NoteTone): void;
  commandLines(command: string): string[] | undefined;
  listModels(): Promise<string[]>;
  readonly view: readonly ViewEntry[];
}

/**
 * The runs submitted to a session, so that `abort` (without a child) stops them all: each run's
 * signal is the caller's and the session's own.
 */
export class SubmittedRuns {
  private readonly runs = new Set<AbortController>();

  /** Runs `start` with a signal that aborts with `opts.signal` or with `abortAll`. */
  track<T>(opts: SubmitOptions, start: (opts: SubmitOptions) => Promise<T>): Promise<T> {
    const own = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, own.signal]) : own.signal;
    this.runs.add(own);
    let started: Promise<T>;
    try {
      started = start({ ...opts, signal });
    } catch (err) {
      this.runs.delete(own);
      throw err;
    }
    return started.finally(() => this.runs.delete(own));
  }

  /** Aborts every run going; false when none was. */
  abortAll(): boolean {
    const any = this.runs.size > 0;
    for (const c of [...this.runs]) c.abort();
    return any;
  }
}

/** Dispatches `op` to `target`'s method for it. Throws (with the reason) when it cannot be done: an unanswerable answer, a model the provider does not serve. */
export function dispatchOp(target: SubmitTarget, runs: SubmittedRuns, answerers: Answerers, op: Op, opts: SubmitOptions): OpResults[OpType] {
  switch (op.type) {
    case "prompt":
      return runs.track(opts, (o) => target.prompt(op.text, o));
    case "steer":
      return op.child !== undefined ? target.messageChild(op.child, op.text) : target.steer(op.text);
    case "abort":
      return op.child !== undefined ? target.stopChild(op.child) : runs.abortAll();
    case "approve":
    case "deny": {
      if (!answerers.approval) throw new Error(`no approval question is open here (request "${op.requestId}")`);
      const error = answerers.approval(op.requestId, op.type === "approve", op.type === "deny" ? op.reason : undefined);
      if (error) throw new Error(error);
      return;
    }
    case "get_state":
      return {
        sessionId: target.sessionId,
        sessionPath: target.sessionPath ?? null,
        cwd: target.cwd,
        provider: target.provider.name,
        model: target.model,
        permissionMode: target.permissionMode,
        yoloDisabled: target.yoloDisabled,
        runningChildren: target.runningChildren,
        ...(target.checkpointBound ? { checkpointBound: target.checkpointBound } : {}),
      };
    case "list_children":
      return target.childRows;
    case "resume_child":
      return runs.track(opts, (o) => target.resumeChild(op.child, op.text, o));
    case "list_branches":
      return target.mergeCandidates();
    case "merge":
      return target.mergeBranches(op.branches, { squash: op.squash, allowDirty: op.allowDirty });
    case "merge_hand":
      return runs.track(opts, (o) => target.handMergeConflict(o));
    case "list_turns":
      return target.rewindTurns();
    case "rewind":
      return target.rewind(op.turn, { files: op.files, conversation: op.conversation, force: op.force, stopChildren: op.stopChildren });
    case "answer_budget":
      if (!answerers.budget) throw new Error(`no budget question is open here (question ${op.requestId})`);
      return answerers.budget(op.requestId, op.answer);
    case "wake_child":
      return target.wakeChild(op.child);
    case "background":
      return target.moveToBackground(op.child);
    case "run_command":
      return runs.track(opts, (o) => target.runCommandText(op.text, o));
    case "shell":
      return runs.track(opts, (o) => target.runShell(op.command, o));
    case "deliver_background":
      return runs.track(opts, (o) => target.deliverBackground(o));
    case "set_model":
      return target.setModel(op.model);
    case "set_mode":
      return target.setPermissionMode(op.mode);
    case "compact":
      return runs.track(opts, (o) => target.compact(o.signal, o.onEvent));
    case "clear":
      return target.end("clear");
    case "input":
      return target.commandInvocation(op.text) ? runs.track(opts, (o) => target.runCommandText(op.text, o)) : runs.track(opts, async (o): Promise<CommandRun> => ({ kind: "prompt", result: await target.prompt(op.text, o) }));
    case "list_commands":
      return target.invocableCommands;
    case "get_history":
      return [...target.history];
    case "list_task_records":
      return [...target.taskRecords];
    case "start_mcp":
      return target.startMcp();
    case "save":
      if (op.create) return void target.createFile();
      return target.saveNow();
    case "wait_background":
      return target.whenBackgroundIdle(opts.signal);
    case "end":
      return target.end(op.reason ?? "other", { signal: opts.signal });
    case "close":
      return target.close();
    case "note":
      return target.note(op.text, op.tone);
    case "report":
      return target.commandLines(op.command);
    case "list_models":
      return target.listModels();
    case "get_view":
      return [...target.view];
    default:
      // An op added to OP_SCHEMAS without a case here fails to compile.
      return op satisfies never;
  }
}
