/**
 * CompletionMenu: the choices for the word being typed (slash commands with their help, or `@`
 * files), one row each under the input box, the selected one marked; a window of at most
 * COMPLETION_MAX_ROWS rows that follows the selection, and a row of keys.
 */
import { Box, Text } from "ink";
import type { Completion } from "../state/completion.js";

/** Choice rows shown at most. */
export const COMPLETION_MAX_ROWS = 5;

/** The rows the menu takes (choices plus the keys row); 0 when closed. */
export function completionRows(completion: Completion | undefined): number {
  return completion ? Math.min(COMPLETION_MAX_ROWS, completion.items.length) + 1 : 0;
}

/** The menu for `completion` with `selected` marked. */
export function CompletionMenu({ completion, selected, width }: { completion: Completion | undefined; selected: number; width: number }) {
  if (!completion) return null;
  const { items } = completion;
  const first = Math.max(0, Math.min(selected - Math.floor(COMPLETION_MAX_ROWS / 2), items.length - COMPLETION_MAX_ROWS));
  const shown = items.slice(first, first + COMPLETION_MAX_ROWS);
  const nameWidth = Math.min(28, Math.max(...shown.map((i) => i.insert.length)));
  const more = items.length > COMPLETION_MAX_ROWS ? ` · ${selected + 1}/${items.length}` : "";
  return (
    <Box flexDirection="column" width={width} flexShrink={0} paddingX={2}>
      {shown.map((item, i) => {
        const on = first + i === selected;
        return (
          <Text key={item.insert} wrap="truncate-end" color={on ? "cyan" : undefined} bold={on}>
            {`${on ? "›" : " "} ${item.detail ? item.insert.padEnd(nameWidth) : item.insert}`}
            {item.detail ? <Text dimColor>{`  ${item.detail}`}</Text> : null}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">{`Tab ${completion.kind === "command" ? "completes · Enter runs" : "or Enter inserts"} · ↑/↓ choose${more}`}</Text>
    </Box>
  );
}
