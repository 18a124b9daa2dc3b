/**
 * The targets of issue #41 (performance, round three), restated from the figures a bench run
 * measured: one row each, with the measured value, the target and whether it is met. A target
 * whose scenario did not run (filtered out, failed) is left out. Asserts nothing.
 *
 * A target against Claude Code divides by its figure measured in the same run when the run has one
 * (the opt-in `claude` group, bench/claude-code.ts), else by the dated figure below; a target with
 * neither says so instead of a verdict.
 */
import { formatProfile, profileOf } from "./bytes-profile.js";
import { BELOW, CHILDREN_51, PACED } from "./scenario-names.js";
import type { Figure } from "./stats.js";


/** The name of Claude Code's figure (group "claude") for the render scenario `scenario`. */
export const claudeCodeFigureName = (scenario: string) => `Claude Code: ${scenario}: CPU`;

/** A Claude Code figure a target divides by, and where it comes from ("same run", or the date and issue of an earlier run). */
export interface Reference {
  value: number;
  source: string;
}

/** Claude Code's dated figures, each from a side-by-side run of the same scenario (tmux 120×40, the same loopback server). */
const DATED: Record<string, { cpuS?: Reference; bytes?: Reference }> = {
  /** CPU for the paced answer below a 20,000-token answer: issue #29's run, measured by 2026-12-04. */
  [BELOW]: { cpuS: { value: 3.0, source: "2026-12-04, issue #29" } },
  /** Bytes written for 8 children at 50 tokens/s for 51 s, full-screen (~20 KB): issue #41, 2026-12-06. */
  [CHILDREN_51]: { bytes: { value: 20e3, source: "2026-12-06, issue #41" } },
};

/** Claude Code's figure of `what` for `scenario`: this run's when measured, else the dated one, else undefined. */
export function claudeCodeReference(figures: Figure[], scenario: string, what: "cpuS" | "bytes"): Reference | undefined {
  const same = figures.find((f) => f.group === "claude" && f.name === claudeCodeFigureName(scenario) && Number.isFinite(f.median));
  if (same) {
    const value = what === "cpuS" ? same.median : same.extra?.bytes;
    if (value !== undefined && Number.isFinite(value)) return { value, source: "same run" };
  }
  return DATED[scenario]?.[what];
}

/** Round one's figures on a quiet machine (docs/performance.md), the "no regression" references. */
const ROUND_ONE = { printApiMs: 404, printDemoMs: 274, firstFrameMs: 438, idleRssMb: 79 };

/**
 * Where a soak's RSS slope came from (its memory log, the same second half), what limits a missed
 * soak: the heap live after a full GC split into its parts, largest growth first — JIT code and
 * bytecode, large objects, the conversation (as its session file grows: the history and the
 * transcript hold the same texts), the rest (caches still filling, …) —, V8's old space and its
 * free part (what a compaction could give back), and RSS outside the heap.
 */
function soakSplit(extra: Record<string, number>): string {
  const known = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n);
  const mb = (n: number | undefined) => (known(n) ? `${n >= 0 ? "+" : ""}${n.toFixed(2)}` : "?");
  if (!known(extra.liveSlope)) return "";
  const parts: [string, number][] = [];
  if (known(extra.codeSlope)) parts.push(["JIT code and bytecode", extra.codeSlope]);
  if (known(extra.largeObjectSlope)) parts.push(["large objects", extra.largeObjectSlope]);
  if (known(extra.conversationSlope)) parts.push(["the conversation (its session file)", extra.conversationSlope]);
  parts.push(["the rest (caches still filling, …)", extra.liveSlope - parts.reduce((n, [, v]) => n + v, 0)]);
  parts.sort((x, y) => y[1] - x[1]);
  const live = parts.map(([what, v]) => `${what} ${mb(v)}`).join(", ");
  const end = known(extra.endLiveMb) ? ` (${extra.endLiveMb.toFixed(0)} MB at the end)` : "";
  const free = known(extra.oldFreeSlope) ? ` (its free part ${mb(extra.oldFreeSlope)})` : "";
  return `; per minute: live heap after a full GC ${mb(extra.liveSlope)} MB${end}: ${live}; V8 old space ${mb(extra.oldSpaceSlope)} MB${free}; RSS outside the heap ${mb(extra.outsideHeapSlope)} MB`;
}

/** What a run's bytes carried (bench/bytes-profile.ts): the profile a byte target is read with. */
function bytesNote(extra: Record<string, number> | undefined, lead = ""): string {
  const profile = profileOf(extra);
  const parts = [lead, profile ? `written: ${formatProfile(profile)}` : ""].filter(Boolean);
  return parts.join("; ");
}

/**
 * What the frames that make a missed p99 took their time in (bench/render.ts `slowFrameSplit`):
 * "the slowest 1 of 72 frames: 9.3 ms = rows 1.6 + cells 4.7 + diff 1.7 + write 0.3 + other 1.0;
 * within it GC 1.6 ms, waiting for a CPU 5.0 ms; Yoga's layout before it 0.8 ms; p99 less the
 * wait for a CPU 4.4 ms"; empty when the run recorded no phases.
 */
