/**
 * bench/targets.ts: a target against Claude Code divides by Claude Code's figure of the same run
 * when the run measured one (the `claude` group), by the dated figure otherwise, and gives the
 * 8 children's CPU a verdict only when there is a Claude Code figure to divide by.
 */
import { describe, expect, it } from "vitest";
import { claudeCodeFigureName, claudeCodeReference, targetFigures } from "../../bench/targets.js";
import type { Figure } from "../../bench/stats.js";
import { scenarioWanted } from "../../bench/scenario-names.js";

const PACED = "paced answer (100 tokens/s for 20 s)";
const BELOW = `${PACED} below one 20,000-token answer`;
const KIDS = "8 children × 50 tokens/s for 51 s";

const ours = (name: string, cpuS: number, bytes: number): Figure => ({ group: "render", name: `${name}: CPU`, median: cpuS, unit: "s", runs: 1, extra: { bytes, cpuPercentOfOneCore: 5, wallS: 20 } });
const claude = (scenario: string, cpuS: number, bytes: number): Figure => ({ group: "claude", name: claudeCodeFigureName(scenario), median: cpuS, unit: "s", runs: 1, extra: { bytes } });
const render = [ours(PACED, 1.0, 200e3), ours(BELOW, 1.05, 210e3), ours(`${KIDS}, full-screen`, 2.0, 30e3), ours(`${KIDS}, --inline`, 2.2, 90e3)];
const rowOf = (rows: Figure[], name: string) => rows.find((r) => r.name === name);

