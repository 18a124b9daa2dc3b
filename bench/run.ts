/**
 * `npm run bench`: builds, then measures and prints one table (and writes bench/results.json).
 * Every figure is a median; the `node -e 0` spawn median of the same run is printed beside each,
 * as the machine's floor. Asserts nothing. Options: `--quick` (fewer runs), `--only a,b` (groups:
 * startup, sessions, loop, render, ui, install — `install` times `npm install` in a fresh
 * clone and runs only in the full bench or when named; `claude` measures Claude Code in the same run,
 * bench/claude-code.ts, and runs only when named or with INK_BENCH_CLAUDE=1: it installs Claude Code
 * from npm on first use). The last rows, group "targets", restate
 * issue #41's targets (with round two's still measured) from the figures of the same run (bench/targets.ts).
 * Without `--quick` the paced answers and the 51 s children run 3 times each (Claude Code's runs interleaved with
 * ours), and each scenario a CPU target reads gets one more run under `--cpu-prof`, not counted, summarised by area
 * (bench/cpu-profile.ts): a missed CPU target names it. INK_BENCH_PROFILE=1 profiles every scenario run (also with
 * `--quick`), =<dir> keeps the profiles there, =0 never; INK_BENCH_SCENARIO takes "|"-separated parts, "=" an exact name.
 */
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { claudeCodeRuns, type ClaudeCodeRuns } from "./claude-code.js";
import { installFigures } from "./install.js";
import { loopFigures } from "./loop.js";
import { renderFigures } from "./render.js";
import { soakFigures } from "./soak.js";
import { sessionFigures } from "./sessions.js";
import { startupFigures } from "./startup.js";
import { formatValue, hasCommand, ROOT, spawnMedian, type Figure } from "./stats.js";
import { targetFigures } from "./targets.js";
import { benchReducer } from "./ui-reducer.js";

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const quick = argv.includes("--quick");
  const onlyArg = argv[argv.indexOf("--only") + 1];
  const only = argv.includes("--only") && onlyArg ? new Set(onlyArg.split(",")) : undefined;
  const want = (g: string) => !only || only.has(g);
  const runs = quick ? 5 : 10;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const figures: Figure[] = [];

  let floorMs: number;
  if (want("startup")) {
    log("bench: startup …");
    const s = await startupFigures(runs, log);
    floorMs = s.floorMs;
    figures.push(...s.figures);
  } else {
    floorMs = await spawnMedian(runs, ["-e", "0"]);
  }
  if (want("sessions")) {
    log("bench: sessions …");
    figures.push(...(await sessionFigures(quick ? 3 : 5)));
  }
  if (want("loop")) {
    log("bench: loop …");
    figures.push(...(await loopFigures(quick ? 1 : 3)));
  }
  if (want("ui")) {
    const ui = await benchReducer(8);
    figures.push({ group: "ui", name: "TUI reducer: events of 8 streaming children, per event", median: (ui.ms * 1000) / ui.events, unit: "µs", runs: 1, note: `${ui.events} events` });
  }
  // Claude Code (opt-in: it needs the npm registry once, and its own runs take ~4 minutes a round): each of its runs
  // is made right after one of ours on the same scenario (interleaved), the rest after the render group.
  let claude: ClaudeCodeRuns | undefined;
  if (only?.has("claude") || process.env.INK_BENCH_CLAUDE === "1") {
    if (hasCommand("tmux")) {
      log("bench: claude (Claude Code in tmux, same scenarios, its runs interleaved with ours; about 4 minutes a run) …");
      claude = await claudeCodeRuns(log);
    } else log("bench: tmux not found; the claude figures are skipped");
  }
  if (want("render")) {
    if (hasCommand("tmux")) {
      log("bench: render (tmux; about 2–4 minutes) …");
      figures.push(...(await renderFigures(quick, log, claude?.runFor)));
      figures.push(...(await soakFigures(quick, log)));
    } else log("bench: tmux not found; the render figures are skipped");
  }
  if (claude) figures.push(...(await claude.finish(quick ? 1 : 3)));

  if (want("install")) {
    log("bench: install (a fresh clone's npm install) …");
    figures.push(...(await installFigures(quick ? 1 : 3, log)));
  }

  // Issue #41's targets, restated from what this run measured (the last rows of the table).
  figures.push(...targetFigures(figures));

  const rows = figures.map((f) => [f.group, f.name, formatValue(f.median, f.unit), `${f.runs}`, f.note ?? ""]);
  const header = ["group", "figure", "median", "runs", `notes (floor: node -e 0 = ${floorMs.toFixed(0)} ms)`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));

  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "unknown", memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` };
  const path = join(ROOT, "bench", "results.json");
  writeFileSync(path, `${JSON.stringify({ date: new Date().toISOString(), machine, floorMs, figures }, null, 2)}\n`);
  log(`bench: wrote ${path}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
