/**
 * BottomClamp: a column that is never taller than `maxRows` terminal rows. When its content is
 * taller, the top is cut off (the newest rows — at the bottom — stay), so whatever the estimates
 * upstream say, the live frame cannot outgrow the terminal. Shorter content keeps its own height:
 * the content's natural height is measured after each render and the box follows it (until the
 * measurement arrives, the old height is kept, clipped — never more than `maxRows`).
 */
import { Box, measureElement, type DOMElement } from "ink";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";

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
  const inner = useRef<DOMElement>(null);
  const [natural, setNatural] = useState(0);
  useLayoutEffect(() => {
    if (!inner.current) return;
    const h = measureElement(inner.current).height;
    if (h !== natural) setNatural(h);
  });
  const cap = Math.max(0, Math.floor(maxRows));
  const height = fill ? cap : Math.min(cap, natural);
  return (
    <Box height={height} width={width} flexDirection="column" justifyContent="flex-end" overflow="hidden" flexShrink={0}>
      <Box ref={inner} flexDirection="column" flexShrink={0}>
        {children}
      </Box>
    </Box>
  );
}
