import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGrepTool } from "../../src/tools/grep.js";
import { makeCtx, tempDir, writeTree } from "./context.js";

describe("grep matching off the main thread", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("a catastrophic pattern costs only its file (skipped with a note); the main thread keeps ticking", async () => {
    writeTree(dir, { "a.txt": "aaa\n", "long.txt": `${"a".repeat(5_000)}b\n`, "z.txt": "aaa\n" });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const r = await createGrepTool({ fileBudgetMs: 300 }).execute({ pattern: "(a+)+$" }, makeCtx(dir));
    clearInterval(timer);
    expect(r.output).toContain("a.txt:1: aaa");
    expect(r.output).toContain("z.txt:1: aaa");
    expect(r.output).toMatch(/skipped 1 file\(s\) where the pattern took over 0.3s: long.txt/);
    expect(ticks).toBeGreaterThan(5);
  });

  it("abort terminates a search stuck in one file", async () => {
    writeTree(dir, { "long.txt": `${"a".repeat(5_000)}b\n` });
    const c = new AbortController();
    const pending = createGrepTool({ fileBudgetMs: 60_000 }).execute({ pattern: "(a+)+$" }, makeCtx(dir, c.signal));
    setTimeout(() => c.abort(), 200);
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(r.output).toContain("aborted");
  });
});
