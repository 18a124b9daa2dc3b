/**
 * HistoryWindow: the finished transcript in full-screen mode — a window of `height` rows over it,
 * scrolled `offset` rows up from the bottom. Only the items that touch the window are rendered;
 * each rendered item's real height is measured once per width and kept, so scrolling stays exact
 * while 5,000 messages cost what 50 do.
 */
import { Box, measureElement, type DOMElement } from "ink";
import { useLayoutEffect, useRef, useState } from "react";
import type { TranscriptItem } from "./hooks/transcript-types.js";
import { finishedRows, recordRows, windowSlice } from "./layout/virtual-window.js";
import { unconstrained } from "./layout/unconstrained.js";
import { TranscriptItemView } from "./TranscriptItemView.js";

export interface HistoryWindowProps {
  /** Finished items, oldest first. */
  items: readonly TranscriptItem[];
  /** Columns of the window. */
  width: number;
  /** Rows of the window. */
  height: number;
  /** Rows scrolled up from the bottom (0 = following the end). */
  offset: number;
  /** Called with the number of items rendered (tests and the benchmark count them). */
  onRendered?: (count: number) => void;
  /** Details open (Ctrl-O): items drawn with their reports and whole results. */
  detail?: boolean;
  /** Called when a drawn item's height differed from the one assumed (whoever sums heights re-reads them). */
  onMeasured?: () => void;
}

/** One item, measured after it is drawn. */
function MeasuredItem({ item, width, detail, onHeight }: { item: TranscriptItem; width: number; detail: boolean; onHeight: (item: TranscriptItem, rows: number) => void }) {
  const ref = useRef<DOMElement>(null);
  useLayoutEffect(() => {
    if (ref.current) onHeight(item, measureElement(ref.current).height);
  });
  return (
    <Box ref={ref} flexDirection="column" flexShrink={0} width={width}>
      <TranscriptItemView item={item} now={0} width={width} detail={detail} />
    </Box>
  );
}

/** The window. */
export function HistoryWindow({ items, width, height, offset, onRendered, detail = false, onMeasured }: HistoryWindowProps) {
  const [, setVersion] = useState(0);
  const slice = windowSlice(items.length, (i) => finishedRows(items[i]!, width, detail), height, offset);
  const shown = items.slice(slice.start, slice.end);
  onRendered?.(shown.length);
  const onHeight = (item: TranscriptItem, rows: number) => {
    if (!recordRows(item, width, rows, detail)) return;
    setVersion((v) => v + 1);
    onMeasured?.();
  };
  return (
    <Box ref={unconstrained} height={height} flexDirection="column" justifyContent="flex-end" overflow="hidden" flexShrink={0}>
      <Box flexDirection="column" flexShrink={0} marginBottom={-slice.shift}>
        {shown.map((item) => (
          <MeasuredItem key={item.id} item={item} width={width} detail={detail} onHeight={onHeight} />
        ))}
      </Box>
    </Box>
  );
}
