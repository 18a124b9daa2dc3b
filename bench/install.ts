/**
 * `install` (opt-in with `--only install`, also in the full bench): `npm install` in a fresh
 * clone of this checkout (git clone into a temp dir), with the machine's npm cache as it is
 * (warm after any earlier install); the package's `prepare` build is included.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, ROOT, type Figure } from "./stats.js";

/** Wall ms of `command args` in `cwd`; rejects with its output's tail when it fails. */
function timeCommand(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out = (out + d).slice(-4000)));
    child.stderr.on("data", (d) => (out = (out + d).slice(-4000)));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${out}`))));
  });
}

/** The install figure: median of `runs` fresh clones, each timed from `npm install` to its exit. */
export async function installFigures(runs: number, log: (line: string) => void): Promise<Figure[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), "ink-bench-install-"));
    try {
      const clone = spawnSync("git", ["clone", "-q", ROOT, join(dir, "ink")], { encoding: "utf8" });
      if (clone.status !== 0) throw new Error(`git clone ${ROOT} failed: ${clone.stderr}`);
      const ms = await timeCommand("npm", ["install", "--no-audit", "--no-fund"], join(dir, "ink"));
      log(`install: run ${i + 1}/${runs}: ${(ms / 1000).toFixed(1)} s`);
      times.push(ms);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const ms = median(times);
  return [{ group: "install", name: "npm install, fresh clone, warm npm cache (build included)", median: ms / 1000, unit: "s", runs, note: "target ≤ 30 s" }];
}
