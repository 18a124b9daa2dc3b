/**
 * The session tree's budget (settings `maxTokens` / `maxCostUsd`): one meter for the main agent
 * and every child of the session. When it is reached — or an agent's next request would cross it:
 * what was spent, plus the estimates of the requests other agents have in flight, plus this
 * request's estimate — the request waits for one shared question (extend or stop), so parallel
 * agents share what is left and overshoot by at most what their requests in flight exceed their
 * estimates (never more than one request in flight per agent). A request's estimate is the request
 * as it will be sent: the agent's last reply's usage plus what its history gained since (tool
 * results; core/token-estimate.ts estimateNextRequest); an agent's first request is estimated as
 * the latest first request of any agent (the tree's very first request has no estimate). With
 * nobody to ask, every request stops. A "stop"
 * holds for the rest of the current main run (children still going stop at their next request);
 * the person's next prompt asks again.
 */
import type { AgentEvent, AgentInfo } from "../../protocol/events.js";
import { totalTokens, type Usage } from "../../protocol/messages.js";
import { costOf } from "../../core/pricing.js";
import { MAIN_SPENDER, UsageLedger } from "../../core/usage-ledger.js";
import { abortable, askUntilUnder, pausedEvent, BudgetMeter, formatAmount, type AskBudget, type BudgetKind, type BudgetLimits, type GateResult, type ReachedBudget } from "./budget.js";

/** One request's size in both measures. */
interface RequestSize {
  tokens: number;
  usd: number;
}

/** An agent's next request as its caller estimates it: on `model`, of about `usage` (estimateNextRequest). */
export interface NextRequest {
  model: string | undefined;
  usage: Usage;
}

/** What the status bar shows: the spend against the limit (`$0.42 / $2.00`). */
export interface TreeBudgetView {
  text: string;
  reached: boolean;
}

export class TreeBudget {
  readonly meter: BudgetMeter;
  /** Who answers the question now (the TUI sets one); undefined: nobody, requests stop. */
  ask?: AskBudget;
  private question?: Promise<GateResult>;
  private stopped?: string;
  private readonly listeners = new Set<() => void>();
  private shown?: TreeBudgetView;
  /** Each agent's last request (its estimate for the next one). */
  private readonly lastRequest = new Map<string, RequestSize>();
  /** The latest first request of any agent: the estimate for an agent that has sent none yet. */
  private firstRequest?: RequestSize;
  /** What each agent let through by the gate has in flight (its estimate), until its usage arrives. */
  private readonly inFlight = new Map<string, RequestSize>();

  /** Every agent's spend (the session's usage ledger, see core/usage-ledger.ts): the meter reads it. */
  readonly ledger: UsageLedger;

  /** `ledger`: the session's (a resumed session's holds its earlier spend, which counts toward the limits). */
  constructor(limits: BudgetLimits, ledger: UsageLedger = new UsageLedger()) {
    this.ledger = ledger;
    this.meter = new BudgetMeter(limits, ledger);
  }

  /** The limits now (an extension raises them). */
  get limits(): Readonly<BudgetLimits> {
    return this.meter.limits;
  }

  /** True when the settings set a limit. */
  get active(): boolean {
    return this.meter.active;
  }

  /**
   * Counts usage of any agent of the tree on `model` in the session's ledger (with or without a
   * limit); `agentId`: whose request it reports (no longer in flight); `run`: a child's run (its `task` call id).
   */
  add(model: string | undefined, usage: Usage, agentId?: string, run?: string): void {
    this.ledger.add({ agent: agentId ?? MAIN_SPENDER, ...(run !== undefined ? { run } : {}), ...(model !== undefined ? { model } : {}) }, usage);
    if (!this.active) return;
    if (agentId !== undefined) {
      const size = { tokens: totalTokens(usage), usd: costOf(model, usage) ?? 0 };
      if (!this.lastRequest.has(agentId)) this.firstRequest = size;
      this.lastRequest.set(agentId, size);
      this.inFlight.delete(agentId);
    }
    this.changed();
  }

  /** `agentId` has no request in flight any more (its run ended). */
  settle(agentId: string): void {
    this.inFlight.delete(agentId);
  }

  /**
   * The size of `agentId`'s next request: the caller's estimate of it, else the agent's last
   * request, else the latest first request of any agent.
   */
  private sizeOf(agentId: string, next: NextRequest | undefined): RequestSize | undefined {
    if (!next) return this.lastRequest.get(agentId) ?? this.firstRequest;
    return { tokens: totalTokens(next.usage), usd: costOf(next.model, next.usage) ?? 0 };
  }

