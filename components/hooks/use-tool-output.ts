/** The "whole tool output" overlay's content as a hook (the overlay itself: state/tool-output.ts). */
import { useMemo } from "react";
import { latestToolItems, toolOutputView } from "../state/tool-output.js";
import type { OverlayView } from "../state/child-transcript.js";
import type { StreamState } from "../state/transcript-types.js";

/**
 * The overlay's content while `open` (undefined when closed): built when it opens — the session
 * file is read at that moment — and again when the width changes, not on every frame.
 */
export function useToolOutputOverlay(open: boolean, state: StreamState, width: number, unsaved: boolean): OverlayView | undefined {
  return useMemo(
    () => (open ? toolOutputView(latestToolItems([...state.finished, ...state.live]), state.heldResults ?? {}, width, { unsaved }) : undefined),
    // Read once per opening (and per width): the state at the moment of the key.
    [open, width],
  );
}
