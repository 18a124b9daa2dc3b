/** SessionPicker: the /resume list of this directory's saved main sessions, newest first (↑/↓, Enter, Esc). */
import { Box, Text } from "ink";
import { formatAge, shortId, truncate } from "../state/format.js";
import type { PickerRow } from "../state/ui-reducer.js";
import { listWindow } from "../layout/live-plan.js";

export interface SessionPickerProps {
  rows: readonly PickerRow[];
  selected: number;
  /** Clock (ms since the epoch) for the ages. */
  now: number;
  width: number;
  /** Most rows shown at once. */
  height: number;
}

/** The bordered picker. */
export function SessionPicker({ rows, selected, now, width, height }: SessionPickerProps) {
  const start = listWindow(selected, rows.length, height);
  const room = Math.max(10, width - 24);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
      <Text wrap="truncate-end">
        <Text bold>Resume a session</Text>
        <Text dimColor> · ↑/↓ select · Enter open · Esc cancel</Text>
      </Text>
      {rows.length === 0 ? <Text dimColor>No other saved sessions for this directory.</Text> : null}
      {rows.slice(start, start + height).map((row, i) => (
        <Text key={row.id} wrap="truncate-end" inverse={start + i === selected}>
          {`${start + i === selected ? "›" : " "} ${formatAge(now - row.at).padStart(3)}  ${shortId(row.id)}  ${truncate(row.prompt || "(no prompt)", room)}`}
        </Text>
      ))}
    </Box>
  );
}
