/**
 * ApprovalBroker: the bridge between the core's `ask(call, agent)` (called from deep inside a
 * run, possibly by several children at once) and the modal line in the UI. Requests queue up and
 * are shown one at a time; "always" remembers the tool name for the rest of the session (except
 * for firm questions: an ask rule, secrets, a change outside the working directory); "save"
 * (when the person chooses it) writes the call's rule (`savableRule`) to the user's settings and
 * allows that rule's calls for the rest of the session too.
 */
import { savableRule } from "../../src/permissions/save-rule.js";
import { editContext, type EditContext } from "../../src/tools/edit-context.js";
import type { AgentInfo } from "../../src/protocol/events.js";
import type { ToolCall } from "../../src/protocol/messages.js";
import type { ToolDecision } from "../../src/core/tool-runner.js";
import type { AskReason } from "../../src/core/approval.js";

/** One pending question. */
export interface ApprovalRequest {
  id: number;
  call: ToolCall;
  agent: AgentInfo;
  /** The allow rule "save" would write to the user's settings; absent when saving is not offered. */
  rule?: string;
  /** A firm question (ask rule, secrets, a change outside the cwd): "always" for the tool never answers it. */
  firm?: boolean;
  /** An `edit` call's surrounding lines, read from its file when asked (see src/tools/edit-context.ts). */
  context?: EditContext;
}

/** Tool calls waiting for the person's answer: their ids, and whether the main agent asks. */
export interface WaitingCalls {
  calls: ReadonlySet<string>;
  main: boolean;
}

/** The person's answer to a request. */
export type ApprovalAnswer = "yes" | "no" | "always" | "save";

export interface ApprovalBrokerOptions {
  /** Saves an allow rule to the user's settings (e.g. `saveUserRule(inkHome, rule)`); may throw naming the file. Without it "save" acts like "yes". */
  saveRule?: (rule: string) => void;
  /** The main agent's working directory (a child's request carries its own), for path rules. */
  cwd?: string;
}

interface Pending extends ApprovalRequest {
  resolve: (decision: ToolDecision) => void;
}

export class ApprovalBroker {
  private readonly queue: Pending[] = [];
  private readonly always = new Set<string>();
  private readonly saved = new Set<string>();
  private readonly problems: string[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor(private readonly options: ApprovalBrokerOptions = {}) {}

  private ruleFor(call: ToolCall, agent: AgentInfo): string | undefined {
    if (!this.options.saveRule) return undefined;
    return savableRule(call, agent.cwd ?? this.options.cwd ?? process.cwd());
  }

  /** Rules that could not be saved, each with the reason (the call was still allowed). */
  saveProblems(): readonly string[] {
    return this.problems;
  }

  /** The `ApprovalOptions.ask` to give the session: resolves when the person answers. */
  readonly ask = (call: ToolCall, agent: AgentInfo, why?: AskReason): Promise<ToolDecision> => {
    const firm = why?.firm === true;
    if (!firm && this.always.has(call.name)) return Promise.resolve({ allow: true });
    const rule = this.ruleFor(call, agent);
    if (!firm && rule !== undefined && this.saved.has(rule)) return Promise.resolve({ allow: true });
    const args = call.arguments as Record<string, unknown>;
    const context = call.name === "edit" && typeof args.path === "string" && typeof args.oldText === "string" ? editContext(args.path, args.oldText, agent.cwd ?? this.options.cwd ?? process.cwd()) : undefined;
    return new Promise<ToolDecision>((resolve) => {
      this.queue.push({ id: this.nextId++, call, agent, resolve, ...(rule !== undefined ? { rule } : {}), ...(firm ? { firm } : {}), ...(context ? { context } : {}) });
      this.notify();
    });
  };

  /** The request to show now (stable identity until it changes). */
  current(): ApprovalRequest | undefined {
    return this.queue[0];
  }

  /** How many requests wait behind the current one. */
  waitingCount(): number {
    return Math.max(0, this.queue.length - 1);
  }

  /** Tool names the person allowed for the rest of the session. */
  alwaysAllowed(): string[] {
    return [...this.always];
  }

  /** Answers request `id` (a "no" may carry the person's `reason`, passed to the model); "always" also answers every queued request for the same tool, "save" every queued request its rule covers. */
  answer(id: number, answer: ApprovalAnswer, reason?: string): void {
    const index = this.queue.findIndex((p) => p.id === id);
    if (index < 0) return;
    const [pending] = this.queue.splice(index, 1);
    if (answer === "no" && reason) {
      pending!.resolve({ allow: false, reason: `the user declined this ${pending!.call.name} call and said: ${reason}` });
    } else if (answer === "no") {
      pending!.resolve({ allow: false, reason: `the user declined this ${pending!.call.name} call; do not retry it unchanged — continue without it or ask the user` });
    } else {
      pending!.resolve({ allow: true });
      const rule = answer === "save" ? pending!.rule : undefined;
      if (rule !== undefined) this.saveNow(rule);
      if (answer === "always") {
        this.always.add(pending!.call.name);
        for (const other of this.queue.filter((p) => p.call.name === pending!.call.name && !p.firm)) {
          this.queue.splice(this.queue.indexOf(other), 1);
          other.resolve({ allow: true });
        }
      }
    }
    this.notify();
  }

  private saveNow(rule: string): void {
    this.saved.add(rule);
    try {
      this.options.saveRule!(rule);
    } catch (err) {
      this.problems.push(`the rule ${rule} was not saved: ${(err as Error).message}`);
    }
    for (const other of this.queue.filter((p) => p.rule === rule && !p.firm)) {
      this.queue.splice(this.queue.indexOf(other), 1);
      other.resolve({ allow: true });
    }
  }

  /** Refuses every pending request with `reason` (e.g. the run was stopped). */
  cancelAll(reason: string): void {
    if (this.queue.length === 0) return;
    for (const pending of this.queue.splice(0)) pending.resolve({ allow: false, reason });
    this.notify();
  }

  /** Calls `listener` whenever the queue changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ids of the agents ("main" or a child's id) with a question waiting (a new set after each change). */
  waiting(): ReadonlySet<string> {
    return this.waitingIds;
  }

  /** The tool calls waiting for an answer (the shown one and those queued behind it), and whether one is the main agent's. */
  waitingCalls(): WaitingCalls {
    return this.waitingCallIds;
  }

  private waitingIds: ReadonlySet<string> = new Set();
  private waitingCallIds: WaitingCalls = { calls: new Set(), main: false };

  private notify(): void {
    this.waitingIds = new Set(this.queue.map((p) => p.agent.id));
    this.waitingCallIds = { calls: new Set(this.queue.map((p) => p.call.id)), main: this.queue.some((p) => p.agent.depth === 0) };
    for (const listener of [...this.listeners]) listener();
  }
}
