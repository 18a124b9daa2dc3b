/**
 * The session tree's budget (settings `maxTokens` / `maxCostUsd`): one meter for the main agent
 * and every child of the session. When it is reached, every new model request of any agent waits
 * for one shared question (extend or stop); with nobody to ask, every request stops. A "stop"
 * holds for the rest of the current main run (children still going stop at their next request);
 * the person's next prompt asks again.
 */
import type { AgentEvent, AgentInfo } from "../protocol/events.js";
import type { Usage } from "../protocol/messages.js";
import { abortable, askUntilUnder, BudgetMeter, formatAmount, type AskBudget, type BudgetKind, type BudgetLimits, type GateResult } from "./budget.js";

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

  constructor(limits: BudgetLimits) {
    this.meter = new BudgetMeter(limits);
  }

  /** The limits now (an extension raises them). */
  get limits(): Readonly<BudgetLimits> {
    return this.meter.limits;
  }

  /** True when the settings set a limit. */
  get active(): boolean {
    return this.meter.active;
  }

  /** Counts usage of any agent of the tree on `model`. */
  add(model: string | undefined, usage: Usage): void {
    if (!this.active) return;
    this.meter.add(model, usage);
    this.changed();
  }

  /** A new main run: a "stop" answered earlier no longer holds. */
  newRun(): void {
    this.stopped = undefined;
  }

  /**
   * Called before each model request of `agent`: resolves undefined to go on, or the reason to
   * stop. Several agents reaching the budget at once share one question.
   */
  async gate(agent: AgentInfo, turns: number, signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<GateResult> {
    if (!this.active || signal.aborted) return undefined;
    if (this.stopped) return { stop: this.stopped };
    const reached = this.meter.reached();
    if (!reached) return undefined;
    if (!this.question) {
      const asked = askUntilUnder({ meter: this.meter, scope: "tree", agent, turns, ask: this.ask, signal, emit });
      this.question = asked;
      const result = await asked;
      this.question = undefined;
      if (result) this.stopped = result.stop;
      this.changed();
      return result;
    }
    // Another agent's question is open: this one waits for the same answer.
    emit({ type: "budget_paused", scope: "tree", budget: reached.text, spent: formatAmount(reached.kind, reached.spent), asking: this.ask !== undefined });
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
    const again = await this.gate(agent, turns, signal, emit);
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
