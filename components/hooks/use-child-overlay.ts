/**
 * useChildOverlay: the content of the open child-transcript overlay. A running child shows its
 * live view from the event stream, updated as its events arrive; once it has ended (or for a child
 * that was not running) the saved transcript is loaded from its session file — again when the
 * child's status or result changes, so the view a person had open during the run is replaced by
 * the full transcript when the child ends.
 */
import { useMemo } from "react";
import type { SessionStore } from "../../src/session/store.js";
import { childOverlay, liveChildTitle, type OverlayView } from "../state/child-transcript.js";
import { liveChildLines } from "../state/transcript-lines.js";
import type { SidebarRow } from "../state/sidebar-rows.js";
import type { ChildView, StreamState } from "../state/transcript-types.js";
import type { Overlay } from "../state/ui-reducer.js";

/** The running child `childId` among the live items, or undefined. */
export function runningChild(state: StreamState, childId: string): ChildView | undefined {
  for (const item of state.live) if (item.kind === "tool" && item.child?.childId === childId && item.child.status === "running") return item.child;
  return undefined;
}

/** The overlay's title and lines (undefined when no overlay is open); `now` is the UI clock (ms). */
export function useChildOverlay(store: SessionStore | undefined, state: StreamState, overlay: Overlay | undefined, rows: readonly SidebarRow[], width: number, now: number): OverlayView | undefined {
  const childId = overlay?.childId;
  const live = childId === undefined ? undefined : runningChild(state, childId);
  const row = childId === undefined ? undefined : rows.find((r) => r.id === childId);
  const liveLines = useMemo(() => (live ? liveChildLines(live, width) : undefined), [live, width]);
  const running = live !== undefined;
  const saved = useMemo(
    () => (childId === undefined || running ? undefined : childOverlay(store, row ?? { id: childId, status: "unknown", prompt: "", at: Date.now(), current: false }, width, Date.now())),
    // Reloaded when the child stops running or its row's status/result change, not on every render.
    [store, childId, running, width, row?.status, row?.result],
  );
  if (live && liveLines) return { title: liveChildTitle(live, now), lines: liveLines };
  return saved;
}
