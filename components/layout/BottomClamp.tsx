/**
 * BottomClamp: a column that is never taller than `maxRows` terminal rows. When its content is
 * taller, the top is cut off (the newest rows — at the bottom — stay), so whatever the estimates
 * upstream say, the live frame cannot outgrow the terminal. Shorter content keeps its own height.
 *
 * The cap is Yoga's max-height on the box (Ink has no such prop: a ref sets it), so the box takes
 * its content's height in the very frame the content changes. (It used to follow a measurement
 * taken after each render: the frame in which content shrank — a run ending, its answer moving to
 * the scrollback — was drawn at the old height, rows of nothing that scrolled the answer's end off
 * the screen.) The children are laid out at their own height (`unconstrained`) and drawn clipped.
 */
import { Box, type DOMElement } from "ink";
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { unconstrained } from "./unconstrained.js";

export interface BottomClampProps {
  /** Most rows the box may take. */
  maxRows: number;
  /** Fixed width (columns); default: the parent's. */
  width?: number;
  /** Always take exactly `maxRows` rows (full-screen regions), content at the bottom. */
  fill?: boolean;
  children: ReactNode;
}

/** The clamped column. */
export function BottomClamp({ maxRows, width, fill = false, children }: BottomClampProps) {
  const cap = Math.max(0, Math.floor(maxRows));
  const box = useRef<DOMElement | null>(null);
  const capRef = useRef(cap);
  capRef.current = cap;
  // Set while rendering, so the layout of this very commit uses a changed cap (Yoga only marks the
  // node dirty; the same value again is a no-op).
  box.current?.yogaNode?.setMaxHeight(cap);
  const attach = useCallback((node: DOMElement | null) => {
    box.current = node;
    unconstrained(node);
    node?.yogaNode?.setMaxHeight(capRef.current);
  }, []);
  // The box exists only after its first commit, laid out uncapped: draw once more with the cap.
  const [, setMounted] = useState(false);
  useLayoutEffect(() => setMounted(true), []);
  return (
    <Box ref={attach} height={fill ? cap : undefined} width={width} flexDirection="column" justifyContent="flex-end" overflow="hidden" flexShrink={0}>
      <Box flexDirection="column" flexShrink={0}>
        {children}
      </Box>
    </Box>
  );
}
