/**
 * useHistoryRows: the full-screen history's rows as the window draws them — at the region's width,
 * details open (Ctrl-O) or not, with every height measured so far — for the scroll range and the
 * view's position. The window reports each measured height that differed from its estimate
 * (`measured`), and the rows are summed again. The sum is taken only when read (scrolled up, a
 * scroll, a search): the end of the transcript in view costs the items in view.
 */
import { useMemo, useReducer } from "react";
import type { TranscriptItem } from "./transcript-types.js";
import type { TranscriptRows } from "./use-transcript-scroll.js";
import { finishedRows, totalRows } from "../layout/virtual-window.js";

/** The rows of `items` drawn at `width` with details `detail`; call `measured` when a drawn height changed. */
export function useHistoryRows(items: readonly TranscriptItem[], width: number, detail: boolean): { rows: TranscriptRows; measured: () => void } {
  const [version, measured] = useReducer((n: number) => n + 1, 0);
  const rows = useMemo(() => {
    // Summed when first read: following the end (a resumed session's first frame) it is not read,
    // and summing means parsing every finished answer's Markdown for its height.
    let total: number | undefined;
    return {
      count: items.length,
      get total() {
        return (total ??= totalRows(items, width, detail));
      },
      heightOf: (i: number) => finishedRows(items[i]!, width, detail),
      version,
    };
  }, [items, width, detail, version]);
  return { rows, measured };
}
