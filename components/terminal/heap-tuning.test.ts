import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { capYoungGeneration, heapFlagsKnown, heapTuned, limitOldGeneration, OLD_GROWTH_PERCENT, SEMI_SPACE_CAP_MB, tuneHeapForTui, type HeapHooks } from "./heap-tuning.js";

const MB = 1024 * 1024;

/** Fake V8 hooks: the young generation's size is set by the test, GCs are fired by it. */
function fakeHeap(bytes: number) {
  const state = { bytes, flags: [] as string[], listeners: new Set<() => void>() };
  const hooks: HeapHooks = {
    newSpaceBytes: () => state.bytes,
    setFlags: (f) => state.flags.push(f),
    afterGc: (listener) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
  };
  const gc = (newBytes: number) => {
    state.bytes = newBytes;
    for (const l of [...state.listeners]) l();
  };
  return { state, hooks, gc };
}

describe("capYoungGeneration", () => {
  it("sets V8's semi-space growth factor to 1 while the young generation is at two cap-sized semi-spaces, and back to 2 when V8 shrank it", () => {
    const { state, hooks, gc } = fakeHeap(2 * MB);
    const stop = capYoungGeneration(8, hooks);
    gc(8 * MB);
    expect(state.flags).toEqual([]);
    gc(16 * MB);
    gc(16 * MB);
    expect(state.flags).toEqual(["--semi-space-growth-factor=1"]);
    gc(1 * MB); // V8 shrinks the young generation when allocation is slow: it must be able to grow again
    expect(state.flags).toEqual(["--semi-space-growth-factor=1", "--semi-space-growth-factor=2"]);
    gc(16 * MB);
    expect(state.flags.at(-1)).toBe("--semi-space-growth-factor=1");
    stop();
    expect(state.listeners.size).toBe(0);
    expect(state.flags.at(-1)).toBe("--semi-space-growth-factor=2");
  });

  it("caps at once when the young generation is already that large", () => {
    const { state, hooks } = fakeHeap(32 * MB);
    capYoungGeneration(8, hooks);
    expect(state.flags).toEqual(["--semi-space-growth-factor=1"]);
  });

  it("in a real node process keeps the young generation at 2 × 8 MB where it would grow to 32 MB", () => {
    const dir = mkdtempSync(join(tmpdir(), "ink-heap-tuning-"));
    try {
      const module = join(dir, "heap-tuning.mjs");
      writeFileSync(module, transformSync(readFileSync(join(process.cwd(), "components", "terminal", "heap-tuning.ts"), "utf8"), { loader: "ts", format: "esm" }).code);
      // Objects that live a while (kept in a rolling array), the pattern that makes V8 grow its young generation.
      const script = (cap: boolean) => `
        import { getHeapSpaceStatistics } from "node:v8";
        import { capYoungGeneration } from ${JSON.stringify(module)};
        if (${cap}) capYoungGeneration(${SEMI_SPACE_CAP_MB});
        const keep = [];
        for (let round = 0; round < 100; round++) {
          for (let i = 0; i < 20000; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 100000) keep.length = 0; }
          await new Promise((r) => setTimeout(r, 0));
        }
        console.log(getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size / ${MB});`;
      const run = (cap: boolean) => {
        const r = spawnSync(process.execPath, ["--input-type=module", "-e", script(cap)], { encoding: "utf8" });
        return r.stdout.trim() || r.stderr;
      };
      expect(run(false)).toBe("32");
      expect(run(true)).toBe(String(2 * SEMI_SPACE_CAP_MB));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("limitOldGeneration", () => {
  it("fixes V8's heap growing factor", () => {
    const flags: string[] = [];
    limitOldGeneration(OLD_GROWTH_PERCENT, (f) => flags.push(f));
    expect(flags).toEqual([`--heap-growing-percent=${OLD_GROWTH_PERCENT}`]);
  });

  it("in a real node process keeps the old generation near what is live where V8 would let it grow to several times that", () => {
    const dir = mkdtempSync(join(tmpdir(), "ink-heap-tuning-"));
    try {
      const module = join(dir, "heap-tuning.mjs");
      writeFileSync(module, transformSync(readFileSync(join(process.cwd(), "components", "terminal", "heap-tuning.ts"), "utf8"), { loader: "ts", format: "esm" }).code);
      // ~10 MB that stays, and objects that live long enough to be promoted (a rolling array), allocated fast.
      const script = (limit: boolean) => `
        import { getHeapSpaceStatistics } from "node:v8";
        import { limitOldGeneration } from ${JSON.stringify(module)};
        if (${limit}) limitOldGeneration();
        const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_size / ${MB};
        const live = [];
        for (let i = 0; i < 150000; i++) live.push({ i, s: "live" + i });
        let keep = [];
        let peak = 0;
        for (let round = 0; round < 300; round++) {
          for (let i = 0; i < 20000; i++) { keep.push({ i, s: "x" + i + round }); if (keep.length > 200000) keep = []; }
          await new Promise((r) => setTimeout(r, 0));
          peak = Math.max(peak, oldSpace());
        }
        console.log(Math.round(peak));`;
      const peak = (limit: boolean) => {
        const r = spawnSync(process.execPath, ["--input-type=module", "-e", script(limit)], { encoding: "utf8" });
        const mb = Number(r.stdout.trim());
        expect(mb, r.stderr).toBeGreaterThan(0);
        return mb;
      };
      const [free, limited] = [peak(false), peak(true)];
      expect(limited).toBeLessThan(0.6 * free);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("tuneHeapForTui", () => {
  it("applies the tuning once per process", () => {
    expect(heapTuned()).toBe(false);
    tuneHeapForTui();
    tuneHeapForTui();
    expect(heapTuned()).toBe(true);
  });
});

describe("heapFlagsKnown", () => {
  it("is true for the V8 of Node 20 to 25 only: another V8 might print 'unrecognized flag' over the TUI", () => {
    expect(heapFlagsKnown(process.versions.v8)).toBe(true); // the Node these tests run on (20+)
    expect(heapFlagsKnown("11.3.244.8-node.19")).toBe(true);
    expect(heapFlagsKnown("13.6.233.10-node.18")).toBe(true);
    expect(heapFlagsKnown("10.2.154.26-node.26")).toBe(false);
    expect(heapFlagsKnown("15.0.1")).toBe(false);
    expect(heapFlagsKnown("garbage")).toBe(false);
  });
});
