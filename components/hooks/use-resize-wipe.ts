/**
 * useResizeWipe: full-screen only, once a resize has settled and the frame was drawn at the new
 * size, the alternate screen (no scrollback to keep) is wiped and Ink writes its whole frame
 * again — its row-by-row updates would otherwise build on rows the terminal has rewrapped or cut.
 */
import { useEffect, useRef } from "react";
import type { ScreenMode } from "../state/ui-reducer.js";

/** The alternate screen's rows wiped, cursor home (no scrollback there). */
const WIPE_ALT_SCREEN = "\u001b[2J\u001b[H";
/** Wait after the last size change before the full redraw (longer than a frame at Ink's 30 fps). */
const RESIZE_SETTLE_MS = 80;

/** Wipes the full-screen frame (through `write`) after `columns` × `rows` changed and settled; never at the first size. */
export function useResizeWipe(mode: ScreenMode, columns: number, rows: number, write: (data: string) => void): void {
  const sized = useRef(false);
  useEffect(() => {
    if (mode !== "fullscreen") return;
    if (!sized.current) {
      sized.current = true;
      return;
    }
    const t = setTimeout(() => write(WIPE_ALT_SCREEN), RESIZE_SETTLE_MS);
    return () => clearTimeout(t);
  }, [mode, columns, rows, write]);
}
