/** SearchLine: the Ctrl-F search box over the full-screen transcript, with the hit count. */
import { Box, Text } from "ink";

export interface SearchLineProps {
  query: string;
  /** How many items hold the query. */
  hits: number;
  /** The current hit (-1 before the first jump). */
  index: number;
  width: number;
}

/** The bordered one-row search box (three rows with its border). */
export function SearchLine({ query, hits, index, width }: SearchLineProps) {
  const where = query === "" ? "type to search" : hits === 0 ? "no match" : index < 0 ? `${hits} matches · Enter jumps` : `match ${index + 1} of ${hits} · Ctrl-Y copy`;
  return (
    <Box borderStyle="round" borderColor="cyan" paddingX={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text color="cyan" bold>
          {"search: "}
        </Text>
        <Text>{query}</Text>
        <Text inverse> </Text>
        <Text dimColor>{`  ${where} · Enter/↑ older · ↓ newer · Esc close`}</Text>
      </Text>
    </Box>
  );
}