  /**
   * The limit `agent`'s next request (of `size`) must not be sent under: one reached already, or
   * one that what was spent, plus what the other agents have in flight, plus `size` would cross.
   */
  private over(agentId: string, next: RequestSize | undefined): ReachedBudget | undefined {
    const reached = this.meter.reached();
    if (reached) return reached;
    if (!next) return undefined;
    let tokens = this.meter.tokens + next.tokens;
    let usd = this.meter.cost.usd + next.usd;
    for (const [id, size] of this.inFlight) {
      if (id === agentId) continue;
      tokens += size.tokens;
      usd += size.usd;
    }
    const { maxTokens, maxCostUsd } = this.meter.limits;
    if (maxTokens !== undefined && tokens > maxTokens) return { kind: "tokens", limit: maxTokens, spent: this.meter.tokens, next: next.tokens, text: `budget of ${formatAmount("tokens", maxTokens)}` };
    if (maxCostUsd !== undefined && usd > maxCostUsd) return { kind: "cost", limit: maxCostUsd, spent: this.meter.cost.usd, next: next.usd, text: `budget of ${formatAmount("cost", maxCostUsd)}` };
    return undefined;
  }

  /** `agentId` was let through: its estimate counts as in flight until its usage arrives. */
  private letThrough(agentId: string, size: RequestSize | undefined): void {
    this.inFlight.set(agentId, size ?? { tokens: 0, usd: 0 });
  }

  /** A new main run: a "stop" answered earlier no longer holds. */
  newRun(): void {
    this.stopped = undefined;
  }

  /**
   * Called before each model request of `agent` (`next`: that request as its caller estimates it):
   * resolves undefined to go on, or the reason to stop. Several agents reaching the budget at once
   * share one question.
   */
  async gate(agent: AgentInfo, turns: number, signal: AbortSignal, emit: (event: AgentEvent) => void, next?: NextRequest): Promise<GateResult> {
    if (!this.active || signal.aborted) return undefined;
    if (this.stopped) return { stop: this.stopped };
    const size = this.sizeOf(agent.id, next);
    const reached = this.over(agent.id, size);
    if (!reached) {
      this.letThrough(agent.id, size);
      return undefined;
    }
    if (!this.question) {
      const asked = askUntilUnder({ meter: this.meter, over: () => this.over(agent.id, size), scope: "tree", agent, turns, ask: this.ask, signal, emit });
      this.question = asked;
      const result = await asked;
      this.question = undefined;
      if (result) this.stopped = result.stop;
      else if (!signal.aborted) this.letThrough(agent.id, size);
      this.changed();
      return result;
    }
    // Another agent's question is open: this one waits for the same answer.
    emit(pausedEvent("tree", reached, this.ask !== undefined));
    // Its own stop ends its wait (the question stays open for the others).
    let result: GateResult;
    try {
      result = await abortable(this.question, signal);
    } catch (err) {
      if (signal.aborted) return undefined; // stopped meanwhile: the caller's loop sees the abort
      throw err;
    }
    if (result) return result;
    // Extended — or the asking agent's run was aborted before an answer: check (and maybe ask) again.
    const again = await this.gate(agent, turns, signal, emit, next);
    if (!again && !signal.aborted) emit({ type: "resumed", early: true });
    return again;
  }

  /** What the tree has spent now in `kind`: `45.4k tokens`, or `$0.42` (`$0.42+` when some usage had no price). The status bar and the budget question both show this figure. */
  spent(kind: BudgetKind): string {
    return kind === "tokens" ? formatAmount("tokens", this.meter.tokens) : `${formatAmount("cost", this.meter.cost.usd)}${this.meter.cost.partial ? "+" : ""}`;
  }

  /** The spend against the limit (tokens or cost, whichever is set; cost first), or undefined without a limit. */
  view(): TreeBudgetView | undefined {
    const { maxTokens, maxCostUsd } = this.meter.limits;
    const text =
      maxCostUsd !== undefined
        ? `${this.spent("cost")} / ${formatAmount("cost", maxCostUsd)}`
        : maxTokens !== undefined
          ? `${this.spent("tokens").replace(/ tokens$/, "")} / ${formatAmount("tokens", maxTokens)}`
          : undefined;
    if (text === undefined) return undefined;
    const reached = this.meter.reached() !== undefined;
    if (!this.shown || this.shown.text !== text || this.shown.reached !== reached) this.shown = { text, reached };
    return this.shown;
  }

  /** Calls `listener` when the spend or the limit changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