export function slowFramesNote(extra: Record<string, number>): string {
  const n = extra.p99Frames;
  if (!n || extra.p99FrameMs === undefined) return "";
  const f = (v: number | undefined) => (v ?? 0).toFixed(1);
  const parts = [extra.p99RowsMs, extra.p99CellsMs, extra.p99DiffMs, extra.p99WriteMs].map((v) => v ?? 0);
  const other = extra.p99FrameMs - parts.reduce((a, b) => a + b, 0);
  const each = n === 1 ? "it" : "each, on average";
  const own = extra.frameP99OwnMs !== undefined ? `; p99 less the wait for a CPU ${f(extra.frameP99OwnMs)} ms` : "";
  return `the slowest ${n} of ${extra.framesDrawn ?? "?"} frames${n === 1 ? "" : " (mean)"}: ${f(extra.p99FrameMs)} ms = rows ${f(parts[0])} + cells ${f(parts[1])} + diff ${f(parts[2])} + write ${f(parts[3])} + other ${f(other)}; within ${each} GC ${f(extra.p99GcMs)} ms, waiting for a CPU ${f(extra.p99WaitedMs)} ms; Yoga's layout before ${each} ${f(extra.p99LayoutMs)} ms${own}`;
}

/**
 * What a missed CPU target's row adds: where the CPU of a profiled run of its scenario went (the render group's
 * `profile`, bench/cpu-profile.ts), or how to get one. Nothing for a target met.
 */
function cpuLimit(met: boolean, f: Figure): string {
  if (met) return "";
  const e = f.extra;
  // Each a median over the runs, as the figure's note gives them.
  const threads = e?.mainUserS !== undefined && e.mainSystemS !== undefined ? `CPU by thread: main ${e.mainUserS.toFixed(2)} s user + ${e.mainSystemS.toFixed(2)} s system, other threads (V8's GC and compiler, libuv) ${(e.otherThreadsS ?? f.median - e.mainUserS - e.mainSystemS).toFixed(2)} s; ` : "";
  return `; what limits it: ${threads}${f.profile ? `the main thread in a --cpu-prof run of the scenario: ${f.profile}` : "not profiled (INK_BENCH_PROFILE=1 adds a profiled run of each scenario)"}`;
}

