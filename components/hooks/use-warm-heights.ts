/**
 * useWarmHeights: measures the full-screen history's items at a width the region may soon have —
 * the other side of the standing sidebar, which appears when the first child starts and goes when
 * the person hides it — a slice of items at a time in idle turns after the frame. The frame that
 * changes the width then finds every height remembered (virtual-window's finishedRows keeps a few
 * widths an item) instead of wrapping thousands of items at once: with 5,000 messages above, the
 * sidebar's arrival was a ~60 ms frame.
 */
import { useEffect } from "react";
import { finishedRows } from "../layout/virtual-window.js";
import type { TranscriptItem } from "../state/transcript-types.js";

/** Items measured per idle turn. */
export const WARM_SLICE = 250;
/** Pause between slices (ms), so frames and keys go first. */
export const WARM_PAUSE_MS = 15;

/**
 * Measures `items` at `width` (when set and not the width drawn now, `drawnWidth`), WARM_SLICE
 * items every WARM_PAUSE_MS; starts again when the items or widths change (items already measured
 * cost a lookup). `measure` is the measurement (tests count it).
 */
export function useWarmHeights(items: readonly TranscriptItem[], width: number | undefined, drawnWidth: number, detail: boolean, measure: (item: TranscriptItem, width: number, detail: boolean) => unknown = finishedRows): void {
  useEffect(() => {
    if (width === undefined || width === drawnWidth || items.length === 0) return;
    let i = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = () => {
      const end = Math.min(items.length, i + WARM_SLICE);
      for (; i < end; i++) measure(items[i]!, width, detail);
      timer = i < items.length ? setTimeout(step, WARM_PAUSE_MS) : undefined;
    };
    timer = setTimeout(step, WARM_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [items, width, drawnWidth, detail, measure]);
}
