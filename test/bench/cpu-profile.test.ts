/**
 * bench/cpu-profile.ts on a real profile: a small program, bundled by esbuild with a source map as dist/ is, runs
 * under `node --cpu-prof`; its busy time must be placed at the original sources' areas (a function of
 * node_modules/yoga-layout/ is "Yoga layout", one of components/terminal/ ours), idle time kept apart, and a window
 * of the monotonic clock must keep only the samples taken in it.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { areaOf, formatSummary, summarizeProfileFile, type ProfileSummary } from "../../bench/cpu-profile.js";

const dir = mkdtempSync(join(tmpdir(), "ink-cpu-profile-test-"));
let profile = "";
let phases: { layoutFrom: number; layoutTo: number } = { layoutFrom: 0, layoutTo: 0 };

/** A loop of `n` square roots: work that lands in the calling function's self time. */
const burn = (name: string) => `export function ${name}(n) { let x = 0; for (let i = 0; i < n; i++) x += Math.sqrt(i + x % 7); return x; }\n`;

beforeAll(async () => {
  mkdirSync(join(dir, "node_modules", "yoga-layout"), { recursive: true });
  mkdirSync(join(dir, "components", "terminal"), { recursive: true });
  writeFileSync(join(dir, "node_modules", "yoga-layout", "index.js"), burn("layoutWork"));
  writeFileSync(join(dir, "components", "terminal", "diff-work.js"), burn("diffWork"));
  // Layout twice the work of the diff, each in its own phase; the monotonic clock (µs) around the layout's; then idle.
  writeFileSync(
    join(dir, "entry.js"),
    `import { layoutWork } from "yoga-layout";
import { diffWork } from "./components/terminal/diff-work.js";
const now = () => Number(process.hrtime.bigint() / 1000n);
const layoutFrom = now();
let sum = layoutWork(60_000_000);
const layoutTo = now();
sum += diffWork(30_000_000);
await new Promise((r) => setTimeout(r, 300));
console.log(JSON.stringify({ layoutFrom, layoutTo, sum: sum > 0 }));
`,
  );
  await build({ entryPoints: [join(dir, "entry.js")], bundle: true, format: "esm", platform: "node", sourcemap: true, outfile: join(dir, "out", "bundle.js"), logLevel: "warning", absWorkingDir: dir });
  const profDir = join(dir, "prof");
  const r = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profDir}`, join(dir, "out", "bundle.js")], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  phases = JSON.parse(r.stdout) as typeof phases;
  profile = join(profDir, readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"))!);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ms = (s: ProfileSummary, area: string) => s.areas.find((a) => a.name === area)?.ms ?? 0;

describe("CPU profile summary", () => {
  it("places the bundled code's self time at its original sources' areas, idle apart", () => {
    const s = summarizeProfileFile(profile);
    const layout = ms(s, "Yoga layout");
    const diff = ms(s, "rows, diff, write (components/terminal)");
    expect(diff).toBeGreaterThan(0);
    expect(layout).toBeGreaterThan(diff); // twice the work
    expect(s.areas[0]!.name).toBe("Yoga layout");
    expect(s.areas.some((a) => a.name === "idle")).toBe(false);
    expect(s.idleMs).toBeGreaterThan(0); // the 300 ms wait
    expect(s.functions[0]!.name).toBe("layoutWork (yoga-layout/index.js)");
    expect(s.functions.map((f) => f.name)).toContain("diffWork (components/terminal/diff-work.js)");
    expect(formatSummary(s)).toMatch(/^busy \d+\.\d\d s of \d+\.\d s profiled: Yoga layout \d+ %, .*rows, diff, write \(components\/terminal\) \d+ %.*; top functions: layoutWork \(yoga-layout\/index\.js\) \d+ ms/);
  });

  it("keeps only the samples taken within a window of the monotonic clock", () => {
    const s = summarizeProfileFile(profile, { window: { fromUs: phases.layoutFrom, toUs: phases.layoutTo } });
    expect(ms(s, "Yoga layout")).toBeGreaterThan(0);
    expect(ms(s, "rows, diff, write (components/terminal)")).toBe(0);
    expect(s.totalMs).toBeLessThan(summarizeProfileFile(profile).totalMs);
  });

  it("names V8's own entries and packages by their paths", () => {
    expect(areaOf("(garbage collector)")).toBe("GC");
    expect(areaOf("(idle)")).toBe("idle");
    expect(areaOf("../node_modules/react-reconciler/cjs/react-reconciler.production.js")).toBe("React");
    expect(areaOf("../node_modules/ink/build/output.js")).toBe("Ink");
    expect(areaOf("components/markdown/parse-markdown.ts")).toBe("markdown");
    expect(areaOf("node:internal/streams/writable")).toBe("Node (streams, I/O, timers)");
    expect(areaOf("")).toBe("V8 built-ins, natives");
  });
});
