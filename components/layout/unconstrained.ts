/**
 * Yoga measures the children of a fixed-height box "at most" that height, so a child of a clipped
 * box is squeezed (a row with a top margin measures one row, its text none) and any measurement
 * taken inside it is wrong. Yoga's `overflow: scroll` lays the children out at their own height
 * instead; Ink never sets Yoga's overflow (its `overflow="hidden"` only clips at render time), so
 * the two combine: laid out at full height, drawn clipped.
 */
import type { DOMElement } from "ink";

/** Yoga's Overflow.Scroll. */
const OVERFLOW_SCROLL = 2;

/** Ref callback: lays the box's children out unconstrained by its height (they are still clipped when drawn). */
export function unconstrained(node: DOMElement | null): void {
  node?.yogaNode?.setOverflow(OVERFLOW_SCROLL);
}
