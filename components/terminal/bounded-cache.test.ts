import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache.js";

describe("BoundedCache (the one cache policy: two generations)", () => {
  it("computes a value once and answers it again without computing", () => {
    const cache = new BoundedCache<string, number>(4);
    let calls = 0;
    const compute = (k: string) => (calls++, k.length);
    expect(cache.get("abc", compute)).toBe(3);
    expect(cache.get("abc", compute)).toBe(3);
    expect(calls).toBe(1);
  });

  it("holds at most twice max however many distinct keys come", () => {
    const cache = new BoundedCache<number, number>(100);
    for (let i = 0; i < 10_000; i++) cache.get(i, (k) => k * 2);
    expect(cache.size).toBeLessThanOrEqual(200);
    expect(cache.peek(9_999)).toBe(19_998);
    expect(cache.peek(0)).toBeUndefined();
  });

  it("keeps what is used between turnovers (the working set) and drops what is not", () => {
    const cache = new BoundedCache<string, string>(10);
    let computed = 0;
    const compute = (k: string) => (computed++, k.toUpperCase());
    for (let i = 0; i < 1000; i++) {
      cache.get("kept", compute); // used every round, as a row drawn every frame
      cache.get(`new ${i}`, compute); // a new key every round, as a child's figures each second
    }
    expect(computed).toBe(1 + 1000);
    cache.get("new 0", compute);
    expect(computed).toBe(1002); // long gone
  });

  it("moves an old entry used again back to the young generation", () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3); // turnover: a, b old
    expect(cache.peek("a")).toBe(1); // back to young: [c, a]
    cache.set("d", 4); // turnover: old = [c, a]; b dropped
    expect(cache.peek("b")).toBeUndefined();
    expect(cache.peek("a")).toBe(1);
  });

  it("with weigh and budget, turns over by weight too: what it holds stays at most twice the budget however big the entries", () => {
    const cache = new BoundedCache<number, string>(1000, { weigh: (_k, v) => v.length, budget: 10_000 });
    for (let i = 0; i < 5_000; i++) cache.get(i, () => "x".repeat(500)); // 2.5 MB of values by count alone
    expect(cache.weight).toBeLessThanOrEqual(20_000);
    expect(cache.size).toBeLessThanOrEqual(40);
    expect(cache.peek(4_999)).toHaveLength(500);
  });

  it("keeps a weighed working set across turnovers, and an entry heavier than the budget alone", () => {
    const cache = new BoundedCache<string, string>(1000, { weigh: (_k, v) => v.length, budget: 100 });
    let computed = 0;
    const compute = (k: string) => (computed++, k.repeat(10));
    for (let i = 0; i < 1000; i++) {
      cache.get("kept", compute);
      cache.get(`n${i}`, compute);
    }
    expect(computed).toBe(1 + 1000);
    const big = cache.get("huge", (k) => k.repeat(100)); // 400 > budget: held, on its own
    expect(cache.peek("huge")).toBe(big);
    expect(cache.weight).toBeLessThanOrEqual(2 * 100 + 400);
  });

  it("weighs a key set again once (no double count)", () => {
    const cache = new BoundedCache<string, string>(10, { weigh: (_k, v) => v.length, budget: 1000 });
    cache.set("a", "xxx");
    cache.set("a", "yyyyy");
    expect(cache.weight).toBe(5);
    expect(cache.size).toBe(1);
  });

  it("refuses a max below one, naming it", () => {
    expect(() => new BoundedCache(0)).toThrow(/max must be at least 1 \(got 0\)/);
    expect(() => new BoundedCache(1, { weigh: () => 1, budget: 0 })).toThrow(/budget must be at least 1 \(got 0\)/);
  });
});
