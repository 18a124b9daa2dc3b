/**
 * The control channel's dispatcher: each parsed command is the op of the same name
 * (src/protocol/ops.ts), submitted to the AgentSession (`submit`) as every front end does, and
 * answered with one `response` line. Prompts run one at a time in the order sent (a prompt sent during a run
 * waits for it); every event of every run goes to the output as Ink emits it.
 */
import type { SessionClient } from "../host/session-client.js";
import type { AgentEvent } from "../protocol/events.js";
import { errorMessage } from "../protocol/error-message.js";
import { parseCommandLine, type CommandId, type RpcCommand } from "./commands.js";
import type { RpcApprovals } from "./approvals.js";
import { ChildList } from "./children.js";
import { describeMerge } from "../merge/merge-queue.js";
import type { RpcOutput } from "./output.js";

interface QueuedPrompt {
  text: string;
  id: CommandId;
}

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

export class RpcDispatcher {
  private readonly queue: QueuedPrompt[] = [];
  /** The prompt running now. */
  private current?: Run;
  /** Children resumed with `resume_child`, while they run. */
  private readonly resumes = new Set<Run>();
  private readonly children: ChildList;
  private closing = false;
  private pump?: Promise<void>;
  /** True while runQueue's loop runs (cleared synchronously when it finds the queue empty). */
  private pumping = false;
  private resumeCount = 0;

  constructor(
    private readonly session: SessionClient,
    private readonly out: RpcOutput,
    private readonly approvals: RpcApprovals,
  ) {
    this.children = new ChildList(session.submit({ type: "list_task_records" }));
  }

  /** Every event of a run: counted for `list_children`, then written out. */
  private readonly onEvent = (event: AgentEvent): void => {
    this.children.see(event);
    this.out.send(event);
  };

  /** Handles one stdin line (blank lines are ignored); never throws. */
  handleLine(line: string): void {
    if (line.trim() === "") return;
    const parsed = parseCommandLine(line);
    if (!parsed.ok) return this.out.fail(parsed.command, parsed.id, parsed.error);
    try {
      this.run(parsed.command);
    } catch (err) {
      this.out.fail(parsed.command.type, parsed.command.id, errorMessage(err));
    }
  }

  private run(c: RpcCommand): void {
    const out = this.out;
    switch (c.type) {
      case "prompt": {
        if (this.closing) return out.fail(c.type, c.id, "the session is closing; no new prompt is taken");
        const queued = this.current !== undefined || this.queue.length > 0;
        this.queue.push({ text: c.text, id: c.id });
        out.ok(c.type, c.id, { queued });
        if (!this.pumping) this.pump = this.runQueue();
        return;
      }
      case "steer": {
        if (c.child !== undefined) {
          if (this.session.submit({ type: "steer", text: c.text, child: c.child })) return out.ok(c.type, c.id, { child: c.child });
          return out.fail(c.type, c.id, `child "${c.child}" is not running (${this.runningList()}); use resume_child to continue a finished child`);
        }
        if (this.session.submit({ type: "steer", text: c.text })) return out.ok(c.type, c.id);
        return out.fail(c.type, c.id, 'the main agent is not running; send the text as {"type":"prompt"} instead');
      }
      case "abort": {
        if (c.child !== undefined) {
          if (!this.session.submit({ type: "abort", child: c.child })) return out.fail(c.type, c.id, `child "${c.child}" is not running (${this.runningList()})`);
          this.approvals.cancel(`subagent ${c.child} was stopped`, c.child);
          return out.ok(c.type, c.id, { child: c.child });
        }
        const dropped = this.stopAll("the run was aborted");
        return out.ok(c.type, c.id, { dropped });
      }
      case "approve":
      case "deny": {
        // An answer that cannot be given (no such request) throws; handleLine answers with its reason.
        this.session.submit(c.type === "approve" ? { type: "approve", requestId: c.requestId } : { type: "deny", requestId: c.requestId, reason: c.reason });
        return out.ok(c.type, c.id, { requestId: c.requestId });
      }
      case "get_state":
        return out.ok(c.type, c.id, this.state());
      case "list_children":
        return out.ok(c.type, c.id, { children: this.children.list() });
      case "resume_child": {
        if (this.closing) return out.fail(c.type, c.id, "the session is closing; no child is resumed");
        if (this.runningChildren().includes(c.child)) return out.fail(c.type, c.id, `child "${c.child}" is running; send it a message with {"type":"steer","child":"${c.child}"}`);
        const toolCallId = `rpc-resume-${++this.resumeCount}`;
        out.ok(c.type, c.id, { child: c.child, toolCallId });
        this.startResume(c.child, c.text, toolCallId, c.id);
        return;
      }
      case "list_branches":
        void this.session.submit({ type: "list_branches" }).then(
          (branches) => out.ok(c.type, c.id, { branches }),
          (err) => out.fail(c.type, c.id, errorMessage(err)),
        );
        return;
      case "merge": {
        if (this.current !== undefined) return out.fail(c.type, c.id, "a prompt is running; wait for its prompt_end (or abort it) before merging");
        void this.session.submit({ type: "merge", branches: c.branches, squash: c.squash, allowDirty: c.allowDirty }).then((o) =>
          o.ok ? out.ok(c.type, c.id, { message: describeMerge(o), merged: o.merged, leftovers: o.leftovers }) : out.send({ type: "response", command: c.type, ...(c.id !== undefined ? { id: c.id } : {}), success: false, error: describeMerge(o), merged: o.merged, conflict: o.conflict ?? null }),
        );
        return;
      }
      case "merge_hand": {
        if (this.closing) return out.fail(c.type, c.id, "the session is closing; no conflict is handed on");
        if (this.current !== undefined) return out.fail(c.type, c.id, "a prompt is running; wait for its prompt_end (or abort it) before handing a conflict on");
        // The child's run streams as subagent events under this toolCallId; the response comes when the merge that follows it ends.
        const toolCallId = `rpc-merge-hand-${++this.resumeCount}`;
        const controller = new AbortController();
        const run: Run = { controller, done: Promise.resolve() };
        run.done = this.session
          .submit({ type: "merge_hand" }, { signal: controller.signal, onEvent: this.onEvent, toolCallId })
          .then(({ handed, outcome: o }) => {
            const child = handed ? { toolCallId, childError: handed.isError ? handed.content : null } : {};
            if (o.ok) out.ok(c.type, c.id, { message: describeMerge(o), merged: o.merged, leftovers: o.leftovers, ...child });
            else out.send({ type: "response", command: c.type, ...(c.id !== undefined ? { id: c.id } : {}), success: false, error: describeMerge(o), merged: o.merged, conflict: o.conflict ?? null, ...child });
          })
          .finally(() => this.resumes.delete(run));
        this.resumes.add(run);
        return;
      }
      case "list_turns":
        void this.session.submit({ type: "list_turns" }).then(
          (turns) => out.ok(c.type, c.id, { turns: turns.map(({ turn, prompt, at, changes }) => ({ turn, prompt, at, changes })) }),
          (err) => out.fail(c.type, c.id, errorMessage(err)),
        );
        return;
      case "rewind": {
        if (this.current !== undefined || this.queue.length > 0) return out.fail(c.type, c.id, "a prompt is running or queued; abort it (or wait for its prompt_end) before rewinding");
        const { turn, files, conversation, force, stopChildren } = c;
        void this.session.submit({ type: "rewind", turn, files, conversation, force, stopChildren }).then((r) =>
          r.ok ? out.ok(c.type, c.id, { message: r.message, restored: r.restored, kept: r.kept ?? null, stoppedChildren: r.children }) : out.send({ type: "response", command: c.type, ...(c.id !== undefined ? { id: c.id } : {}), success: false, error: r.message, changedSince: r.changedSince, runningChildren: r.children }),
        );
        return;
      }
      default:
        // A command added to RPC_OP_TYPES without a case here fails to compile.
        return c satisfies never;
    }
  }