describe("targets against Claude Code", () => {
  it("divides by the dated figures when the run has no Claude Code figures, and gives the children's CPU no verdict", () => {
    const rows = targetFigures(render);
    const below = rowOf(rows, "paced answer below a 20k answer, CPU ÷ Claude Code's (full-screen)")!;
    expect(below.median).toBeCloseTo(1.05 / 3.0);
    expect(below.note).toContain("2026-12-04, issue #29");
    expect(rowOf(rows, "paced answer, CPU ÷ Claude Code's (full-screen)")).toBeUndefined();
    expect(rowOf(rows, "8 children for 51 s, bytes written (full-screen)")!.note).toMatch(/^MISSED: .*2026-12-06, issue #41/);
    expect(rowOf(rows, "8 children for 51 s, CPU ÷ Claude Code's (full-screen)")!.note).toMatch(/^NO VERDICT/);
  });

  it("divides by Claude Code's figures of the same run when there are, naming them so, and gives the children's CPU a verdict", () => {
    const rows = targetFigures([...render, claude(PACED, 2.5, 220e3), claude(BELOW, 2.0, 260e3), claude(KIDS, 5.0, 35e3)]);
    const empty = rowOf(rows, "paced answer, CPU ÷ Claude Code's (full-screen)")!;
    expect(empty.median).toBeCloseTo(1.0 / 2.5);
    expect(empty.note).toMatch(/^met: .*same run/);
    const below = rowOf(rows, "paced answer below a 20k answer, CPU ÷ Claude Code's (--inline)");
    expect(below).toBeUndefined(); // no --inline paced figures of ours here
    const belowFull = rowOf(rows, "paced answer below a 20k answer, CPU ÷ Claude Code's (full-screen)")!;
    expect(belowFull.median).toBeCloseTo(1.05 / 2.0);
    expect(belowFull.note).toMatch(/^MISSED: .*same run/);
    const bytes = rowOf(rows, "8 children for 51 s, bytes written (full-screen)")!;
    expect(bytes.note).toMatch(/^met: target ≤ Claude Code's 35.0 KB \(same run\)/);
    const full = rowOf(rows, "8 children for 51 s, CPU ÷ Claude Code's (full-screen)")!;
    expect([full.median, full.unit]).toEqual([0.4, "×"]);
    expect(full.note).toMatch(/^met: .*same run/);
    const inline = rowOf(rows, "8 children for 51 s, CPU ÷ Claude Code's (--inline)")!;
    expect(inline.median).toBeCloseTo(0.44);
    expect(inline.note).toMatch(/^met/);
  });

  it("falls back to the dated figure when Claude Code's run of a scenario failed", () => {
    const failed: Figure = { group: "claude", name: claudeCodeFigureName(BELOW), median: Number.NaN, unit: "s", runs: 0, note: "failed: timed out" };
    expect(claudeCodeReference([failed], BELOW, "cpuS")).toEqual({ value: 3.0, source: "2026-12-04, issue #29" });
    expect(claudeCodeReference([claude(BELOW, 2.0, 260e3)], BELOW, "cpuS")).toEqual({ value: 2.0, source: "same run" });
    expect(claudeCodeReference([], KIDS, "cpuS")).toBeUndefined();
    // Claude Code's foreground-agents variant is for comparison only: the targets divide by its default's figure.
    expect(claudeCodeReference([claude(`${KIDS}, agents in the foreground`, 7, 37e3)], KIDS, "cpuS")).toBeUndefined();
    // A figure of ours with the same scenario is not Claude Code's.
    expect(claudeCodeReference([{ ...claude(KIDS, 1, 1), group: "render" }], KIDS, "bytes")).toEqual({ value: 20e3, source: "2026-12-06, issue #41" });
  });
});

describe("a missed CPU target names what limits it", () => {
  const profile = "busy 0.90 s of 21.6 s profiled: React 31 %, Yoga layout 18 %";
  it("gives the profile of a profiled run of the scenario, or says how to get one", () => {
    const paced = { ...ours(PACED, 1.4, 20e3), profile };
    paced.extra = { ...paced.extra, mainUserS: 0.9, mainSystemS: 0.05 };
    const rows = targetFigures([paced, ours(`${KIDS}, full-screen`, 2.0, 19e3), claude(PACED, 2.5, 220e3), claude(KIDS, 5.0, 19e3)]);
    expect(rowOf(rows, "paced answer, CPU ÷ Claude Code's (full-screen)")!.note).toMatch(
      /^MISSED: .*; what limits it: CPU by thread: main 0\.90 s user \+ 0\.05 s system, other threads \(V8's GC and compiler, libuv\) 0\.45 s; the main thread in a --cpu-prof run of the scenario: busy 0\.90 s of 21\.6 s profiled: React 31 %, Yoga layout 18 %$/,
    );
    const kids = rowOf(targetFigures([ours(`${KIDS}, full-screen`, 3.0, 19e3), claude(KIDS, 5.0, 19e3)]), "8 children for 51 s, CPU ÷ Claude Code's (full-screen)")!;
    expect(kids.note).toMatch(/^MISSED: .*; what limits it: not profiled \(INK_BENCH_PROFILE=1 adds a profiled run of each scenario\)$/);
  });

  it("adds nothing to a target met", () => {
    const rows = targetFigures([{ ...ours(PACED, 1.0, 20e3), profile }, claude(PACED, 2.5, 220e3)]);
    expect(rowOf(rows, "paced answer, CPU ÷ Claude Code's (full-screen)")!.note).not.toContain("limits");
  });
});

describe("INK_BENCH_SCENARIO", () => {
  it("picks the scenarios whose names contain a part, or are one after a '='", () => {
    expect(scenarioWanted(PACED, undefined)).toBe(true);
    expect(scenarioWanted(BELOW, "paced")).toBe(true);
    expect(scenarioWanted(BELOW, `=${PACED}`)).toBe(false);
    expect(scenarioWanted(PACED, `=${PACED}`)).toBe(true);
    expect(scenarioWanted(`${KIDS}, --inline`, `=${PACED}|51 s`)).toBe(true);
    expect(scenarioWanted(`${KIDS}, --inline`, `=${PACED}|soak`)).toBe(false);
  });
});