/** The target rows for `figures` (group "targets"); none when no figure of a target was measured. */
export function targetFigures(figures: Figure[]): Figure[] {
  const find = (name: string) => figures.find((f) => f.name === name && Number.isFinite(f.median));
  const out: Figure[] = [];
  const row = (name: string, median: number, unit: string, target: string, met: boolean | undefined, note = "") =>
    out.push({ group: "targets", name, median, unit, runs: 1, note: `${met === undefined ? "NO VERDICT" : met ? "met" : "MISSED"}: target ${target}${note ? `; ${note}` : ""}` });

  for (const inline of [false, true]) {
    const mode = inline ? "--inline" : "full-screen";
    const empty = find(`${PACED}${inline ? ", --inline" : ""}: CPU`);
    const below = find(`${BELOW}${inline ? ", --inline" : ""}: CPU`);
    const emptyRef = claudeCodeReference(figures, PACED, "cpuS");
    if (empty && emptyRef) {
      const ratio = empty.median / emptyRef.value;
      row(`paced answer, CPU ÷ Claude Code's (${mode})`, ratio, "×", "≤ 0.5×", ratio <= 0.5, `${empty.median.toFixed(2)} s vs Claude Code's ${emptyRef.value.toFixed(2)} s (${emptyRef.source})${cpuLimit(ratio <= 0.5, empty)}`);
    }
    const belowRef = claudeCodeReference(figures, BELOW, "cpuS");
    if (below && belowRef) {
      const ratio = below.median / belowRef.value;
      row(`paced answer below a 20k answer, CPU ÷ Claude Code's (${mode})`, ratio, "×", "≤ 0.5×", ratio <= 0.5, `${below.median.toFixed(2)} s vs Claude Code's ${belowRef.value.toFixed(2)} s (${belowRef.source})${cpuLimit(ratio <= 0.5, below)}`);
    }
    if (empty && below) {
      const ratio = below.median / empty.median;
      row(`paced answer below a 20k answer, CPU ÷ empty screen (${mode})`, ratio, "×", "≤ 1.1×", ratio <= 1.1, `${below.median.toFixed(2)} s vs ${empty.median.toFixed(2)} s${cpuLimit(ratio <= 1.1, below)}`);
    }
    if (empty?.extra) row(`paced answer, bytes written (${mode})`, empty.extra.bytes!, "bytes", "≤ 270 KB", empty.extra.bytes! <= 270e3, bytesNote(empty.extra));
    const kids = find(`${CHILDREN_51}, ${mode}: CPU`);
    if (kids?.extra) {
      const bytes = kids.extra.bytes!;
      const bytesRef = claudeCodeReference(figures, CHILDREN_51, "bytes");
      if (inline) row(`8 children for 51 s, bytes written (${mode})`, bytes, "bytes", "≤ 100 KB", bytes <= 100e3, bytesNote(kids.extra));
      else if (bytesRef) row(`8 children for 51 s, bytes written (${mode})`, bytes, "bytes", `≤ Claude Code's ${(bytesRef.value / 1e3).toFixed(1)} KB (${bytesRef.source})`, bytes <= bytesRef.value, bytesNote(kids.extra, `${(bytes / bytesRef.value).toFixed(1)}× Claude Code's`));
      const cpuRef = claudeCodeReference(figures, CHILDREN_51, "cpuS");
      const core = `${kids.extra.cpuPercentOfOneCore!.toFixed(0)} % of a core (round two's target ≤ 8 %)`;
      if (cpuRef) row(`8 children for 51 s, CPU ÷ Claude Code's (${mode})`, kids.median / cpuRef.value, "×", "≤ 0.5×", kids.median / cpuRef.value <= 0.5, `${kids.median.toFixed(2)} s vs Claude Code's ${cpuRef.value.toFixed(2)} s (${cpuRef.source}); ${core}${cpuLimit(kids.median / cpuRef.value <= 0.5, kids)}`);
      else row(`8 children for 51 s, CPU ÷ Claude Code's (${mode})`, kids.median, "s", "≤ 0.5× Claude Code's", undefined, `no Claude Code CPU figure for this scenario has been measured (run the \`claude\` group); ${core}`);
    }
  }
  const inlineBig = find("20,000-token answer (~4,000 tokens/s), --inline: CPU");
  if (inlineBig?.extra) row("20,000-token answer at once, bytes written (--inline)", inlineBig.extra.bytes!, "bytes", "≤ 100 KB", inlineBig.extra.bytes! <= 100e3, bytesNote(inlineBig.extra));
  for (const name of ["1 main + 8 children (50 tokens/s each, ~10 s)", "1 main + 8 children, 5,000 messages above"]) {
    const panes = find(`${name}: CPU`);
    if (panes?.extra) {
      const met = panes.extra.frameP99Ms! <= 8;
      row(`p99 frame, ${name.replace(" (50 tokens/s each, ~10 s)", "")}`, panes.extra.frameP99Ms!, "ms", "≤ 8 ms", met, [`p50 ${panes.extra.frameP50Ms!.toFixed(1)} ms`, met ? "" : slowFramesNote(panes.extra)].filter(Boolean).join("; "));
    }
  }
  const soak = figures.find((f) => f.name.startsWith("soak") && Number.isFinite(f.median));
  if (soak?.extra) {
    const flat = soak.median <= 0.2 && soak.extra.peakRssMb! <= 150;
    row(`RSS over a ${soak.extra.minutes}-minute soak, slope after warm-up`, soak.median, "MB/min", "≤ 0.2 MB/min and peak ≤ 150 MB", flat, `${soak.extra.startRssMb!.toFixed(0)} → ${soak.extra.endRssMb!.toFixed(0)} MB, peak ${soak.extra.peakRssMb!.toFixed(0)} MB${soakSplit(soak.extra)}`);
  }
  for (const name of [`${BELOW}: CPU`, "20,000-token answer, 5,000 messages above: CPU"]) {
    const f = find(name);
    if (f?.extra) row(`peak RSS, ${name.replace(": CPU", "")}`, f.extra.peakRssMb!, "MB", "≤ 150 MB", f.extra.peakRssMb! <= 150);
  }
  const noRegression: [string, number, string][] = [
    ["ink -p, one-line answer (loopback Messages API)", ROUND_ONE.printApiMs, "ms"],
    ["ink -p, one-line answer (demo model)", ROUND_ONE.printDemoMs, "ms"],
    ["TUI: spawn → first full frame (pty)", ROUND_ONE.firstFrameMs, "ms"],
    ["TUI: idle RSS, 3 s after the first frame", ROUND_ONE.idleRssMb, "MB"],
  ];
  const floor = find("node -e 0 (the floor)");
  for (const [name, before, unit] of noRegression) {
    const f = find(name);
    // Times are compared as multiples of the run's floor (node -e 0 was ~102 ms in round one's quiet run): the machine is shared.
    if (f) row(`no regression: ${name}`, f.median, unit, `≤ round one (${before} ${unit}, ±20 % noise)`, unit === "ms" && floor ? f.median / floor.median <= (before / 102) * 1.2 : f.median <= before * 1.2, unit === "ms" && floor ? `${(f.median / floor.median).toFixed(2)}× the floor (round one ${(before / 102).toFixed(2)}×)` : "");
  }
  const resumed = find("TUI: first frame resuming a 10,000-message session");
  const fresh = find("TUI: spawn → first full frame (pty)");
  if (resumed && fresh) {
    const ratio = resumed.median / fresh.median;
    row("no regression: first frame resuming 10,000 messages ÷ a new session's", ratio, "×", "≤ round one (1.25–1.42×, ±20 % noise)", ratio <= 1.42 * 1.2, `${resumed.median.toFixed(0)} ms`);
  }
  return out;
}
