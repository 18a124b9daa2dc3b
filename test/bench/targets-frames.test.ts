/**
 * bench/targets.ts: the p99 frame target names what limits it when missed — the split of its
 * slowest frames into phases (bench/render.ts `slowFrameSplit`, from INK_BENCH_FRAMES' lines) —
 * and prints a met target as met, without the split.
 */
import { describe, expect, it } from "vitest";
import { slowFrameSplit } from "../../bench/render.js";
import { targetFigures } from "../../bench/targets.js";
import type { Figure } from "../../bench/stats.js";
import type { FrameRecord } from "../../components/terminal/frame-phases.js";

const SCENARIO = "1 main + 8 children (50 tokens/s each, ~10 s)";
const frame = (total: number, o: Partial<FrameRecord> = {}): FrameRecord => ({ total, rows: 0, cells: 0, diff: 0, write: 0, layout: 0, gc: 0, waited: 0, ...o });
const figureOf = (frames: FrameRecord[], p99: number): Figure => ({
  group: "render",
  name: `${SCENARIO}: CPU`,
  median: 1,
  unit: "s",
  runs: 1,
  extra: { frameP50Ms: 1, frameP99Ms: p99, ...slowFrameSplit(frames, 99) },
});
const p99Row = (figures: Figure[]) => targetFigures(figures).find((r) => r.name === "p99 frame, 1 main + 8 children")!;

describe("slowFrameSplit: where the frames that make the p99 went", () => {
  it("averages the phases of the frames at or above the p99, and gives the p99 of the frames less their wait for a CPU", () => {
    const frames = [...Array.from({ length: 98 }, () => frame(1, { rows: 0.5, diff: 0.4 })), frame(12, { rows: 2, cells: 1, diff: 6, write: 1, layout: 0.5, gc: 1, waited: 9 }), frame(10, { rows: 2, cells: 1, diff: 4, write: 1, layout: 1.5, gc: 0, waited: 1 })];
    const split = slowFrameSplit(frames, 99);
    expect(split).toMatchObject({ framesDrawn: 100, p99Frames: 2, p99FrameMs: 11, p99RowsMs: 2, p99CellsMs: 1, p99DiffMs: 5, p99WriteMs: 1, p99LayoutMs: 1, p99GcMs: 0.5, p99WaitedMs: 5 });
    // Less their waits, the two slow frames took 3 and 9 ms: the 99th of the 100 (nearest rank) is 3.
    expect(split.frameP99OwnMs).toBe(3);
    expect(slowFrameSplit([], 99)).toEqual({});
    // A frame that waited for a CPU all along (the wait is read just outside its clock) took none of its own time.
    expect(slowFrameSplit([frame(20, { waited: 20.3 })], 99).frameP99OwnMs).toBe(0);
  });
});

describe("the p99 frame target", () => {
  it("when missed, names the slowest frames' phases, their GC and wait for a CPU, and the p99 without the wait", () => {
    const frames = [...Array.from({ length: 71 }, () => frame(1.2, { rows: 0.6, diff: 0.4 })), frame(11.2, { rows: 2.3, cells: 0.6, diff: 6.1, write: 2, layout: 0.8, gc: 1.5, waited: 4 })];
    const row = p99Row([figureOf(frames, 11.2)]);
    expect(row.note).toMatch(/^MISSED: target ≤ 8 ms; p50 1\.0 ms; /);
    expect(row.note).toContain("the slowest 1 of 72 frames: 11.2 ms = rows 2.3 + cells 0.6 + diff 6.1 + write 2.0 + other 0.2");
    expect(row.note).toContain("within it GC 1.5 ms, waiting for a CPU 4.0 ms; Yoga's layout before it 0.8 ms");
    expect(row.note).toContain("p99 less the wait for a CPU 7.2 ms");
  });

  it("when met, prints met and no split", () => {
    const frames = Array.from({ length: 72 }, (_, i) => frame(i === 0 ? 6 : 1, { diff: 0.5 }));
    const row = p99Row([figureOf(frames, 6)]);
    expect(row.note).toBe("met: target ≤ 8 ms; p50 1.0 ms");
  });

  it("a run whose frames carry no phases (an older build) still gets its verdict, without a split", () => {
    const row = p99Row([{ group: "render", name: `${SCENARIO}: CPU`, median: 1, unit: "s", runs: 1, extra: { frameP50Ms: 1, frameP99Ms: 9 } }]);
    expect(row.note).toBe("MISSED: target ≤ 8 ms; p50 1.0 ms");
  });
});
