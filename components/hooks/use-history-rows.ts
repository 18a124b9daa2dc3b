/**
 * useHistoryRows: the full-screen history's rows as the window draws them — at the region's width,
 * details open (Ctrl-O) or not, with every height measured so far — for the scroll range and the
 * view's position (each item's height is the rows it draws, layout/item-lines.ts). The sum is taken only when read (scrolled up, a
 * scroll, a search): the end of the transcript in view costs the items in view. Items appended to
 * the same history (a run's prompt, answers, finished task calls) are added to the last sum:
 * summing 5,000 measured items took ~1.5 ms of each frame an item finished in.
 */
import { useMemo, useRef } from "react";
import type { TranscriptItem } from "../state/transcript-types.js";
import type { TranscriptRows } from "./use-transcript-scroll.js";
import { finishedRows } from "../layout/virtual-window.js";

interface Sum {
  items: readonly TranscriptItem[];
  width: number;
  detail: boolean;
  total: number;
}

/** The rows of `items` drawn at `width` with details `detail`. */
export function useHistoryRows(items: readonly TranscriptItem[], width: number, detail: boolean): TranscriptRows {
  const last = useRef<Sum | undefined>(undefined);
  const rows = useMemo(() => {
    // Summed when first read: following the end (a resumed session's first frame) it is not read,
    // and summing means parsing every finished answer's Markdown for its height.
    const sum = () => {
      const prev = last.current;
      const from = prev && prev.width === width && prev.detail === detail && extends_(items, prev.items) ? prev.items.length : 0;
      let total = from > 0 ? prev!.total : 0;
      for (let i = from; i < items.length; i++) total += finishedRows(items[i]!, width, detail);
      last.current = { items, width, detail, total };
      return total;
    };
    let total: number | undefined;
    return {
      count: items.length,
      get total() {
        return (total ??= sum());
      },
      heightOf: (i: number) => finishedRows(items[i]!, width, detail),
    };
  }, [items, width, detail]);
  return rows;
}

/** Whether `items` begins with every item of `before`, the same objects in the same order. */
function extends_(items: readonly TranscriptItem[], before: readonly TranscriptItem[]): boolean {
  if (items.length < before.length) return false;
  for (let i = before.length - 1; i >= 0; i--) if (items[i] !== before[i]) return false;
  return true;
}
