/**
 * SubagentPane: a running child agent, live, at the place of its task call — profile, short id,
 * elapsed time, turns, tokens and status, then the last lines of its streamed text and its
 * latest tool calls.
 */
import { Box, Text } from "ink";
import { CHILD_COLOR, turnsLabel } from "./child-status.js";
import { formatArgs, formatDuration, formatTokens, lastLines, shortId, spinnerFrame, totalTokens, truncate } from "./format.js";
import type { ChildView } from "./hooks/transcript-types.js";
import { StatusGlyph } from "./StatusGlyph.js";

export interface SubagentPaneProps {
  /** The child to show. */
  child: ChildView;
  /** UI clock (ms): elapsed time and spinner. */
  now: number;
  /** Outer width in columns (default 60). */
  width?: number;
  /** Lines of streamed text shown (default 4). */
  textLines?: number;
  /** Latest tool calls shown (default 3). */
  toolLines?: number;
  /** The pane has the keyboard (Tab): highlighted border and the stop key hint. */
  focused?: boolean;
}

/** The bordered live pane. */
export function SubagentPane({ child, now, width = 60, textLines = 4, toolLines = 3, focused = false }: SubagentPaneProps) {
  const inner = Math.max(10, width - 4);
  const elapsed = child.status === "running" ? now - child.startedAt : (child.durationMs ?? now - child.startedAt);
  const color = CHILD_COLOR[child.status];
  const text = lastLines(child.text, textLines);
  const tools = child.tools.slice(-toolLines);
  const running = child.status === "running";
  const status = running ? (child.stopping ? "stopping…" : child.thinking ? "thinking" : "running") : child.status;
  return (
    <Box flexDirection="column" borderStyle={focused ? "double" : "round"} borderColor={focused ? "magentaBright" : color} width={width} paddingX={1} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text color={color}>{child.status === "running" ? spinnerFrame(now) : "■"} </Text>
        <Text bold>{child.profile ?? "general"}</Text>
        <Text dimColor> · </Text>
        <Text color={color}>{status}</Text>
        <Text dimColor>{` · ${formatDuration(elapsed)}`}</Text>
        {focused && running ? <Text color="magentaBright" bold>{"  [x] stop"}</Text> : null}
      </Text>
      <Text dimColor wrap="truncate-end">
        {`${shortId(child.childId)} · ${turnsLabel(child.turns)} · ${formatTokens(totalTokens(child.usage))} tokens${child.resumed ? " · resumed" : ""}${child.worktree ? " · worktree" : ""}`}
      </Text>
      <Text dimColor wrap="truncate-end">
        {"› "}
        {truncate(child.prompt.replace(/\s+/g, " "), inner - 2)}
      </Text>
      {text.map((line, i) => (
        <Text key={`t${i}`} wrap="truncate-end">
          {truncate(line, inner)}
        </Text>
      ))}
      {child.note ? (
        <Text dimColor wrap="truncate-end">
          {truncate(child.note, inner)}
        </Text>
      ) : null}
      {tools.map((t) => (
        <Text key={t.id} wrap="truncate-end">
          <StatusGlyph status={t.status} now={now} />
          <Text bold> {t.name}</Text>
          <Text dimColor> {formatArgs(t.args, Math.max(8, inner - t.name.length - 4))}</Text>
        </Text>
      ))}
      {child.reason && child.status !== "running" ? (
        <Text color={color} wrap="truncate-end">
          {truncate(child.reason, inner)}
        </Text>
      ) : null}
    </Box>
  );
}
