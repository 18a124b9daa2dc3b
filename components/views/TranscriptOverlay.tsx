/**
 * TranscriptOverlay: a child's transcript (saved, or live while it runs) drawn over the live area
 * — a window of pre-wrapped lines the screen scrolls with ↑/↓, PgUp/PgDn, Home/End; the child's
 * own text drawn with the transcript's Markdown styles.
 */
import { Box, Text } from "ink";
import { truncate } from "../state/format.js";
import { MarkdownRow } from "./Markdown.js";
import type { OverlayLine } from "../state/ui-reducer.js";

export interface TranscriptOverlayProps {
  /** First row: which child, how it stands. */
  title: string;
  /** The whole transcript, pre-wrapped. */
  lines: readonly OverlayLine[];
  /** First visible line. */
  offset: number;
  /** Text rows shown at once. */
  height: number;
  /** Outer width in columns. */
  width: number;
  /** The keys of the footer after the scroll keys (default: a child's: resume, close). */
  keys?: string;
  /** Full-screen: a transcript shorter than `height` is padded with blank rows, so the box fills its region (no empty rows under it). */
  fill?: boolean;
}

const TONE: Record<NonNullable<OverlayLine["tone"]>, { color?: string; dimColor?: boolean; bold?: boolean }> = {
  user: { color: "cyan", bold: true },
  tool: { color: "yellow" },
  dim: { dimColor: true },
  error: { color: "red" },
  heading: { color: "magenta", bold: true },
  plain: {},
};

/** The bordered, scrolled window. */
export function TranscriptOverlay({ title, lines, offset, height, width, keys = "r resume · Esc close", fill = false }: TranscriptOverlayProps) {
  const inner = Math.max(10, width - 4);
  const shown = lines.slice(offset, offset + height);
  const pad = fill ? Math.max(0, height - shown.length) : 0;
  const last = Math.min(lines.length, offset + height);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
      <Text wrap="truncate-end" bold>
        {truncate(title, inner)}
      </Text>
      {shown.map((line, i) => (
        <Text key={offset + i} wrap="truncate-end" {...(line.tone ? TONE[line.tone] : {})}>
          {line.text === "" ? " " : line.tone ? truncate(line.text, inner) : <MarkdownRow text={truncate(line.text, inner)} />}
        </Text>
      ))}
      {Array.from({ length: pad }, (_, i) => (
        <Text key={`pad${i}`}> </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {`lines ${lines.length === 0 ? 0 : offset + 1}–${last} of ${lines.length} · ↑/↓ PgUp/PgDn Home/End scroll · ${keys}`}
      </Text>
    </Box>
  );
}
