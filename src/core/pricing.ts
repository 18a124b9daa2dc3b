/**
 * Pricing: list prices of the Anthropic models (USD per million tokens) and the cost of a usage
 * record. A model id is matched by family prefix (a dated suffix, a `-latest` alias or a cloud
 * prefix such as `anthropic.` or `us.anthropic.` before `claude-` is fine); an id that matches no
 * family has no price, so no cost is ever shown for it rather than a wrong one.
 */
import type { Usage } from "../protocol/messages.js";

/** Prices in USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** Most specific prefix first: `claude-opus-4-5` must win over `claude-opus-4`. */
const PRICES: ReadonlyArray<readonly [prefix: string, price: ModelPrice]> = [
  ["claude-opus-4-6", { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  ["claude-opus-4-5", { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  ["claude-opus-4", { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ["claude-sonnet-4", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-haiku-4-5", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  ["claude-3-7-sonnet", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-3-5-sonnet", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-3-5-haiku", { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
  ["claude-3-opus", { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ["claude-3-haiku", { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }],
];

/** The price of `model`, or undefined when the id matches no known family. */
export function priceOf(model: string | undefined): ModelPrice | undefined {
  if (!model) return undefined;
  const id = model.toLowerCase();
  const at = id.indexOf("claude-");
  if (at < 0) return undefined;
  const bare = id.slice(at);
  for (const [prefix, price] of PRICES) {
    // A prefix matches at a boundary only: `claude-opus-4` must not match `claude-opus-40`.
    if (bare === prefix || (bare.startsWith(prefix) && /^[-@:]/.test(bare.slice(prefix.length)))) return price;
  }
  return undefined;
}

/** The cost in USD of `usage` on `model`, or undefined when the model has no known price. */
export function costOf(model: string | undefined, usage: Usage): number | undefined {
  const p = priceOf(model);
  if (!p) return undefined;
  return (usage.input * p.input + usage.output * p.output + usage.cacheWrite * p.cacheWrite + usage.cacheRead * p.cacheRead) / 1_000_000;
}

/** A running cost total: the known part in USD, and whether some usage had no known price. */
export interface CostTally {
  usd: number;
  /** Some counted usage had a model without a price (the total is then a lower bound). */
  partial: boolean;
  /** Anything was priced at all. */
  known: boolean;
}

/** A zero tally. */
export function emptyCost(): CostTally {
  return { usd: 0, partial: false, known: false };
}

/** A new tally: `tally` plus `usage` on `model` (usage with no tokens changes nothing). */
export function addCost(tally: CostTally, model: string | undefined, usage: Usage): CostTally {
  if (usage.input + usage.output + usage.cacheRead + usage.cacheWrite === 0) return tally;
  const c = costOf(model, usage);
  return c === undefined ? { ...tally, partial: true } : { usd: tally.usd + c, partial: tally.partial, known: true };
}

/** `$0.42` (`$0.0042` under a cent), `+` when part of the usage had no price; "" when nothing was priced. */
export function formatCost(tally: CostTally): string {
  if (!tally.known) return "";
  const usd = tally.usd;
  const text = usd >= 1 ? usd.toFixed(2) : usd >= 0.01 ? usd.toFixed(2) : usd === 0 ? "0.00" : usd.toFixed(4);
  return `$${text}${tally.partial ? "+" : ""}`;
}
