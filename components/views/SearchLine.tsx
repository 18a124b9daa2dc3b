/** SearchLine: the Ctrl-F search box over the full-screen transcript, with the hit count. */
import { Box, Text } from "ink";
import type { TranscriptSearch } from "../hooks/use-transcript-search.js";

/** The bordered one-row search box (three rows with its border). */
export function SearchLine({ search, width }: { search: TranscriptSearch; width: number }) {
  const where = search.query === "" ? "type to search" : search.hits.length === 0 ? "no match" : search.index < 0 ? `${search.hits.length} matches · Enter jumps` : `match ${search.index + 1} of ${search.hits.length} · Ctrl-Y copy`;
  return (
    <Box borderStyle="round" borderColor="cyan" paddingX={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text color="cyan" bold>
          {"search: "}
        </Text>
        <Text>{search.query}</Text>
        <Text inverse> </Text>
        <Text dimColor>{`  ${where} · Enter/↑ older · ↓ newer · Esc close`}</Text>
      </Text>
    </Box>
  );
}
