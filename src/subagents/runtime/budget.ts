/**
 * Budgets (issue #25 item 2): `maxTokens` and `maxCostUsd` for one child (profile front matter,
 * `task` arguments) and for the whole session tree (settings; see tree-budget.ts). A meter counts
 * what an agent spent; before each model request the gate checks it. A budget that is reached
 * pauses the agent and asks the person (extend by how much, or stop); with nobody to ask
 * (print mode, rpc, no question handler) the agent stops, resumable.
 *
 * Tokens are every token a usage record reports (input with cache reads and writes, plus
 * output) — what the status bar's ↑/↓ count. Cost is the price table's (core/pricing.ts).
 */
import { z } from "zod";
import type { AgentEvent, AgentInfo } from "../../protocol/events.js";
import { COST_HINT, TOKEN_HINT } from "../../protocol/field-parsers.js";
import { parseCostBudget, parseTokenBudget } from "../../protocol/field-parsers.js";
export { parseCostBudget, parseTokenBudget };
import { totalTokens, type Usage } from "../../protocol/messages.js";
import { addCost, emptyCost, priceOf, type CostTally } from "../../core/pricing.js";
import type { UsageLedger } from "../../core/usage-ledger.js";

/** The limits of one budget; an absent limit is no limit. */
export interface BudgetLimits {
  maxTokens?: number;
  maxCostUsd?: number;
}

export type BudgetKind = "tokens" | "cost";

/** A limit that was reached: which, its amount and what was spent. */
export interface ReachedBudget {
  kind: BudgetKind;
  limit: number;
  spent: number;
  /** "budget of 50k tokens" / "budget of $2.00". */
  text: string;
  /**
   * Set when the budget is not reached yet but the agent's next request would cross it: that
   * request's estimate (tokens or USD), added to `spent` and to what other agents have in flight.
   */
  next?: number;
}

/** The `budget_paused` event for `reached`. */
export function pausedEvent(scope: "child" | "tree", reached: ReachedBudget, asking: boolean): AgentEvent {
  const event: AgentEvent = { type: "budget_paused", scope, budget: reached.text, spent: formatAmount(reached.kind, reached.spent), asking };
  return reached.next === undefined ? event : { ...event, next: formatAmount(reached.kind, reached.next) };
}

/** "budget of 50k tokens reached", or "… would be crossed by the next request (about 600 tokens)": what a `budget_paused` event says. */
export function pausedText(event: { budget: string; next?: string }): string {
  return `${event.budget} ${event.next === undefined ? "reached" : `would be crossed by the next request (about ${event.next})`}`;
}

/** Why an agent stops at `reached`: "budget of 50k tokens reached", or that its next request would cross it. */
export function reachedReason(reached: ReachedBudget): string {
  if (reached.next === undefined) return `${reached.text} reached`;
  return `${reached.text} would be crossed by the next request (about ${formatAmount(reached.kind, reached.next)}; ${formatAmount(reached.kind, reached.spent)} spent)`;
}

/** The question put to the person when a budget is reached. */
export interface BudgetQuestion {
  /** "child": one child's own budget; "tree": the session's (every agent waits for the answer). */
  scope: "child" | "tree";
  /** The agent whose request found the budget reached. */
  agent: AgentInfo;
  reached: ReachedBudget;
  /** Turns the agent has taken in this run. */
  turns: number;
}

/** Extend the budget by `add` (tokens or USD, the reached budget's kind), or stop. */
export type BudgetAnswer = { add: number } | "stop";

/** Asks the person; resolves with the answer (rejects or never resolves when `signal` aborts). */
export type AskBudget = (question: BudgetQuestion, signal: AbortSignal) => Promise<BudgetAnswer>;

/** `50k tokens`, `1.5M tokens`, `800 tokens`. */
export function formatTokenAmount(n: number): string {
  const text = n < 1000 ? String(Math.round(n)) : n < 1_000_000 ? `${trim(n / 1000)}k` : `${trim(n / 1_000_000)}M`;
  return `${text} tokens`;
}

/** `$2.00`, `$0.0042` under a cent. */
export function formatUsd(n: number): string {
  return `$${n >= 0.01 || n === 0 ? n.toFixed(2) : n.toFixed(4)}`;
}

