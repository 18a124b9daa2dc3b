/** The tree's status-bar view (spend against the budget) from the meter. */
import { describe, expect, it } from "vitest";
import { TreeBudget } from "../../src/subagents/runtime/tree-budget.js";

const usage = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0 });

describe("TreeBudget.view", () => {
  it("is undefined without a limit, cost first, tokens otherwise; reached once spent ≥ limit", () => {
    expect(new TreeBudget({}).view()).toBeUndefined();
    const cost = new TreeBudget({ maxCostUsd: 2, maxTokens: 1_000_000 });
    cost.add("claude-sonnet-4-5", usage(100_000, 8_000)); // 0.3 + 0.12
    expect(cost.view()).toEqual({ text: "$0.42 / $2.00", reached: false });
    const tokens = new TreeBudget({ maxTokens: 1000 });
    let changes = 0;
    tokens.subscribe(() => changes++);
    tokens.add("m", usage(900, 200));
    expect(tokens.view()).toEqual({ text: "1.1k / 1k tokens", reached: true });
    expect(tokens.view()).toBe(tokens.view()); // stable while nothing changes (useSyncExternalStore)
    expect(changes).toBe(1);
  });
});

describe("TreeBudget.gate", () => {
  const agent = (id: string) => ({ id, label: id, depth: 1 });
  it("an agent waiting on another agent's open question stops waiting when its own run is stopped", async () => {
    const tree = new TreeBudget({ maxTokens: 10 });
    tree.add("m", usage(20, 0));
    let asked = 0;
    // The person has not answered yet (the question resolves only when the asking agent is stopped).
    tree.ask = (_q, signal) => {
      asked++;
      return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    };
    const a = new AbortController();
    const b = new AbortController();
    const first = tree.gate(agent("a"), 1, a.signal, () => undefined);
    const second = tree.gate(agent("b"), 1, b.signal, () => undefined);
    expect(asked).toBe(1);
    b.abort();
    await expect(second).resolves.toBeUndefined(); // without the fix: waits until the question is answered
    a.abort();
    await expect(first).resolves.toBeUndefined();
  });
});
