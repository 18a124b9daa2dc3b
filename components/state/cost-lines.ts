/**
 * `/cost`: the session's tokens and cost, split by agent — the main agent, then each run of a
 * child in the order it was started (profile, description and short id, as its row shows them; a child resumed
 * in this session has one row per run, `run 1`, `run 2`, …, every run counted once). A child whose
 * model has no known price shows its tokens and "no price", never a made-up cost.
 */
import type { Usage } from "../../src/protocol/messages.js";
import { MAIN_SPENDER, spentBy, tallyOf, usageOf, type SpendFilter } from "../../src/core/usage-ledger.js";
import { formatCost, type CostTally } from "../../src/core/pricing.js";
import { formatTokens, totalTokens } from "./format.js";
import { childHead } from "./child-status.js";

/** Most columns of a child's title in its /cost row. */
const COST_TITLE_MAX = 28;
import type { ChildView, StreamState } from "./transcript-types.js";

function usageLine(u: Usage): string {
  const cache = u.cacheRead + u.cacheWrite > 0 ? ` · cache read ${formatTokens(u.cacheRead)} · write ${formatTokens(u.cacheWrite)}` : "";
  return `${formatTokens(totalTokens(u))} tokens (in ${formatTokens(u.input)} · out ${formatTokens(u.output)}${cache})`;
}

/** Every child run shown in the transcript (finished and live), each once, in order. */
function childrenOf(state: StreamState): ChildView[] {
  const runs = new Map<string, ChildView>();
  for (const item of [...state.finished, ...state.live]) if (item.kind === "tool" && item.child) runs.set(item.id, item.child);
  return [...runs.values()];
}

/** Row names: `scout · find login handler [ab12cd]`; a child with several runs here: `… run 1`, `… run 2`; a lone resumed run: `… resumed`. */
function runNames(children: readonly ChildView[]): string[] {
  const runsOf = new Map<string, number>();
  for (const c of children) runsOf.set(c.childId, (runsOf.get(c.childId) ?? 0) + 1);
  const seen = new Map<string, number>();
  return children.map((c) => {
    const n = (seen.get(c.childId) ?? 0) + 1;
    seen.set(c.childId, n);
    const name = `${childHead(c, COST_TITLE_MAX)}${c.model ? ` ${c.model}` : ""}`;
    return runsOf.get(c.childId)! > 1 ? `${name} run ${n}` : c.resumed ? `${name} resumed` : name;
  });
}

/** The lines `/cost` prints for `state`: every figure read from the session's usage ledger (`state.spend`). */
export function costLines(state: StreamState): string[] {
  const children = childrenOf(state);
  const names = runNames(children);
  const rows = state.spend;
  const price = (tally: CostTally, usage: Usage) => (totalTokens(usage) === 0 ? "—" : formatCost(tally) || "no price");
  const of = (filter: SpendFilter): [string, Usage] => {
    const usage = usageOf(rows, filter);
    return [price(tallyOf(rows, filter), usage), usage];
  };
  const lines: Array<[string, string, Usage]> = [
    ["main", ...of(spentBy(MAIN_SPENDER))],
    ...children.map((c, i): [string, string, Usage] => [names[i]!, ...of(spentBy(c.childId, c.run))]),
  ];
  const total = tallyOf(rows);
  const nameWidth = Math.max(...lines.map((r) => r[0].length));
  const costWidth = Math.max(...lines.map((r) => r[1].length));
  return [
    `Session: ${formatCost(total) || "no price known for these models"} · ${usageLine(usageOf(rows))}`,
    ...lines.map(([name, cost, usage]) => `  ${name.padEnd(nameWidth)}  ${cost.padEnd(costWidth)}  ${usageLine(usage)}`),
    ...(total.partial && total.known ? ["  (+: part of the usage ran on a model without a known price, so the total is a lower bound)"] : []),
  ];
}
