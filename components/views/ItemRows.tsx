/** ItemRows: rows drawn by layout/item-lines.ts, each one <Text> Ink does not wrap (an empty row a one-row box, no cells written). */
import { Box, Text } from "ink";

/** The rows, top to bottom. */
export function ItemRows({ rows }: { rows: readonly string[] }) {
  return (
    <>
      {rows.map((row, i) =>
        row === "" ? (
          <Box key={i} height={1} flexShrink={0} />
        ) : (
          <Text key={i} wrap="truncate-end">
            {row}
          </Text>
        ),
      )}
    </>
  );
}
