/**
 * The `task` tool (SPEC §3): the main agent delegates a self-contained job to a child agent —
 * new, with an optional profile and worktree, or resumed from its saved session. Children run
 * concurrently up to a cap; their events are relayed into the parent's stream tagged with the
 * child's id; only the report (taskResult) goes back to the model. What the model sees of the tool
 * (schema, description): task-schema.ts; what a call settles before its child starts: task-prepare.ts.
 */
import { setMaxListeners } from "node:events";
import type { SteerMessage } from "../../core/loop.js";
import { errorMessage } from "../../protocol/error-message.js";
import type { AgentEvent, WarningEvent } from "../../protocol/events.js";
import { emptyUsage } from "../../protocol/messages.js";
import type { AnyTool, Tool, ToolContext, ToolOutput } from "../../protocol/tool.js";
import { shortId } from "../../session/ids.js";
import { startLease } from "../../session/lock-lease.js";
import type { SessionLock } from "../../session/lock.js";
import type { SessionWriter } from "../../session/store.js";
import type { TaskDetails, TaskRecord } from "../../session/types.js";
import { childBudget, childLimits, unpricedCostBudget, unpricedTreeChild } from "../runtime/budget.js";
import { abortedBeforeStartResult, runChildJob } from "../runtime/child-job.js";
import { childDescription, childTitle, normalizeDescription } from "../runtime/child-label.js";
import { startChildMcp, type ChildMcp } from "../runtime/child-mcp.js";
import { childToolGate, resumedChildPrompt } from "../runtime/child-prompt.js";
import { openChildSession } from "../runtime/child-session.js";
import { claimTitle, formatKeptOverlaps } from "../runtime/edit-claims.js";
import { runSubagent, type SubagentOutcome } from "../runtime/run-subagent.js";
import { messageChild, type RunningChild } from "../runtime/running-children.js";
import { Semaphore } from "../runtime/semaphore.js";
import type { TaskToolOptions } from "./task-options.js";
import { prepareNew, prepareResume, type Prepared } from "./task-prepare.js";
import { emptyPromptResult, messageQueuedResult, notStartedResult, resumeCombinedResult } from "./task-refusals.js";
import { taskResult, unreadMessagesNote } from "./task-result.js";
import { describeTask, taskSchema, type TaskArgs } from "./task-schema.js";
import { confineToWorktree, worktreePrompt } from "../worktrees/worktree-guard.js";
import { claimWorktreeOwner } from "../worktrees/worktree-owner.js";
import { createWorktree, finishWorktree, formatWorktreeReport, worktreeCwd, type Worktree, type WorktreeReport } from "../worktrees/worktree.js";

export { describeTask, taskSchema, type TaskArgs };
export type { TaskToolOptions };
export type { TaskDetails };


/** Why a child of a session without a store has no transcript (said in its result and its record). */
const NO_STORE = "this session saves no transcripts (it runs without a session store), so the child cannot be continued later";

/** Creates the task tool bound to one parent agent. */
export function createTaskTool(options: TaskToolOptions): Tool<typeof taskSchema> {
  const slots = new Semaphore(options.maxConcurrent ?? 4);
  const byName = new Map(options.profiles.map((p) => [p.name, p] as const));
  return {
    name: "task",
    description: describeTask(options.profiles),
    schema: taskSchema,
    concurrent: true,
    readOnly: false,
    // The child's own loop winds its tools down on abort; its result carries the session id to resume.
    returnsOnAbort: true,
    async execute(args, ctx) {
      if (args.resume !== undefined && (args.agent !== undefined || args.worktree !== undefined || args.model !== undefined || args.thinking !== undefined)) return resumeCombinedResult(args);
      if (args.prompt.trim() === "") return emptyPromptResult(args.resume !== undefined);
      // A running child takes the prompt as a message at its next turn boundary; its report still
      // comes back through the task call that started it.
      if (args.resume !== undefined && options.running && messageChild(options.running, args.resume, args.prompt.trim(), "parent")) return messageQueuedResult(args.resume);
      const prepared = args.resume !== undefined ? prepareResume(options, args.resume, ctx) : prepareNew(options, byName, args);
      if ("error" in prepared) return prepared.error;
      // Every queued or running child listens on the parent's signal; many at once is expected.
      setMaxListeners(0, ctx.signal);
      if (options.children) {
        setMaxListeners(0, options.children.signal);
        return runChildJob(options.children, slots, {
          childId: prepared.childId,
          profile: prepared.profile?.name,
          description: preparedDescription(prepared, args),
          prompt: args.prompt,
          background: args.background ?? prepared.profile?.background ?? false,
          saved: options.store !== undefined,
          run: (jobCtx) => runPrepared(options, prepared, args, jobCtx),
          cancel: () => prepared.lock?.release(),
        }, ctx);
      }
      let release: () => void;
      try {
        release = await slots.acquire(ctx.signal);
      } catch {
        prepared.lock?.release();
        return abortedBeforeStartResult();
      }
      try {
        return await runPrepared(options, prepared, args, ctx);
      } finally {
        release();
      }
    },
  };
}

