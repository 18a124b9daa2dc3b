/** The session's usage ledger (issue #39 item 2): one source for every token and cost figure. */
import { describe, expect, it } from "vitest";
import { emptyUsage, type Usage } from "../../src/protocol/messages.js";
import { formatCost } from "../../src/core/pricing.js";
import { MAIN_SPENDER, spentBy, UsageLedger, type Spender } from "../../src/core/usage-ledger.js";

const u = (input: number, output: number): Usage => ({ ...emptyUsage(), input, output });

describe("UsageLedger", () => {
  it("keeps one row per agent, run and model, each priced by its own model", () => {
    const ledger = new UsageLedger();
    ledger.add({ agent: MAIN_SPENDER, model: "claude-sonnet-4-5" }, u(100_000, 0)); // $0.30
    ledger.add({ agent: MAIN_SPENDER, model: "claude-sonnet-4-5" }, u(0, 10_000)); // $0.15
    ledger.add({ agent: "c1", run: "t1", model: "claude-haiku-4-5" }, u(100_000, 10_000)); // $0.15
    ledger.add({ agent: "c1", run: "t2", model: "claude-haiku-4-5" }, u(0, 1000)); // $0.005
    expect(ledger.rows()).toHaveLength(3);
    expect(ledger.cost().usd).toBeCloseTo(0.605, 9);
    expect(ledger.cost(spentBy(MAIN_SPENDER)).usd).toBeCloseTo(0.45, 9);
    expect(ledger.cost(spentBy("c1", "t2")).usd).toBeCloseTo(0.005, 9);
    expect(ledger.cost(spentBy("c1")).usd).toBeCloseTo(0.155, 9);
    expect(ledger.usage(spentBy("c1"))).toEqual(u(100_000, 11_000));
    expect(ledger.tokens()).toBe(221_000);
  });

  it("marks + only on the figures that hold a row with tokens on a model without a price", () => {
    const ledger = new UsageLedger();
    ledger.add({ agent: MAIN_SPENDER, model: "claude-sonnet-4-5" }, u(1000, 100));
    ledger.add({ agent: "c1", run: "t1", model: "local-llm" }, u(500, 50));
    ledger.add({ agent: "c2", run: "t2", model: "other-llm" }, emptyUsage()); // nothing spent: no row, no "+"
    expect(formatCost(ledger.cost())).toBe("$0.0045+");
    expect(formatCost(ledger.cost(spentBy(MAIN_SPENDER)))).toBe("$0.0045");
    expect(formatCost(ledger.cost(spentBy("c1")))).toBe(""); // nothing priced: the row says "no price"
    expect(ledger.cost(spentBy("c2"))).toEqual({ usd: 0, partial: false, known: false });
  });

  it("tells its listeners of each addition, not of rows restored from a saved session", () => {
    const ledger = new UsageLedger();
    const heard: Array<[Spender, Usage]> = [];
    ledger.subscribe((who, usage) => heard.push([who, usage]));
    ledger.restore([{ agent: MAIN_SPENDER, model: "m", usage: u(5, 5) }]);
    ledger.add({ agent: "c1", run: "t1", model: "m" }, u(1, 2));
    expect(heard).toEqual([[{ agent: "c1", run: "t1", model: "m" }, u(1, 2)]]);
    expect(ledger.usage()).toEqual(u(6, 7));
  });

  it("gives the same snapshot until the next addition, and a snapshot never changes", () => {
    const ledger = UsageLedger.of([{ agent: MAIN_SPENDER, model: "m", usage: u(1, 1) }]);
    const first = ledger.rows();
    expect(ledger.rows()).toBe(first);
    ledger.add({ agent: MAIN_SPENDER, model: "m" }, u(1, 1));
    expect(ledger.rows()).not.toBe(first);
    expect(first[0]!.usage).toEqual(u(1, 1));
    expect(ledger.rows()[0]!.usage).toEqual(u(2, 2));
  });
});
