/**
 * One `task` call's child as a job of the session (BackgroundChildren) rather than of the main
 * turn: it runs on the session's signal, linked to the calling turn's signal only while it is in
 * the foreground. A background call returns at once; a foreground call returns the child's result,
 * unless the person moves the child to the background first (its call then returns at once too).
 * A background child's result is kept for delivery to the main agent.
 */
import type { AgentEvent } from "../../protocol/events.js";
import type { ToolContext, ToolOutput } from "../../protocol/tool.js";
import type { BackgroundChildren } from "./background-children.js";
import type { Semaphore } from "./semaphore.js";

/** What a `task` result without a child run carries in `details`: set when the call was stopped (not refused) before its child started. */
export interface NotStartedDetails {
  stoppedBeforeStart: true;
}

/** The parent run was aborted while the child waited for a free slot (details say it was stopped, not refused). */
export function abortedBeforeStartResult(): ToolOutput {
  return { output: "[task] stopped: the parent run was aborted before the child started.", isError: true, details: { stoppedBeforeStart: true } satisfies NotStartedDetails };
}

/** The `task` result of a call started in the background. */
export function startedInBackgroundResult(childId: string, opts: { saved?: boolean } = {}): ToolOutput {
  return { output: `[task] child ${childId} is running in the background; its report will be delivered when it ends. (task_wait waits for it.) ${whileRunning(childId, opts.saved ?? true)}`, isError: false };
}

/** The `task` result of a call whose child the person moved to the background. */
export function movedToBackgroundResult(childId: string, opts: { saved?: boolean } = {}): ToolOutput {
  return { output: `[task] moved to the background by the user; its report will follow. (child ${childId}; task_wait waits for it.) ${whileRunning(childId, opts.saved ?? true)}`, isError: false };
}

/** What `resume` does for a child that is still running, and when it continues one (only a saved child: `saved`). */
function whileRunning(childId: string, saved: boolean): string {
  const running = `While it runs, task({resume: "${childId}", prompt: "..."}) sends it a message it reads at its next step`;
  return saved ? `${running}; once it has ended, the same call continues it.` : `${running}; its transcript is not saved, so it cannot be continued once it has ended.`;
}

export interface ChildJob {
  childId: string;
  profile?: string;
  /** The child's description (`task`'s, or a resumed child's own), for `/tasks`. */
  description?: string;
  prompt: string;
  background: boolean;
  /** False when the child's transcript is not saved (no session store): it cannot be continued once ended. */
  saved?: boolean;
  /** Runs the child with the job's context (signal and event sink); resolves with its `task` result. */
  run: (ctx: ToolContext) => Promise<ToolOutput>;
  /** Frees what was taken before the child started (a resumed child's lock) when it never starts. */
  cancel?: () => void;
}

/** Runs `job` under `children` (see the module comment); resolves with what the `task` call returns. */
export async function runChildJob(children: BackgroundChildren, slots: Semaphore, job: ChildJob, ctx: ToolContext): Promise<ToolOutput> {
  const link = new AbortController();
  let attached = !job.background;
  const onParentAbort = () => {
    if (attached) link.abort(ctx.signal.reason);
  };
  if (attached) {
    if (ctx.signal.aborted) link.abort(ctx.signal.reason);
    else ctx.signal.addEventListener("abort", onParentAbort, { once: true });
  }
  const signal = AbortSignal.any([children.signal, link.signal]);
  let sink: ((event: AgentEvent) => void) | undefined = attached ? ctx.emit : children.emit;
  const jobCtx: ToolContext = { ...ctx, signal, emit: (event) => sink?.(event) };
  const tag = { childId: job.childId, parentToolCallId: ctx.toolCallId, profile: job.profile, prompt: job.prompt };
  let detached!: () => void;
  const movedAway = new Promise<"moved">((resolve) => (detached = () => resolve("moved")));
  children.register({
    childId: job.childId,
    profile: job.profile,
    ...(job.description ? { description: job.description } : {}),
    prompt: job.prompt,
    background: job.background,
    detach: () => {
      attached = false;
      ctx.signal.removeEventListener("abort", onParentAbort);
      sink = children.emit;
      children.emit({ type: "background_start", ...tag, by: "user" });
      detached();
    },
  });
  if (job.background) children.emit({ type: "background_start", ...tag, by: "call" });
  const result = (async (): Promise<ToolOutput> => {
    let release: () => void;
    try {
      release = await slots.acquire(signal);
    } catch {
      job.cancel?.();
      return abortedBeforeStartResult();
    }
    try {
      return await job.run(jobCtx);
    } finally {
      release();
    }
  })();
  const deliver = (out: ToolOutput) => {
    const status = statusOf(out);
    children.finish({ childId: job.childId, ...(job.profile ? { profile: job.profile } : {}), prompt: job.prompt, status, output: out.output, isError: out.isError }, out.details);
  };
  const crashed = (err: unknown): ToolOutput => ({ output: `[task] child failed: ${err instanceof Error ? err.message : String(err)}`, isError: true });
  if (job.background) {
    void result.catch(crashed).then(deliver);
    return startedInBackgroundResult(job.childId, { saved: job.saved });
  }
  const first = await Promise.race([result.then((out) => ({ out }), (err: unknown) => ({ out: crashed(err) })), movedAway]);
  if (first !== "moved") {
    ctx.signal.removeEventListener("abort", onParentAbort);
    children.forget(job.childId);
    return first.out;
  }
  void result.catch(crashed).then(deliver);
  return movedToBackgroundResult(job.childId, { saved: job.saved });
}

/** The child's status from its `task` result's details (taskRecord), else from isError. */
function statusOf(out: ToolOutput): string {
  const record = (out.details as { taskRecord?: { status?: string } } | undefined)?.taskRecord;
  return record?.status ?? (out.isError ? "crash" : "ok");
}
