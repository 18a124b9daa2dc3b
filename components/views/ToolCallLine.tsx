/**
 * ToolCallLine: one tool call of the main agent — `⏺ grep pattern="login"` with a status glyph
 * (spinner while running, ✓, ✗), its duration, and the first lines of its result. A `task` call
 * waiting for a free child slot is named by its child's description (not its prompt) and says
 * "queued" and does not spin: nothing runs for it yet. A shell
 * command too long for the call line is drawn whole under it, wrapped (up to COMMAND_MAX_ROWS
 * rows), so what ran can be read — never cut with "…" in the middle of `&& rm -rf …`. A long
 * result kept only as its head (the whole text is in the session file) shows that head.
 */
import { Box, Text } from "ink";
import type { CallHold } from "../layout/item-lines.js";
import { formatArgs, formatDuration, truncate } from "../state/format.js";
import { StatusGlyph } from "./StatusGlyph.js";
import { commandRows, excerpt, moreRow, queuedTitle } from "../layout/tool-call-parts.js";
import type { ToolItem } from "../state/transcript-types.js";

export interface ToolCallLineProps {
  /** The tool call to show. */
  item: ToolItem;
  /** UI clock (ms), drives the spinner. */
  now: number;
  /** Result lines shown under the call (default 2; errors get one more). */
  resultLines?: number;
  /** Width available, used to cut long result lines (default 100). */
  width?: number;
  /** What the call waits for instead of running (layout/item-lines.ts callHold): no spinner then. */
  hold?: CallHold;
}

const DOT_COLOR = { pending: "gray", running: "yellow", ok: "green", error: "red" } as const;

export { COMMAND_MAX_ROWS, commandRows } from "../layout/tool-call-parts.js";

/** The call line plus its result excerpt. */
export function ToolCallLine({ item, now, resultLines = 2, width = 100, hold }: ToolCallLineProps) {
  const { shown, more } = excerpt(item, resultLines);
  const cut = Math.max(20, width - 8);
  const queued = item.name === "task" && !item.done && item.status === "running" && !item.child;
  // A call waiting for an answer, or one not started while the main agent waits for one (it runs after), is not running: no spinner.
  const held = !item.done && hold !== undefined;
  const command = commandRows(item, width);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={queued || held ? "gray" : DOT_COLOR[item.status]}>⏺ </Text>
        <Text bold>{item.name}</Text>
        <Text dimColor> {command.length > 0 ? "" : queued ? truncate(queuedTitle(item.args), Math.max(20, width - 17)) : Object.keys(item.args).length === 0 && item.status === "pending" ? "…" : formatArgs(item.args, Math.max(20, width - item.name.length - 16))} </Text>
        {queued ? <Text color="yellow">· queued — waits for a free child slot</Text> : held ? <Text color="gray">{hold === "approval" ? "· waits for your approval" : "· waits to run"}</Text> : <StatusGlyph status={item.status} now={now} />}
        {item.durationMs !== undefined ? <Text dimColor> {formatDuration(item.durationMs)}</Text> : null}
      </Text>
      {command.map((row, i) => (
        <Text key={`c${i}`} dimColor wrap="truncate-end">
          {i === 0 ? "  $ " : "    "}
          {row}
        </Text>
      ))}
      {item.update && !item.done ? (
        <Text dimColor wrap="truncate-end">
          {"  ⎿  "}
          {truncate(item.update, cut)}
        </Text>
      ) : null}
      {shown.map((line, i) => (
        <Text key={i} color={item.status === "error" ? "red" : undefined} dimColor={item.status !== "error"} wrap="truncate-end">
          {i === 0 ? "  ⎿  " : "     "}
          {truncate(line, cut)}
        </Text>
      ))}
      {more > 0 ? (
        <Text dimColor wrap="truncate-end">
          {moreRow(item, more, resultLines)}
        </Text>
      ) : null}
    </Box>
  );
}
