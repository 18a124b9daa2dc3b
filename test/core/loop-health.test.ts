import { describe, expect, it } from "vitest";
import { createLoopHealth } from "../../src/core/loop-health.js";

const call = (name: string, args: Record<string, unknown>) => ({ type: "toolCall" as const, id: Math.random().toString(), name, arguments: args });

describe("loop health", () => {
  it("warns once at 5 identical calls in a row (same name and arguments, any key order), not for varied calls", () => {
    const health = createLoopHealth();
    const seen = [1, 2, 3, 4].map(() => health.observe(call("read", { path: "a", limit: 1 })));
    expect(seen.every((w) => w === undefined)).toBe(true);
    expect(health.observe(call("read", { limit: 1, path: "a" }))).toMatch(/same read call 5 times in a row/);
    expect(health.observe(call("read", { path: "a", limit: 1 }))).toBeUndefined();
    const other = createLoopHealth();
    for (let i = 0; i < 10; i++) expect(other.observe(call("read", { path: String(i % 2) }))).toBeUndefined();
  });

  it("shortens long arguments in the warning without splitting an emoji", () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (let shift = 0; shift < 2; shift++) {
      const health = createLoopHealth(2);
      const args = { text: `${"x".repeat(shift)}${"😀".repeat(100)}` };
      health.observe(call("echo", args));
      const warning = health.observe(call("echo", args))!;
      expect(warning).toMatch(/same echo call 2 times in a row \(\{"text":"x*😀+\.\.\.\)/u);
      expect(lone.test(warning)).toBe(false);
    }
  });
});