/** What names the child: a resumed child keeps the description it was created with (else the first words of its first prompt). */
function preparedDescription(p: Prepared, args: TaskArgs): string {
  const given = normalizeDescription(args.description).text;
  return p.saved ? childDescription({ description: p.saved.description ?? given, prompt: p.saved.prompt ?? args.prompt }) : childDescription({ description: given, prompt: args.prompt });
}

async function runPrepared(options: TaskToolOptions, p: Prepared, args: TaskArgs, ctx: ToolContext): Promise<ToolOutput> {
  const started = Date.now();
  const limits = childLimits(args, p.profile, p.loaded?.header.budget);
  const unpriced = unpricedCostBudget(limits, p.model, "this child's budget") ?? unpricedTreeChild(options.treeBudget?.limits, p.model);
  if (unpriced) {
    p.lock?.release();
    return notStartedResult(unpriced);
  }
  let worktree: Worktree | undefined;
  let cwd = p.cwd ?? ctx.cwd;
  if (!p.resumed && (args.worktree ?? p.profile?.worktree)) {
    try {
      worktree = await createWorktree({ cwd: ctx.cwd, inkHome: options.inkHome, label: p.childId, signal: ctx.signal });
      cwd = worktreeCwd(worktree);
    } catch (err) {
      return notStartedResult(errorMessage(err));
    }
  }
  const label = p.profile?.name ?? "general";
  const given = normalizeDescription(args.description);
  const description = preparedDescription(p, args);
  const tag = { childId: p.childId, parentToolCallId: ctx.toolCallId, profile: p.profile?.name };
  const emit = (event: AgentEvent) => ctx.emit?.(event);
  const warn = (source: WarningEvent["source"], message: string) => emit({ type: "warning", source, message: `child ${childTitle({ profile: p.profile?.name, description })} [${shortId(p.childId)}]: ${message}` });
  let writer: SessionWriter | undefined;
  let lock: SessionLock | undefined;
  try {
    ({ writer, lock } = openChildSession(
      options.store,
      {
        childId: p.childId,
        resumed: p.resumed,
        lock: p.lock,
        parentId: options.parentSessionId,
        parentToolCallId: ctx.toolCallId,
        cwd,
        provider: options.provider.name,
        model: p.model,
        modelFrom: p.modelFrom,
        thinking: p.thinking,
        ...(limits.maxTokens !== undefined || limits.maxCostUsd !== undefined ? { budget: limits } : {}),
        profile: p.profile?.name,
        profileHash: p.profile?.hash,
        system: p.system,
        tools: p.tools,
        prompt: args.prompt,
        description: given.text,
        worktree: worktree && { path: worktree.path, branch: worktree.branch },
      },
      warn,
    ));
  } catch (err) {
    if (worktree) await finishWorktree(worktree);
    return notStartedResult(`cannot ${p.resumed ? "resume" : "save"} child session: ${errorMessage(err)}`);
  }
  if (p.keptWorktree) claimWorktreeOwner(p.keptWorktree.path, p.keptWorktree.branch); // in use again: not a leftover
  for (const message of p.loaded?.toPersist ?? []) writer?.append({ type: "message", message });
  if (p.modelWarning) warn("model", p.modelWarning);
  if (p.skippedTools) warn("mcp", `agent "${p.profile?.name}" lists MCP tools this session does not have (${p.skippedTools.join(", ")}: the server is not configured or not running); it runs without them`);
  if (lock?.takenOver) warn("lock", `took over a stale lock of process ${lock.takenOver.pid} on ${lock.takenOver.hostname} (since ${lock.takenOver.startedAt}): ${lock.takenOver.reason}`);
  emit({ type: "subagent_start", ...tag, color: p.profile?.color, description, prompt: args.prompt, model: p.model, sessionId: writer?.id, worktree: worktree?.path ?? p.keptWorktree?.path, resumed: p.resumed });
  let outcome: SubagentOutcome | undefined;
  const stop = new AbortController();
  const inbox: SteerMessage[] = [];
  const entry: RunningChild = { stop, inbox };
  const title = claimTitle(childTitle({ profile: p.profile?.name, description }), p.childId);
  // A child of the shared tree claims the files it changes; a worktree child works in its own tree.
  const claims = worktree || p.keptWorktree ? undefined : options.editClaims?.enter({ childId: p.childId, title, notify: (event) => emit({ type: "subagent_event", ...tag, event }) });
  options.running?.set(p.childId, entry);
  const heldLock = lock;
  const lease = heldLock
    ? startLease(
        heldLock,
        (reason) => {
          writer?.stop(reason);
          warn("lock", `${reason}; stopped writing its transcript and stopped the child`);
          stop.abort(`${reason} (another run is writing this child's transcript now)`);
        },
        options.leaseIntervalMs,
      )
    : undefined;
  let childMcp: ChildMcp | undefined;
  try {
    try {
      const compaction = options.compaction?.({
        system: p.system,
        model: p.model,
        record: (entry) => writer?.append({ type: "compaction", ...entry }),
        emit: (event) => emit({ type: "subagent_event", ...tag, event }),
      });
      // The profile's own MCP servers: this child's only, closed below (not in the header's tool list, so resume checks ignore them).
      childMcp = p.profile ? await startChildMcp(p.profile, options.getTools().map((t) => t.name), ctx.signal, process.env, worktree || p.keptWorktree ? cwd : undefined) : undefined;
      for (const problem of childMcp?.problems ?? []) warn("mcp", problem);
      const tools = [...p.tools, ...(childMcp?.tools ?? [])];
      const agent = { id: p.childId, label, profile: p.profile?.name, description, depth: 1, permissionMode: p.profile?.permissionMode };
      outcome = await runSubagent({
        provider: options.provider,
        model: p.model,
        system: p.system,
        tools: withRunsAs(worktree ? confineToWorktree(tools, worktree) : (claims?.guard(tools) ?? tools), { background: args.background ?? p.profile?.background ?? false, worktree: worktree !== undefined || p.keptWorktree !== undefined }),
        prompt: worktree ? worktreePrompt(worktree, args.prompt) : p.resumed ? resumedChildPrompt(args.prompt, p.loaded?.repairs) : args.prompt,
        initialHistory: p.initialHistory,
        cwd,
        agent,
        signal: ctx.signal,
        stopSignal: stop.signal,
        timeoutMs: args.timeoutMs ?? p.profile?.timeoutMs ?? options.defaultTimeoutMs,
        maxTurns: p.profile?.maxTurns,
        thinking: p.thinking ?? p.profile?.thinking ?? options.thinking,
        onToolCall: childToolGate(options.onToolCall, p.profile),
        onBeforeTurn: compaction?.onBeforeTurn,
        onContextOverflow: compaction?.onContextOverflow,
        onEvent: (event) => emit({ type: "subagent_event", ...tag, event }),
        onMessage: (message) => writer?.append({ type: "message", message }),
        takeMessages: () => inbox.splice(0),
        sessionId: writer?.id,
        historyPath: writer?.path,
        hooks: options.subagentHooks?.(),
        budget: childBudget({ limits, model: p.model, agent, run: ctx.toolCallId, tree: options.treeBudget, ask: () => options.askBudget?.(), emit: (event) => emit({ type: "subagent_event", ...tag, event }) }),
        pause: {
          limitMs: options.pauseLimitMs,
          onWake: (wake) => {
            entry.wake = wake;
          },
        },
      });
    } catch (err) {
      // runSubagent never throws, but what is set up around it may (its compactor, its MCP servers):
      // the child has started (its transcript exists), so its failure is its outcome, id and transcript kept.
      outcome = { status: "crash", text: "", reason: `the child could not run: ${errorMessage(err)}`, turns: 0, usage: emptyUsage(), sessionId: writer?.id, historyPath: writer?.path, durationMs: Date.now() - started };
    }
    writer?.append({ type: "status", status: outcome.status, reason: outcome.reason });
    writer?.append({ type: "usage", usage: outcome.usage });
  } finally {
    await childMcp?.close();
    lease?.stop();
    options.running?.delete(p.childId);
    claims?.release();
    lock?.release();
    if (!outcome) {
      // runSubagent never throws; should anything else, the start event still gets its end.
      emit({ type: "subagent_end", ...tag, summary: { status: "crash", turns: 0, usage: emptyUsage(), durationMs: Date.now() - started, reason: "the child could not run" } });
    }
  }
  // Messages it no longer read (sent at its turn limit, or as it ended): named in the result, never dropped.
  const unread = unreadMessagesNote(entry.inbox.splice(0).map((m) => m.text));
  let report: WorktreeReport | undefined;
  try {
    report = worktree ? await finishWorktree(worktree) : undefined;
  } finally {
    const durationMs = Date.now() - started;
    emit({ type: "subagent_end", ...tag, summary: { status: outcome.status, turns: outcome.turns, usage: outcome.usage, durationMs, reason: outcome.reason, sessionId: outcome.sessionId } });
  }
  const durationMs = Date.now() - started;
  if (writer?.inMemory) writer.retry(); // space may be back: save the transcript before reporting on it
  const persistFailure = writer?.inMemory ? writer.failure : undefined;
  writer?.close(); // done appending: its file handle is not held for the rest of the session
  const notSaved = options.store ? undefined : NO_STORE;
  const result = taskResult(outcome, {
    prompt: args.prompt,
    persistFailure,
    notSaved,
    repairs: p.loaded?.repairs,
    worktree: p.keptWorktree,
    earlier: p.loaded?.lifetime,
  });
  const taskRecord: TaskRecord = {
    childId: p.childId,
    sessionId: outcome.sessionId,
    toolCallId: ctx.toolCallId,
    profile: p.profile?.name,
    status: outcome.status,
    turns: outcome.turns,
    usage: outcome.usage,
    durationMs,
    worktree: report ? { path: report.path, branch: report.branch, kept: report.kept } : undefined,
    prompt: args.prompt,
    description,
    model: p.model,
    ...(persistFailure ? { noTranscript: `its transcript could not be saved: ${persistFailure}` } : notSaved ? { noTranscript: `its transcript was not saved: ${notSaved}` } : {}),
  };
  const mcpNote = childMcp?.problems.length ? `\n\n${childMcp.problems.map((m) => `[task] ${m}`).join("\n")}` : "";
  const cutNote = given.note && !p.saved ? `\n\n${given.note}` : "";
  const overlaps = report?.kept && report.files && options.editClaims ? formatKeptOverlaps(options.editClaims.recordKept({ childId: p.childId, title, branch: report.branch, files: report.files })) : "";
  const output = (report ? `${result.output}\n\n${formatWorktreeReport(report)}${overlaps && `\n${overlaps}`}` : result.output) + mcpNote + cutNote + (unread && `\n\n${unread}`);
  return { output, isError: result.isError, details: { taskRecord } satisfies TaskDetails };
}

/** The child's tools, each call told how the child runs (bash's OS boundary follows it: see tools/sandbox.ts). */
function withRunsAs(tools: readonly AnyTool[], runsAs: NonNullable<ToolContext["runsAs"]>): AnyTool[] {
  if (!runsAs.background && !runsAs.worktree) return [...tools];
  return tools.map((tool) => ({ ...tool, execute: (args, ctx) => tool.execute(args, { ...ctx, runsAs }) }));
}
