/**
 * useTranscriptScroll: where the full-screen transcript is scrolled — `offset` rows up from the
 * bottom, 0 meaning "follow the end" (new output stays in view). Scrolled up, the view holds still
 * while output arrives below it, and `unseen` counts the rows that arrived (the "↓ N new lines"
 * hint); returning to the bottom clears it.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export interface TranscriptScroll {
  /** Rows scrolled up from the bottom. */
  offset: number;
  /** Rows added below the view since the person scrolled up. */
  unseen: number;
  /** Scrolls by `delta` rows (positive = up, towards older output). */
  scrollBy(delta: number): void;
  /** To the top (`"top"`) or back to following the end (`"bottom"`). */
  edge(which: "top" | "bottom"): void;
  /** Scrolls so that the rows `[fromBottom - view, fromBottom)` are shown: an item whose end is `fromBottom` rows above the end sits at the view's top. */
  showAt(offset: number): void;
}

/** Scroll state over a transcript of `total` rows shown `view` rows at a time. */
export function useTranscriptScroll(total: number, view: number): TranscriptScroll {
  const [state, setState] = useState({ offset: 0, unseen: 0 });
  const max = Math.max(0, total - view);
  const last = useRef(total);
  useEffect(() => {
    const grown = total - last.current;
    last.current = total;
    if (grown > 0) setState((s) => (s.offset > 0 ? { offset: s.offset + grown, unseen: s.unseen + grown } : s));
  }, [total]);
  const limits = useRef(max);
  limits.current = max;
  // `to` maps the current offset to the wanted one: several scrolls in one tick (wheel notches
  // arriving together) add up instead of each starting from the last rendered offset.
  const set = useCallback((to: (current: number) => number) => {
    setState((s) => {
      const from = Math.min(s.offset, limits.current);
      const clamped = Math.max(0, Math.min(limits.current, Math.round(to(from))));
      if (clamped === 0) return s.offset === 0 && s.unseen === 0 ? s : { offset: 0, unseen: 0 };
      return { offset: clamped, unseen: clamped < s.offset ? Math.min(s.unseen, clamped) : s.unseen };
    });
  }, []);
  const offset = Math.min(state.offset, max);
  return {
    offset,
    unseen: offset === 0 ? 0 : state.unseen,
    scrollBy: useCallback((delta: number) => set((current) => current + delta), [set]),
    edge: useCallback((which: "top" | "bottom") => set(() => (which === "top" ? Number.MAX_SAFE_INTEGER : 0)), [set]),
    showAt: useCallback((at: number) => set(() => at), [set]),
  };
}
