/**
 * TranscriptOverlay: a child's full transcript (loaded from its session file) drawn over the
 * live area — a window of pre-wrapped lines the screen scrolls with ↑/↓, PgUp/PgDn, Home/End.
 */
import { Box, Text } from "ink";
import { truncate } from "./format.js";
import type { Overlay, OverlayLine } from "./hooks/ui-reducer.js";

export interface TranscriptOverlayProps {
  overlay: Overlay;
  /** Text rows shown at once. */
  height: number;
  /** Outer width in columns. */
  width: number;
}

/** Rows of text the overlay shows in a terminal of `rows` rows. */
export function overlayHeight(rows: number): number {
  // Title, position line and the border (4), the prompt box and status bar (5), and a spare row:
  // the live output must stay shorter than the terminal, or ink clears and redraws everything
  // (and, when it shrinks again, erases one line too many of the history above).
  return Math.max(3, rows - 11);
}

const TONE: Record<NonNullable<OverlayLine["tone"]>, { color?: string; dimColor?: boolean; bold?: boolean }> = {
  user: { color: "cyan", bold: true },
  tool: { color: "yellow" },
  dim: { dimColor: true },
  error: { color: "red" },
  heading: { color: "magenta", bold: true },
};

/** The bordered, scrolled window. */
export function TranscriptOverlay({ overlay, height, width }: TranscriptOverlayProps) {
  const inner = Math.max(10, width - 4);
  const shown = overlay.lines.slice(overlay.offset, overlay.offset + height);
  const last = Math.min(overlay.lines.length, overlay.offset + height);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
      <Text wrap="truncate-end" bold>
        {truncate(overlay.title, inner)}
      </Text>
      {shown.map((line, i) => (
        <Text key={overlay.offset + i} wrap="truncate-end" {...(line.tone ? TONE[line.tone] : {})}>
          {line.text === "" ? " " : truncate(line.text, inner)}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {`lines ${overlay.lines.length === 0 ? 0 : overlay.offset + 1}–${last} of ${overlay.lines.length} · ↑/↓ PgUp/PgDn Home/End scroll · r resume · Esc close`}
      </Text>
    </Box>
  );
}
