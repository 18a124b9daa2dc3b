/**
 * useFullscreenKeys: the keys of the transcript region. Full-screen: PgUp/PgDn scroll a page,
 * Home/End (on an empty prompt, or with Ctrl) go to the top / back to following the end, the mouse
 * wheel scrolls three rows a notch, Ctrl-F opens the search, Ctrl-S toggles the standing sidebar,
 * Ctrl-O opens or closes details in place. Inline, the history is in the terminal's scrollback and
 * cannot change in place: Ctrl-O only says where details are.
 */
import { useInput } from "ink";
import { useRef } from "react";
import type { ScreenMode } from "../state/ui-reducer.js";
import type { TranscriptScroll } from "./use-transcript-scroll.js";
import type { UiFocus } from "../state/ui-reducer.js";
import { useMouseWheel } from "./use-mouse-wheel.js";

/** Rows one wheel notch scrolls. */
export const WHEEL_ROWS = 3;

export interface FullscreenKeyOptions {
  mode: ScreenMode;
  /** False while an approval question or the search line has the keyboard. */
  active: boolean;
  focus: UiFocus;
  /** Rows of the transcript region (a page is two fewer). */
  regionRows: number;
  scroll: TranscriptScroll;
  /** Whether the prompt's draft is empty (Home/End then belong to the transcript). */
  draftEmpty: () => boolean;
  startSearch(): void;
  toggleSidebar(): void;
  toggleDetail(): void;
  /** Shows a one-line hint in the status bar. */
  hint(text: string): void;
}

/** Subscribes the transcript region's keys (and the wheel) for the screen. */
export function useFullscreenKeys(options: FullscreenKeyOptions): void {
  // Read at key time: a key right after a render reaches the handler before ink re-subscribed it.
  const latest = useRef(options);
  latest.current = options;
  const hasKeys = (o: FullscreenKeyOptions) => o.mode === "fullscreen" && o.active && !(o.focus === "overlay" || o.focus === "picker" || o.focus === "resume");
  useMouseWheel((step) => {
    if (hasKeys(latest.current)) latest.current.scroll.scrollBy(step * WHEEL_ROWS);
  }, options.mode === "fullscreen");
  useInput((input, key) => {
    const o = latest.current;
    if (o.mode !== "fullscreen") {
      if (key.ctrl && input === "o") o.hint("Ctrl-O opens details in place in full-screen mode; here, Ctrl-T shows the latest tool output in full and Tab → sidebar → Enter a child's whole transcript");
      return;
    }
    if (!hasKeys(o)) return;
    const page = Math.max(1, o.regionRows - 2);
    if (key.pageUp) o.scroll.scrollBy(page);
    else if (key.pageDown) o.scroll.scrollBy(-page);
    else if ((key.home || key.end) && (o.draftEmpty() || key.ctrl)) o.scroll.edge(key.home ? "top" : "bottom");
    else if (key.ctrl && input === "f" && o.draftEmpty()) o.startSearch();
    else if (key.ctrl && input === "s") o.toggleSidebar();
    else if (key.ctrl && input === "o") o.toggleDetail();
  });
}
