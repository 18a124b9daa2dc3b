/**
 * useTranscriptScroll: where the full-screen transcript is scrolled. Following the end (new output
 * stays in view), or scrolled up: then the view's top row is held by the item it belongs to, so it
 * stays put while output arrives below, while drawn items are measured (their real height replacing
 * an estimate) and across a resize — Home is always row 0 and a search hit stays where it was put.
 * `offset` (rows up from the bottom) is derived every render from the same heights the history
 * window draws with; `unseen` counts the rows that arrived below since the person scrolled up (the
 * "↓ N new lines" hint); returning to the bottom clears it. While a live area is shown under the
 * history (a turn runs: its text, its children's panes), scrolling up always leaves it for the
 * history, even when the history alone fits the view: the live area may hide all of it. The
 * position itself lives in the screen's store (state/screen-state.ts `scroll`).
 */
import { useCallback, useMemo, useRef } from "react";
import { anchorAt, rowsBefore, type RowAnchor } from "../layout/virtual-window.js";
import type { ScreenStore, ScrollState } from "../state/screen-state.js";

/** The finished transcript as drawn now: its items' count, their total rows and each one's height. */
export interface TranscriptRows {
  count: number;
  total: number;
  heightOf(i: number): number;
}

export interface TranscriptScroll {
  /** Rows scrolled up from the bottom. */
  offset: number;
  /** Scrolled up: the history is shown in place of the live area (offset may be 0 when the history fits the view). */
  scrolled: boolean;
  /** Rows added below the view since the person scrolled up. */
  unseen: number;
  /** Scrolls by `delta` rows (positive = up, towards older output). */
  scrollBy(delta: number): void;
  /** To the top (`"top"`) or back to following the end (`"bottom"`). */
  edge(which: "top" | "bottom"): void;
  /** Scrolls so that row `row` (default 0: its first) of item `index` is the view's top row (or as near as the end allows). */
  showItem(index: number, row?: number): void;
}

/** Rows up from the bottom that put `anchor` at the top of a `view`-row view (0: the end is in view). */
function offsetOf(anchor: RowAnchor | undefined, rows: TranscriptRows, view: number): number {
  if (!anchor || anchor.item >= rows.count) return 0;
  return Math.max(0, Math.min(rows.total - view, rows.total - rowsBefore(rows.heightOf, anchor) - view));
}

/**
 * The scroll position `state` (the screen store's) over the transcript `rows`, shown `view` rows at
 * a time when scrolled up; `live`: a live area is shown under the history when following (see the
 * module note). Scrolling dispatches to `store`, from its state at the time of the key: several
 * scrolls in one tick (wheel notches arriving together) add up instead of each starting from the
 * last rendered offset.
 */
export function useTranscriptScroll(store: ScreenStore, state: ScrollState, rows: TranscriptRows, view: number, live = false): TranscriptScroll {
  const latest = useRef({ rows, view, live });
  latest.current = { rows, view, live };
  /** Shows the row `anchorFor` names (none, or the end in view with no live area: following). */
  const go = useCallback(
    (anchorFor: (s: ScrollState, r: TranscriptRows, v: number) => RowAnchor | undefined) => {
      const { rows: r, view: v, live: l } = latest.current;
      const anchor = anchorFor(store.getState().scroll, r, v);
      if (!anchor || (offsetOf(anchor, r, v) === 0 && !l)) store.dispatch({ type: "scroll_follow", count: r.count });
      else store.dispatch({ type: "scroll_hold", anchor, count: r.count });
    },
    [store],
  );
  const offset = useMemo(() => offsetOf(state.anchor, rows, view), [state.anchor, rows, view]);
  const unseen = useMemo(() => {
    if (offset === 0) return 0;
    let n = 0;
    for (let i = state.since; i < rows.count; i++) n += rows.heightOf(i);
    return Math.min(offset, n);
  }, [offset, state.since, rows]);
  return {
    offset,
    scrolled: state.anchor !== undefined && (offset > 0 || live),
    unseen,
    scrollBy: useCallback(
      (delta: number) =>
        go((s, r, v) => {
          const current = offsetOf(s.anchor, r, v);
          const target = Math.round(current + delta);
          const wanted = Math.max(0, Math.min(r.total - v, target));
          if (wanted > 0) return anchorAt(r.count, r.heightOf, r.total - wanted - v);
          // Up while the history fits the view: its top (kept only while a live area is shown).
          return target > current && r.count > 0 ? (s.anchor ?? { item: 0, row: 0 }) : undefined;
        }),
      [go],
    ),
    edge: useCallback((which: "top" | "bottom") => go((_s, r) => (which === "top" && r.count > 0 ? { item: 0, row: 0 } : undefined)), [go]),
    showItem: useCallback(
      (index: number, row = 0) => go((_s, r) => (index >= 0 && index < r.count ? { item: index, row: Math.max(0, Math.min(row, r.heightOf(index) - 1)) } : undefined)),
      [go],
    ),
  };
}
