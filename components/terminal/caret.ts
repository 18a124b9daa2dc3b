/**
 * Where the prompt's caret is, for the terminal's cursor: the view that draws the caret puts
 * `CARET_MARK` (a zero-width OSC string, skipped by every width count) just before it, but only
 * when a frame owner draws the frames (CaretMarkContext, provided by frame-owner.tsx): the owner
 * finds it while drawing the rows (tree-rows.ts) and leaves the terminal's cursor, hidden, on that
 * cell, so an input method's window and anything else that follows the cursor follow the prompt.
 * Under Ink's own renderer (tests, the trust question) nothing is marked.
 */
import { createContext, useContext } from "react";

/** The caret's mark: an OSC string no terminal acts on (it never reaches one: the rows drop it). */
export const CARET_MARK = "\u001b]ink-caret\u0007";

/** Whether the caret's mark is drawn (true under a frame owner). */
export const CaretMarkContext = createContext(false);

/** The mark to put before the caret: CARET_MARK under a frame owner, else "". */
export function useCaretMark(): string {
  return useContext(CaretMarkContext) ? CARET_MARK : "";
}

/** A cell of the frame: column `x`, row `y` (0-based). */
export interface CaretAt {
  x: number;
  y: number;
}
