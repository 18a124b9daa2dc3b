/**
 * The usage ledger: every token the session tree spent, keyed by the agent that spent it (`main`,
 * or a child's id and the `task` call of its run) and the model it ran on. It is the one source of
 * the session's figures — the status bar's tokens and cost, each `/cost` row, a child's summary
 * cost and the session tree's budget all read it — and the session saves each addition (a `usage`
 * entry naming agent, run and model), so a resumed session reads back the same rows and shows the
 * same figures. A row is priced by its own model (core/pricing.ts); a tally is partial (`+`) only
 * when a row with tokens has a model without a known price.
 */
import { addUsage, emptyUsage, totalTokens, type Usage } from "../protocol/messages.js";
import { addCost, emptyCost, type CostTally } from "./pricing.js";
import { MAIN_SPENDER, type SpendRow, type Spender } from "../protocol/spend.js";

export { MAIN_SPENDER, type SpendRow, type Spender };

/** Which rows a figure covers; every row when absent. */
export type SpendFilter = (row: SpendRow) => boolean;

function keyOf(s: Spender): string {
  return `${s.agent}\u0000${s.run ?? ""}\u0000${s.model ?? ""}`;
}

function hasTokens(u: Usage): boolean {
  return totalTokens(u) > 0;
}

/** The rows of a spender: `main`'s, or one child run's (`run` absent: every run of `agent`). */
export function spentBy(agent: string, run?: string): SpendFilter {
  return (r) => r.agent === agent && (run === undefined || r.run === run);
}

/** Cost of `rows` (those `filter` keeps), each priced by its own model. */
export function tallyOf(rows: readonly SpendRow[], filter?: SpendFilter): CostTally {
  let tally = emptyCost();
  for (const r of rows) if (!filter || filter(r)) tally = addCost(tally, r.model, r.usage);
  return tally;
}

/** Tokens of `rows` (those `filter` keeps), summed. */
export function usageOf(rows: readonly SpendRow[], filter?: SpendFilter): Usage {
  const u = emptyUsage();
  for (const r of rows) if (!filter || filter(r)) addUsage(u, r.usage);
  return u;
}

export class UsageLedger {
  private readonly byKey = new Map<string, SpendRow>();
  private readonly listeners = new Set<(spender: Spender, usage: Usage) => void>();
  private snapshot?: readonly SpendRow[];

  /** A ledger holding `rows`. */
  static of(rows: readonly SpendRow[]): UsageLedger {
    const ledger = new UsageLedger();
    ledger.restore(rows);
    return ledger;
  }

  /** Adds `rows` read back from a saved session, without telling the listeners (they are saved already). */
  restore(rows: readonly SpendRow[]): void {
    for (const r of rows) this.put(r, r.usage);
  }

  /** Counts `usage` spent by `spender`; listeners hear of it (usage with no tokens changes nothing). */
  add(spender: Spender, usage: Usage): void {
    if (!hasTokens(usage)) return;
    this.put(spender, usage);
    const who: Spender = { agent: spender.agent, ...(spender.run !== undefined ? { run: spender.run } : {}), ...(spender.model !== undefined ? { model: spender.model } : {}) };
    for (const l of [...this.listeners]) l(who, { ...usage });
  }

  private put(spender: Spender, usage: Usage): void {
    if (!hasTokens(usage)) return;
    const key = keyOf(spender);
    const row = this.byKey.get(key);
    if (row) addUsage(row.usage, usage);
    else this.byKey.set(key, { agent: spender.agent, ...(spender.run !== undefined ? { run: spender.run } : {}), ...(spender.model !== undefined ? { model: spender.model } : {}), usage: { ...emptyUsage(), ...usage } });
    this.snapshot = undefined;
  }

  /** The rows now, as an immutable snapshot (the same array until the next addition). */
  rows(): readonly SpendRow[] {
    this.snapshot ??= Object.freeze([...this.byKey.values()].map((r) => Object.freeze({ ...r, usage: Object.freeze({ ...r.usage }) })));
    return this.snapshot as SpendRow[];
  }

  /** Cost of the rows `filter` keeps (all without one). */
  cost(filter?: SpendFilter): CostTally {
    return tallyOf(this.rows(), filter);
  }

  /** Tokens of the rows `filter` keeps, by kind. */
  usage(filter?: SpendFilter): Usage {
    return usageOf(this.rows(), filter);
  }

  /** Every token of the rows `filter` keeps. */
  tokens(filter?: SpendFilter): number {
    return totalTokens(this.usage(filter));
  }

  /** Calls `listener` with each addition (who spent, and how much); returns the unsubscribe function. */
  subscribe(listener: (spender: Spender, usage: Usage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
