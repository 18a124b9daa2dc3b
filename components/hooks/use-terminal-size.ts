/** useTerminalSize: the terminal's columns and rows, updated on resize (80×24 when unknown). */
import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** Columns and rows of the output terminal. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The current size of ink's stdout. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
    // Subscribed per stdout; the size read on mount comes from it too.
  }, [stdout]);
  return size;
}
