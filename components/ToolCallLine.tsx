/**
 * ToolCallLine: one tool call of the main agent — `⏺ grep pattern="login"` with a status glyph
 * (spinner while running, ✓, ✗), its duration, and the first lines of its result. A `task` call
 * waiting for a free child slot says "queued" and does not spin: nothing runs for it yet.
 */
import { Box, Text } from "ink";
import { contentLines, formatArgs, formatDuration, truncate } from "./format.js";
import { StatusGlyph } from "./StatusGlyph.js";
import type { ToolItem } from "./hooks/transcript-types.js";

export interface ToolCallLineProps {
  /** The tool call to show. */
  item: ToolItem;
  /** UI clock (ms), drives the spinner. */
  now: number;
  /** Result lines shown under the call (default 2; errors get one more). */
  resultLines?: number;
  /** Width available, used to cut long result lines (default 100). */
  width?: number;
}

const DOT_COLOR = { pending: "gray", running: "yellow", ok: "green", error: "red" } as const;

function excerpt(item: ToolItem, resultLines: number): { shown: string[]; more: number } {
  const lines = item.result !== undefined ? contentLines(item.result) : [];
  const shown = lines.slice(0, item.status === "error" ? resultLines + 1 : resultLines);
  return { shown, more: lines.length - shown.length };
}

/** Rows ToolCallLine takes for `item` (every row is cut to the width, never wrapped). */
export function toolCallRows(item: ToolItem, resultLines = 2): number {
  const { shown, more } = excerpt(item, resultLines);
  return 1 + (item.update && !item.done ? 1 : 0) + shown.length + (more > 0 ? 1 : 0);
}

/** The call line plus its result excerpt. */
export function ToolCallLine({ item, now, resultLines = 2, width = 100 }: ToolCallLineProps) {
  const { shown, more } = excerpt(item, resultLines);
  const cut = Math.max(20, width - 8);
  const queued = item.name === "task" && !item.done && item.status === "running" && !item.child;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={queued ? "gray" : DOT_COLOR[item.status]}>⏺ </Text>
        <Text bold>{item.name}</Text>
        <Text dimColor> {Object.keys(item.args).length === 0 && item.status === "pending" ? "…" : formatArgs(item.args, Math.max(20, width - item.name.length - 16))} </Text>
        {queued ? <Text color="yellow">· queued — waits for a free child slot</Text> : <StatusGlyph status={item.status} now={now} />}
        {item.durationMs !== undefined ? <Text dimColor> {formatDuration(item.durationMs)}</Text> : null}
      </Text>
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
      {more > 0 ? <Text dimColor>{`     … +${more} line${more === 1 ? "" : "s"}`}</Text> : null}
    </Box>
  );
}
