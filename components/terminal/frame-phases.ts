/**
 * Where a frame's time goes: the frame owner (frame-owner.tsx) and the frame writers (tree-frames.ts)
 * mark the end of each phase of a draw on one clock, so a slow frame can be read as its parts
 * (INK_BENCH_FRAMES records them; bench/targets.ts names them when the p99 frame is missed). A mark
 * is one `performance.now()`: cheap enough to be always on.
 */
import { closeSync, openSync, readSync } from "node:fs";

/** The phases of one drawn frame, ms. */
export interface FramePhases {
  /** Drawing Ink's laid-out tree into rows of cells (tree-rows.ts). */
  rows: number;
  /** Fitting the rows to the terminal and turning them into the lines and cells the diff compares. */
  cells: number;
  /** The diff: the bytes that turn the frame shown into this one (scroll planning and SGR compaction included). */
  diff: number;
  /** Handing the bytes to the terminal's stream. */
  write: number;
  /** Yoga's layout of the commits since the last frame: before the frame, not part of its time. */
  layout: number;
}

/** A phase a draw marks the end of. */
export type Phase = "rows" | "cells" | "diff" | "write";

/** One frame's phases, timed by marks: `start` begins a frame, each `mark` charges the time since the last mark to a phase. */
export class FrameClock {
  phases: FramePhases = { rows: 0, cells: 0, diff: 0, write: 0, layout: 0 };
  private last = 0;
  /** Layout time waiting for the next frame. */
  private layout = 0;

  /** A frame begins now; returns the time. */
  start(): number {
    this.phases = { rows: 0, cells: 0, diff: 0, write: 0, layout: this.layout };
    this.layout = 0;
    this.last = performance.now();
    return this.last;
  }

  /** The time since the last mark (or the start) was spent in `phase`. */
  mark(phase: Phase): void {
    const now = performance.now();
    this.phases[phase] += now - this.last;
    this.last = now;
  }

  /** Yoga laid the tree out for `ms` (charged to the next frame's `layout`). */
  laidOut(ms: number): void {
    this.layout += ms;
  }
}

/**
 * One frame as INK_BENCH_FRAMES records it (a line): its time, then rows, cells, diff, write,
 * layout, GC and waited (ms; GC pauses and the wait overlap the phases they fell in).
 */
export interface FrameRecord extends FramePhases {
  total: number;
  /** GC pauses within the frame. */
  gc: number;
  /** Time the main thread was ready to run but waited for a CPU within the frame (the machine's load, not the frame's work). */
  waited: number;
}

/** The fields of a record's line, in order. */
const FIELDS = ["total", "rows", "cells", "diff", "write", "layout", "gc", "waited"] as const;

/** `record` as one line of the frames file: its fields in order, space-separated, in ms. */
export function frameLine(record: FrameRecord): string {
  return FIELDS.map((f) => record[f].toFixed(3)).join(" ");
}

/** A line of the frames file back as a record; a line of the total alone (a frame Ink drew) has zero phases. */
export function parseFrameLine(line: string): FrameRecord {
  const values = line.trim().split(/\s+/).map(Number);
  const record = { total: 0, rows: 0, cells: 0, diff: 0, write: 0, layout: 0, gc: 0, waited: 0 };
  FIELDS.forEach((f, i) => (record[f] = values[i] ?? 0));
  return record;
}

/** Milliseconds of `pauses` (GC pauses: start, duration) that fall between `from` and `to`. */
export function overlapMs(pauses: readonly { startTime: number; duration: number }[], from: number, to: number): number {
  let ms = 0;
  for (const p of pauses) ms += Math.max(0, Math.min(to, p.startTime + p.duration) - Math.max(from, p.startTime));
  return ms;
}

/**
 * (Linux) A reader of the main thread's time spent waiting on a run queue so far (ms), from
 * /proc/thread-self/schedstat (its second field, ns), held open (a read is ~2 µs); undefined where
 * that cannot be read. Call it on the thread to measure: the file is that of the thread that opens it.
 */
export function runQueueWaitReader(): (() => number) | undefined {
  let fd: number;
  try {
    fd = openSync("/proc/thread-self/schedstat", "r");
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(96);
  const read = () => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    return Number(buf.toString("latin1", 0, n).split(" ")[1]) / 1e6;
  };
  if (!Number.isFinite(read())) {
    closeSync(fd);
    return undefined;
  }
  return read;
}
