/** Benchmark plumbing: medians, timed spawns of the built CLI, and the figure records the table and results.json are made of. */
import { spawn, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is bundled to dist/bench/run.js). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The built CLI the benchmarks run. */
export const CLI = join(ROOT, "dist", "cli.js");

/** One measured figure. `median` is in `unit`; `floorMs` is the `node -e 0` spawn median of the same run. */
export interface Figure {
  group: "startup" | "sessions" | "loop" | "render" | "ui" | "install" | "claude" | "targets";
  name: string;
  median: number;
  unit: string;
  runs: number;
  /** Extra measured values of the same runs (medians), e.g. bytes, clears, RSS. */
  extra?: Record<string, number>;
  /** Where the CPU of a profiled run of the same scenario went, by area (bench/cpu-profile.ts). */
  profile?: string;
  note?: string;
}

/** The median of `values` (the upper one of the middle two for an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** The `p`-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** Milliseconds `fn` takes, median of `runs` (after one warm-up call). */
export async function timeMedian(runs: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** Wall ms of `node <args>` to exit; throws with stderr when it fails. */
export function timeSpawn(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ANTHROPIC_API_KEY: "", ANTHROPIC_BASE_URL: "", ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`node ${args.join(" ")} exited ${code}: ${stderr}`))));
  });
}

/** Median wall ms of `runs` spawns of `node <args>` (one warm-up first). */
export async function spawnMedian(runs: number, args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<number> {
  return timeMedian(runs, () => timeSpawn(args, env, cwd));
}

/** True when `command` can be run (e.g. tmux, script). */
export function hasCommand(command: string, versionArg = "-V"): boolean {
  return spawnSync(command, [versionArg], { stdio: "ignore" }).status === 0;
}

/** The value as the table shows it, with its unit. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return "—";
  if (unit === "bytes") return value >= 1e6 ? `${(value / 1e6).toFixed(2)} MB` : value >= 1e3 ? `${(value / 1e3).toFixed(1)} KB` : `${value} B`;
  if (unit === "ms") return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
  if (unit === "µs") return `${value.toFixed(1)} µs`;
  if (unit === "s") return `${value.toFixed(2)} s`;
  if (unit === "%") return `${value.toFixed(0)} %`;
  if (unit === "MB") return `${value.toFixed(0)} MB`;
  if (unit === "×") return `${value.toFixed(2)}×`;
  if (unit === "MB/min") return `${value.toFixed(1)} MB/min`;
  return `${value} ${unit}`;
}