function trim(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** An amount of `kind` for the person: `50k tokens` or `$2.00`. */
export function formatAmount(kind: BudgetKind, n: number): string {
  return kind === "tokens" ? formatTokenAmount(n) : formatUsd(n);
}

/** The `task` argument schemas (numbers only; the messages name the fix). */
export const taskBudgetFields = {
  maxTokens: z
    .number({ error: `must be a number; ${TOKEN_HINT.replace(/, or .*$/, "")}` })
    .int(`must be a whole number; ${TOKEN_HINT.replace(/, or .*$/, "")}`)
    .positive(`must be more than 0; ${TOKEN_HINT.replace(/, or .*$/, "")}`)
    .optional()
    .describe("A token budget for this child (input incl. cache + output, all its turns); when reached it pauses and the person may extend or stop it"),
  maxCostUsd: z
    .number({ error: "must be a number; write an amount in US dollars above 0 such as 2 or 0.5" })
    .positive("must be more than 0; write an amount in US dollars such as 2 or 0.5")
    .optional()
    .describe("A cost budget for this child in US dollars; when reached it pauses and the person may extend or stop it"),
};

/** What one agent (or the tree) spent, against its limits. */
export class BudgetMeter {
  private ownTokens = 0;
  private ownCost: CostTally = emptyCost();
  readonly limits: BudgetLimits;

  /** `ledger`: read the spend from it (the session tree's meter) instead of counting its own. */
  constructor(
    limits: BudgetLimits,
    private readonly ledger?: UsageLedger,
  ) {
    this.limits = { ...limits };
  }

  /** Tokens spent. */
  get tokens(): number {
    return this.ledger ? this.ledger.tokens() : this.ownTokens;
  }

  /** Cost spent (partial when some usage had no price). */
  get cost(): CostTally {
    return this.ledger ? this.ledger.cost() : this.ownCost;
  }

  /** True when any limit is set. */
  get active(): boolean {
    return this.limits.maxTokens !== undefined || this.limits.maxCostUsd !== undefined;
  }

  /** Counts `usage` spent on `model`. */
  add(model: string | undefined, usage: Usage): void {
    if (this.ledger) return; // the ledger counts it
    this.ownTokens += totalTokens(usage);
    this.ownCost = addCost(this.ownCost, model, usage);
  }

  /** The first limit reached (spent ≥ limit), or undefined. */
  reached(): ReachedBudget | undefined {
    const { maxTokens, maxCostUsd } = this.limits;
    if (maxTokens !== undefined && this.tokens >= maxTokens) return reachedOf("tokens", maxTokens, this.tokens);
    if (maxCostUsd !== undefined && this.cost.usd >= maxCostUsd) return reachedOf("cost", maxCostUsd, this.cost.usd);
    return undefined;
  }

  /** Raises the reached limit of `kind`: `add` on top of what was spent (or of the limit, when more). */
  extend(kind: BudgetKind, add: number): void {
    if (kind === "tokens") this.limits.maxTokens = Math.max(this.limits.maxTokens ?? 0, this.tokens) + Math.max(1, Math.round(add));
    else this.limits.maxCostUsd = Math.max(this.limits.maxCostUsd ?? 0, this.cost.usd) + Math.max(0.0001, add);
  }
}

function reachedOf(kind: BudgetKind, limit: number, spent: number): ReachedBudget {
  return { kind, limit, spent, text: `budget of ${formatAmount(kind, limit)}` };
}

/** The "+50%" / "2×" extensions of `limit` as amounts to add (see BudgetMeter.extend). */
export function presetExtensions(limit: number): { half: number; double: number } {
  return { half: limit / 2, double: limit };
}

/**
 * Why a cost budget cannot be kept on `model` (it has no known price), or undefined when it can.
 * `who` names the budget's owner in the message.
 */
export function unpricedCostBudget(limits: BudgetLimits, model: string, who: string): string | undefined {
  if (limits.maxCostUsd === undefined || priceOf(model) !== undefined) return undefined;
  return `${who}: maxCostUsd needs a model with a known price, and "${model}" has none (its cost cannot be counted); use maxTokens instead`;
}

/**
 * Why a child on `model` cannot start under the session tree's cost budget `tree` (settings
 * `maxCostUsd`): the model has no known price, so its spend could not be counted toward it (as a
 * child's own cost budget refuses such a model). Undefined when it can start.
 */
export function unpricedTreeChild(tree: Readonly<BudgetLimits> | undefined, model: string): string | undefined {
  if (tree?.maxCostUsd === undefined || priceOf(model) !== undefined) return undefined;
  return `the session's cost budget (settings maxCostUsd) needs a model with a known price, and "${model}" has none (this child's cost could not be counted toward it); run the child on a model with a known price (the model argument), or the person sets maxTokens in settings instead of maxCostUsd`;
}

/** What a gate check decides before a request: go on, or stop with this reason. */
export type GateResult = { stop: string } | undefined;

/**
 * Puts `reached` to the person (when someone can be asked) until the meter is under its limits
 * again or the person stops; emits `budget_paused` / `resumed` around the wait. Without an asker
 * the result is a stop: "budget of 50k tokens reached". Resolves undefined when `signal` aborts
 * during the question (the caller's loop sees the abort).
 */
export async function askUntilUnder(o: {
  meter: BudgetMeter;
  /** What to ask about now (default: the meter's reached limit); the tree adds "the next request would cross it". */
  over?: () => ReachedBudget | undefined;
  scope: "child" | "tree";
  agent: AgentInfo;
  turns: number;
  ask?: AskBudget;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}): Promise<GateResult> {
  const over = o.over ?? (() => o.meter.reached());
  for (let reached = over(); reached; reached = over()) {
    const reason = `${o.scope === "tree" ? "the session's " : ""}${reachedReason(reached)}`;
    o.emit(pausedEvent(o.scope, reached, o.ask !== undefined));
    if (!o.ask) return { stop: reason };
    let answer: BudgetAnswer;
    try {
      answer = await abortable(o.ask({ scope: o.scope, agent: o.agent, reached, turns: o.turns }, o.signal), o.signal);
    } catch {
      return undefined; // aborted meanwhile
    }
    if (answer === "stop") return { stop: reason };
    o.meter.extend(reached.kind, answer.add);
    o.emit({ type: "resumed", early: true });
  }
  return undefined;
}

/** `promise`, or a rejection as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** A child's budget as runSubagent uses it: counts its usage, and checks before each request. */
export interface SubagentBudget {
  /** Counts one usage record of the child (its own meter and the tree's). */
  count(usage: Usage): void;
  /** Before a model request (`next`: its usage as estimated, see estimateNextRequest): undefined to go on, or why the child stops (see askUntilUnder). */
  check(signal: AbortSignal, turns: number, next?: () => Usage | undefined): Promise<GateResult>;
  /** The child's run ended: no request of it is in flight any more. */
  end(): void;
}

/** The tree's side of a child's budget (see tree-budget.ts). */
export interface TreeGate {
  /** The tree's limits now (a child on a model without a price is not started under a cost limit). */
  readonly limits?: Readonly<BudgetLimits>;
  /** True when the tree has a limit (else `gate` lets every request through). */
  readonly active: boolean;
  /** Counts `usage` on `model`; `agentId`: whose request it reports (that request is no longer in flight); `run`: the child's run (its `task` call id). */
  add(model: string | undefined, usage: Usage, agentId?: string, run?: string): void;
  /** `agentId` has no request in flight any more (its run ended). */
  settle(agentId: string): void;
  /** Before a request of `agent` (`next`: that request on its model, as estimated): undefined to go on, or why it stops. */
  gate(agent: AgentInfo, turns: number, signal: AbortSignal, emit: (event: AgentEvent) => void, next?: { model: string | undefined; usage: Usage }): Promise<GateResult>;
}

/**
 * The budget of one child run on `model`: its own `limits` (a fresh allowance each run) and the
 * session tree's. `ask` is read at each question (undefined: nobody to ask, the child stops).
 */
export function childBudget(o: { limits: BudgetLimits; model: string; agent: AgentInfo; run?: string; tree?: TreeGate; ask: () => AskBudget | undefined; emit: (event: AgentEvent) => void }): SubagentBudget {
  const meter = new BudgetMeter(o.limits);
  return {
    count(usage) {
      meter.add(o.model, usage);
      o.tree?.add(o.model, usage, o.agent.id, o.run);
    },
    end() {
      o.tree?.settle(o.agent.id);
    },
    async check(signal, turns, next) {
      const own = meter.active ? await askUntilUnder({ meter, scope: "child", agent: o.agent, turns, ask: o.ask(), signal, emit: o.emit }) : undefined;
      if (own || signal.aborted) return own;
      if (!o.tree?.active) return undefined;
      const usage = next?.(); // estimated only when the tree has a limit to hold it against
      return o.tree.gate(o.agent, turns, signal, o.emit, usage && { model: o.model, usage });
    },
  };
}

/**
 * A child run's limits: the `task` call's arguments, else (new child) its profile's, else (resumed
 * child) the budget saved in its header — a resumed run gets that allowance afresh.
 */
export function childLimits(args: BudgetLimits, profile: BudgetLimits | undefined, saved: BudgetLimits | undefined): BudgetLimits {
  const from = saved ?? profile ?? {};
  const limits: BudgetLimits = {};
  const maxTokens = args.maxTokens ?? from.maxTokens;
  const maxCostUsd = args.maxCostUsd ?? from.maxCostUsd;
  if (maxTokens !== undefined) limits.maxTokens = maxTokens;
  if (maxCostUsd !== undefined) limits.maxCostUsd = maxCostUsd;
  return limits;
}

/** The session tree's limits from settings values (numbers, or "500k" / "$5" strings; already validated). */
export function treeLimits(settings: { maxTokens?: number | string; maxCostUsd?: number | string }): BudgetLimits {
  const tokens = settings.maxTokens === undefined ? undefined : parseTokenBudget(settings.maxTokens);
  const cost = settings.maxCostUsd === undefined ? undefined : parseCostBudget(settings.maxCostUsd);
  return { ...(tokens?.ok ? { maxTokens: tokens.value } : {}), ...(cost?.ok ? { maxCostUsd: cost.value } : {}) };
}
