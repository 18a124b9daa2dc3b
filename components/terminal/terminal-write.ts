/**
 * How the app writes bytes beside the frame (a bell, a notification, the wipe after a resize).
 * Under Ink's own frames that is Ink's `useStdout().write` (it clears its frame, writes, draws it
 * again); when this project draws the frames (frame-owner.tsx) the owner provides its own through
 * TerminalWriteContext, which writes and then draws the frame whole.
 */
import { useStdout } from "ink";
import { createContext, useContext } from "react";

export const TerminalWriteContext = createContext<((data: string) => void) | undefined>(undefined);

/** The write for bytes beside the frame: the frame owner's when there is one, else Ink's. */
export function useTerminalWrite(): (data: string) => void {
  const own = useContext(TerminalWriteContext);
  const { write } = useStdout();
  return own ?? write;
}
