/**
 * useScreenRefresh: redraws the transcript from scratch — clears the screen and the scrollback,
 * then <Static> is remounted (its key is `epoch`) and writes the whole history again. Used when
 * the terminal's width changes (the terminal re-wraps what is already on screen, so old frames
 * would stay as broken copies), debounced so a drag-resize redraws once, and when a tall view
 * (the transcript overlay) closes, which would otherwise leave the screen scrolled to blank rows.
 */
import { useStdout } from "ink";
import { useCallback, useEffect, useRef, useState } from "react";

/** Clears the screen and the scrollback, cursor home. */
export const CLEAR_SCREEN = "\u001b[2J\u001b[3J\u001b[H";

/** Quiet time after the last width change before the screen is redrawn (ms). */
export const RESIZE_REDRAW_MS = 100;

/** The redraw count (use it in <Static>'s key) and a redraw-now function. */
export interface ScreenRefresh {
  epoch: number;
  refresh(): void;
}

/** Redraws `delayMs` after the last change of `columns` (not at mount), and on demand. */
export function useScreenRefresh(columns: number, delayMs = RESIZE_REDRAW_MS): ScreenRefresh {
  const { write } = useStdout();
  const [epoch, setEpoch] = useState(0);
  const refresh = useCallback(() => {
    write(CLEAR_SCREEN);
    setEpoch((e) => e + 1);
  }, [write]);
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const timer = setTimeout(refresh, delayMs);
    return () => clearTimeout(timer);
  }, [columns, delayMs, refresh]);
  return { epoch, refresh };
}
