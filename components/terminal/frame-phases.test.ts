import { afterEach, describe, expect, it, vi } from "vitest";
import { FrameClock, frameLine, overlapMs, parseFrameLine, runQueueWaitReader } from "./frame-phases.js";

afterEach(() => vi.restoreAllMocks());

/** performance.now() returning `times` in turn. */
function clockReading(...times: number[]) {
  const spy = vi.spyOn(performance, "now");
  for (const t of times) spy.mockReturnValueOnce(t);
}

describe("FrameClock: where a frame's time goes", () => {
  it("charges the time between marks to each phase, and a layout before the frame to that frame only", () => {
    const clock = new FrameClock();
    clock.laidOut(1.5);
    clock.laidOut(0.5);
    clockReading(100, 103, 104, 110, 111, 112);
    expect(clock.start()).toBe(100);
    clock.mark("rows"); // 103
    clock.mark("cells"); // 104
    clock.mark("diff"); // 110
    clock.mark("write"); // 111
    clock.mark("diff"); // 112: a phase marked twice adds up
    expect(clock.phases).toEqual({ rows: 3, cells: 1, diff: 7, write: 1, layout: 2 });
    clockReading(200);
    clock.start();
    expect(clock.phases).toEqual({ rows: 0, cells: 0, diff: 0, write: 0, layout: 0 });
  });
});

describe("frame lines (INK_BENCH_FRAMES)", () => {
  it("round-trips a record; a line of the time alone (a frame Ink drew) has no phases", () => {
    const record = { total: 9.25, rows: 1.5, cells: 0.25, diff: 6, write: 0.5, layout: 0.75, gc: 2, waited: 3.125 };
    expect(frameLine(record)).toBe("9.250 1.500 0.250 6.000 0.500 0.750 2.000 3.125");
    expect(parseFrameLine(frameLine(record))).toEqual(record);
    expect(parseFrameLine("4.5")).toEqual({ total: 4.5, rows: 0, cells: 0, diff: 0, write: 0, layout: 0, gc: 0, waited: 0 });
  });

  it("counts only the part of each GC pause inside the frame", () => {
    const pauses = [
      { startTime: 5, duration: 10 }, // 5–15: 10–15 inside
      { startTime: 12, duration: 2 }, // inside
      { startTime: 18, duration: 5 }, // 18–23: 18–20 inside
      { startTime: 30, duration: 1 }, // after
    ];
    expect(overlapMs(pauses, 10, 20)).toBe(5 + 2 + 2);
    expect(overlapMs([], 10, 20)).toBe(0);
  });

  it("reads the thread's wait for a CPU where Linux gives it, a figure that never goes back", () => {
    const read = runQueueWaitReader();
    if (process.platform !== "linux") return;
    expect(read).toBeDefined();
    const a = read!();
    const b = read!();
    expect(Number.isFinite(a)).toBe(true);
    expect(b).toBeGreaterThanOrEqual(a);
  });
});
