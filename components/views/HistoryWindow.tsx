/**
 * HistoryWindow: the finished transcript in full-screen mode — a window of `height` rows over it,
 * scrolled `offset` rows up from the bottom. Only the items that touch the window are rendered,
 * and of a finished answer (drawn in parts: its Markdown blocks, see layout/item-parts.ts) only
 * the blocks that touch it, so a 20,000-token answer costs a screenful. Each drawn item or part is
 * measured once per width and kept, so scrolling stays exact while 5,000 messages cost what 50 do.
 * Finished items never change: everything here is memoised, and a frame in which only the live
 * items changed does not render the window again.
 */
import { Box, measureElement, type DOMElement } from "ink";
import { memo, useCallback, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import type { TranscriptItem } from "../state/transcript-types.js";
import { isParted, partBlocks, partRows, partsCovering, recordPartRows, type PartedItem } from "../layout/item-parts.js";
import { finishedRows, recordRows, windowSlice } from "../layout/virtual-window.js";
import { unconstrained } from "../layout/unconstrained.js";
import { MarkdownBlock } from "./Markdown.js";
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

/** Called after a draw with the rows an item (`part` undefined) or one of its parts took. */
type OnHeight = (item: TranscriptItem, rows: number, part?: number) => void;

/** A box measured after each time it is drawn (memoised by its callers, so once per change). */
function Measured({ item, part, width, onHeight, children }: { item: TranscriptItem; part?: number; width: number; onHeight: OnHeight; children: ReactNode }) {
  const ref = useRef<DOMElement>(null);
  useLayoutEffect(() => {
    if (ref.current) onHeight(item, measureElement(ref.current).height, part);
  });
  return (
    <Box ref={ref} flexDirection="column" flexShrink={0} width={width}>
      {children}
    </Box>
  );
}

/** One item drawn whole. */
const WholeItem = memo(function WholeItem({ item, width, detail, onHeight }: { item: TranscriptItem; width: number; detail: boolean; onHeight: OnHeight }) {
  return (
    <Measured item={item} width={width} onHeight={onHeight}>
      <TranscriptItemView item={item} now={0} width={width} detail={detail} />
    </Measured>
  );
});

/** One part of a finished answer: its lead row (index 0) or Markdown block `index - 1`. */
const ItemPart = memo(function ItemPart({ item, index, width, onHeight }: { item: PartedItem; index: number; width: number; onHeight: OnHeight }) {
  if (index === 0) return <Box height={1} flexShrink={0} />;
  return (
    <Measured item={item} part={index} width={width} onHeight={onHeight}>
      <MarkdownBlock block={partBlocks(item)[index - 1]!} width={width} />
    </Measured>
  );
});

/** The window. */
export const HistoryWindow = memo(function HistoryWindow({ items, width, height, offset, onRendered, detail = false, onMeasured }: HistoryWindowProps) {
  const [, setVersion] = useState(0);
  const heightOf = (i: number) => finishedRows(items[i]!, width, detail);
  const slice = windowSlice(items.length, heightOf, height, offset);
  onRendered?.(slice.end - slice.start);
  const onHeight = useCallback<OnHeight>(
    (item, rows, part) => {
      const changed = part === undefined ? recordRows(item, width, rows, detail) : isParted(item) && recordPartRows(item, width, part, rows);
      if (!changed) return;
      setVersion((v) => v + 1);
      onMeasured?.();
    },
    [width, detail, onMeasured],
  );
  // From the last item up: the rows of the rendered block under each item, and which rows of it
  // are in view (the window shows rows [shift, shift + height) counted up from the block's bottom).
  const drawn: ReactNode[] = [];
  let below = 0;
  let cutBelow = 0;
  for (let i = slice.end - 1; i >= slice.start; i--) {
    const item = items[i]!;
    const h = heightOf(i);
    if (isParted(item)) {
      const hiddenBelow = Math.max(0, slice.shift - below);
      const hiddenAbove = Math.max(0, below + h - (slice.shift + height));
      const heights = partRows(item, width);
      const parts = partsCovering(heights, hiddenAbove, h - hiddenBelow);
      if (i === slice.end - 1) cutBelow = h - parts.to;
      const shown: ReactNode[] = [];
      for (let p = parts.first; p < parts.end; p++) shown.push(<ItemPart key={p} item={item} index={p} width={width} onHeight={onHeight} />);
      drawn.push(
        <Box key={item.id} flexDirection="column" flexShrink={0} width={width}>
          {shown}
        </Box>,
      );
    } else drawn.push(<WholeItem key={item.id} item={item} width={width} detail={detail} onHeight={onHeight} />);
    below += h;
  }
  drawn.reverse();
  return (
    <Box ref={unconstrained} height={height} flexDirection="column" justifyContent="flex-end" overflow="hidden" flexShrink={0}>
      <Box flexDirection="column" flexShrink={0} marginBottom={-(slice.shift - cutBelow)}>
        {drawn}
      </Box>
    </Box>
  );
});
