import { describe, expect, it } from "vitest";
import { addCost, costOf, emptyCost, formatCost, priceOf } from "../../src/core/pricing.js";

const usage = (input: number, output: number, cacheWrite = 0, cacheRead = 0) => ({ input, output, cacheWrite, cacheRead });

describe("pricing", () => {
  it("prices known models by family, including dated and cloud-prefixed ids", () => {
    // 1M input at $3 + 1M output at $15 + 1M cache write at $3.75 + 1M cache read at $0.30
    expect(costOf("claude-sonnet-4-5-20250929", usage(1e6, 1e6, 1e6, 1e6))).toBeCloseTo(22.05, 6);
    expect(costOf("us.anthropic.claude-sonnet-4-5-20250929-v1:0", usage(1e6, 0))).toBeCloseTo(3, 6);
    expect(costOf("claude-opus-4-1-20250805", usage(1000, 1000))).toBeCloseTo(0.09, 6);
    expect(costOf("claude-opus-4-5", usage(1000, 1000))).toBeCloseTo(0.03, 6);
    expect(costOf("claude-haiku-4-5", usage(0, 0, 0, 1e6))).toBeCloseTo(0.1, 6);
    expect(costOf("claude-3-5-haiku-latest", usage(1e6, 1e6))).toBeCloseTo(4.8, 6);
  });

  it("has no cost for unknown models, never a wrong one", () => {
    expect(costOf("scripted-model", usage(1000, 1000))).toBeUndefined();
    expect(costOf("gpt-4o", usage(1000, 1000))).toBeUndefined();
    expect(costOf("claude-opus-40", usage(1000, 1000))).toBeUndefined();
    expect(costOf(undefined, usage(1000, 1000))).toBeUndefined();
    expect(priceOf("claude-sonnet-9")).toBeUndefined();
  });

  it("sums costs per model and marks a partly unknown total", () => {
    let t = emptyCost();
    expect(formatCost(t)).toBe("");
    t = addCost(t, "claude-sonnet-4-5", usage(100_000, 10_000)); // 0.30 + 0.15
    t = addCost(t, "claude-haiku-4-5", usage(100_000, 10_000)); // 0.10 + 0.05
    expect(t.usd).toBeCloseTo(0.6, 6);
    expect(formatCost(t)).toBe("$0.60");
    t = addCost(t, "mystery", usage(5, 5));
    expect(formatCost(t)).toBe("$0.60+");
    expect(formatCost(addCost(emptyCost(), "mystery", usage(5, 5)))).toBe("");
    expect(formatCost(addCost(emptyCost(), "claude-haiku-4-5", usage(10, 0)))).toBe("$0.0000");
  });
});
