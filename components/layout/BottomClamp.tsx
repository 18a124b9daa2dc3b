/**
 * BottomClamp: a column that is never taller than `maxRows` terminal rows. When its content is
 * taller, the top is cut off (the newest rows — at the bottom — stay), so whatever the estimates
 * upstream say, the live frame cannot outgrow the terminal. Shorter content keeps its own height:
 * the content's natural height is measured after each render and the box follows it. Until a
 * measurement arrives the box keeps its previous height; an empty box has no height at all, so
 * content appearing in it can be measured (estimates upstream keep that first frame in budget).
 *
 * Clamps nest: when an inner clamp changes height it asks the enclosing one to measure again,
 * since the outer box would otherwise keep a stale height and cut the inner one's new rows.
 */
import { Box, measureElement, type DOMElement } from "ink";
import { unconstrained } from "./unconstrained.js";
import { createContext, useCallback, useContext, useLayoutEffect, useRef, useState, type ReactNode } from "react";

export interface BottomClampProps {
  /** Most rows the box may take. */
  maxRows: number;
  /** Fixed width (columns); default: the parent's. */
  width?: number;
  /** Always take exactly `maxRows` rows (full-screen regions), content at the bottom. */
  fill?: boolean;
  children: ReactNode;
}

/** Asks the enclosing clamp (if any) to measure its content again. */
const RemeasureParent = createContext<() => void>(() => {});

/** The clamped column. */
export function BottomClamp({ maxRows, width, fill = false, children }: BottomClampProps) {
  const inner = useRef<DOMElement>(null);
  const [natural, setNatural] = useState(0);
  const [, setTick] = useState(0);
  const remeasureParent = useContext(RemeasureParent);
  const remeasure = useCallback(() => setTick((t) => t + 1), []);
  useLayoutEffect(() => {
    if (!inner.current) return;
    const h = measureElement(inner.current).height;
    if (h !== natural) {
      setNatural(h);
      remeasureParent();
    }
  });
  const cap = Math.max(0, Math.floor(maxRows));
  // Nothing measured yet (or empty): no height, so Yoga lays the content out and it can be measured
  // (the children of a zero-height box are not laid out at all).
  const height = fill ? cap : natural === 0 ? undefined : Math.min(cap, natural);
  return (
    <Box ref={unconstrained} height={height} width={width} flexDirection="column" justifyContent="flex-end" overflow="hidden" flexShrink={0}>
      <Box ref={inner} flexDirection="column" flexShrink={0}>
        <RemeasureParent.Provider value={remeasure}>{children}</RemeasureParent.Provider>
      </Box>
    </Box>
  );
}