  private runningChildren(): string[] {
    return this.session.submit({ type: "get_state" }).runningChildren;
  }

  private runningList(): string {
    const ids = this.runningChildren();
    return ids.length > 0 ? `running: ${ids.join(", ")}` : "no child is running";
  }

  /** What `get_state` answers. */
  private state(): object {
    const s = this.session.submit({ type: "get_state" });
    return {
      sessionId: s.sessionId,
      sessionPath: s.sessionPath,
      cwd: s.cwd,
      provider: s.provider,
      model: s.model,
      permissionMode: s.permissionMode,
      running: this.current !== undefined,
      queuedPrompts: this.queue.length,
      runningChildren: s.runningChildren,
      pendingApprovals: this.approvals.waiting,
    };
  }

  /** Runs the queued prompts one after another. */
  private async runQueue(): Promise<void> {
    this.pumping = true;
    try {
      await this.drainQueue();
    } finally {
      this.pumping = false;
    }
  }

  private async drainQueue(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      const controller = new AbortController();
      let finish!: () => void;
      const run: Run = { controller, done: new Promise<void>((r) => (finish = r)) };
      this.current = run;
      try {
        await this.session.submit({ type: "start_mcp" });
        const result = await this.session.submit({ type: "prompt", text: next.text }, { signal: controller.signal, onEvent: this.onEvent });
        this.out.send({ type: "prompt_end", ...(next.id !== undefined ? { id: next.id } : {}), reason: result.reason, turns: result.turns });
      } catch (err) {
        const reason = controller.signal.aborted ? "aborted" : "error";
        this.out.send({ type: "prompt_end", ...(next.id !== undefined ? { id: next.id } : {}), reason, error: errorMessage(err) });
      } finally {
        this.current = undefined;
        finish();
      }
    }
  }

  private startResume(childId: string, text: string, toolCallId: string, id: CommandId): void {
    const controller = new AbortController();
    const run: Run = { controller, done: Promise.resolve() };
    run.done = this.session
      .submit({ type: "resume_child", child: childId, text }, { signal: controller.signal, onEvent: this.onEvent, toolCallId })
      // A refusal (unknown child, a mismatch, a live lock) comes back as an error result: its text says why.
      .then((result) => this.out.send({ type: "resume_end", ...(id !== undefined ? { id } : {}), child: childId, toolCallId, isError: result.isError, ...(result.isError ? { error: result.content } : {}) }))
      .finally(() => this.resumes.delete(run));
    this.resumes.add(run);
  }

  /** Stops the prompt running now, drops the queued ones and stops resumed children; returns how many queued prompts were dropped. */
  private stopAll(why: string): number {
    const dropped = this.queue.splice(0).length;
    this.current?.controller.abort();
    for (const r of this.resumes) r.controller.abort();
    this.approvals.cancel(why);
    return dropped;
  }

  /**
   * Ends the session's work (stdin closed, or a signal): no new command is taken, the running
   * prompt and children are stopped (children stay resumable), waiting approvals are denied.
   * Resolves when every run has returned.
   */
  async shutdown(why: string): Promise<void> {
    this.closing = true;
    this.stopAll(why);
    this.approvals.close(why);
    await Promise.all([this.pump, this.current?.done, ...[...this.resumes].map((r) => r.done)]);
  }
}
