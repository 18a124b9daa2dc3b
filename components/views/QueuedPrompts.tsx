/** QueuedPrompts: the prompts waiting for the current run to end, one row each, above the input box. */
import { Box, Text } from "ink";

/** Rows shown at most; more are counted in the last row. */
export const QUEUED_MAX_ROWS = 3;

/** The rows the queue takes for `count` waiting prompts. */
export function queuedRows(count: number): number {
  return count === 0 ? 0 : Math.min(count, QUEUED_MAX_ROWS) + (count > QUEUED_MAX_ROWS ? 1 : 0);
}

/** The waiting prompts, oldest first, each cut to one row. */
export function QueuedPrompts({ items, width }: { items: readonly string[]; width: number }) {
  if (items.length === 0) return null;
  const shown = items.slice(0, QUEUED_MAX_ROWS);
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {shown.map((text, i) => (
        <Text key={i} wrap="truncate-end" dimColor>
          {`⏸ queued: ${text.replace(/\s+/g, " ")}${i === shown.length - 1 ? "  (sent when the run ends · ↑ to edit)" : ""}`}
        </Text>
      ))}
      {items.length > QUEUED_MAX_ROWS ? <Text dimColor>{`  +${items.length - QUEUED_MAX_ROWS} more queued`}</Text> : null}
    </Box>
  );
}
