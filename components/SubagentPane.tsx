/**
 * SubagentPane: a running child agent, live, at the place of its task call — profile and
 * description (else its prompt's first words), short id,
 * elapsed time, turns, tokens and status, then the latest of what it did — text lines and tool
 * calls interleaved in the order they happened; its text drawn with the transcript's Markdown
 * styles, row by row.
 */
import { Box, Text } from "ink";
import { useContext } from "react";
import { WaitingForApproval } from "./hooks/use-approval-request.js";
import { CHILD_COLOR, liveTokens, turnsLabel } from "./child-status.js";
import { STALL_MS } from "./ChildRow.js";
import { formatArgs, formatDuration, formatTokens, shortId, spinnerFrame, truncate } from "./format.js";
import { dropBreakSpace } from "./WrapText.js";
import { wrapRows } from "./layout/measure.js";
import type { ChildToolEntry, ChildView } from "./hooks/transcript-types.js";
import { StatusGlyph } from "./StatusGlyph.js";
import { MarkdownRow } from "./Markdown.js";
import { retryStatus } from "./retry-status.js";
import { childDescription } from "../src/subagents/child-label.js";

export interface SubagentPaneProps {
  /** The child to show. */
  child: ChildView;
  /** UI clock (ms): elapsed time and spinner. */
  now: number;
  /** Outer width in columns (default 60). */
  width?: number;
  /** Body lines shown: the latest text lines and tool calls, in order (default 7). */
  lines?: number;
  /** The pane has the keyboard (Tab): highlighted border and the stop key hint. */
  focused?: boolean;
}

/** One body line of a pane: a line of the child's text, or one of its tool calls. */
export type PaneLine = { kind: "text"; text: string } | { kind: "tool"; tool: ChildToolEntry };

/**
 * The last `n` body rows of `child`, oldest first: text is wrapped at `width` columns and its
 * newest rows kept (a long paragraph shows its newest words, not its first ones); a tool call is
 * one row.
 */
export function paneTail(child: ChildView, n: number, width = 60): PaneLine[] {
  const out: PaneLine[] = [];
  for (let i = child.entries.length - 1; i >= 0 && out.length < n; i--) {
    const entry = child.entries[i]!;
    if (entry.kind === "tool") {
      out.push({ kind: "tool", tool: entry });
      continue;
    }
    const text = entry.text.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "").join("\n");
    if (text === "") continue;
    // Each source line wrapped on its own, its continuation rows without the space they broke at.
    const rows = text.split("\n").flatMap((line) => wrapRows(line, Math.max(1, width)).map(dropBreakSpace));
    for (const text of rows.slice(-(n - out.length)).reverse()) out.push({ kind: "text", text });
  }
  return out.reverse();
}

/** The bordered live pane. */
export function SubagentPane({ child, now, width = 60, lines = 7, focused = false }: SubagentPaneProps) {
  const inner = Math.max(10, width - 4);
  const elapsed = child.status === "running" ? now - child.startedAt : (child.durationMs ?? now - child.startedAt);
  const color = CHILD_COLOR[child.status];
  const body = paneTail(child, lines, inner);
  const description = childDescription(child);
  const running = child.status === "running";
  const silentMs = now - (child.lastEventAt ?? child.startedAt);
  const asking = useContext(WaitingForApproval).has(child.childId);
  const retrying = running && !child.stopping && !asking && child.retry !== undefined;
  const silent = running && !child.stopping && !asking && !retrying && silentMs >= STALL_MS;
  const status = running
    ? child.stopping
      ? "stopping…"
      : asking
        ? "waiting for approval"
        : retrying
          ? retryStatus(child.retry!, now)
          : silent
            ? `no output for ${Math.floor(silentMs / 1000)}s`
            : child.thinking
              ? "thinking"
              : "running"
    : child.status;
  return (
    <Box flexDirection="column" borderStyle={focused || asking ? "double" : "round"} borderColor={asking ? "yellowBright" : focused ? "magentaBright" : running && child.color ? child.color : color} width={width} paddingX={1} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text color={color}>{child.status === "running" ? spinnerFrame(now) : "■"} </Text>
        <Text bold color={child.color}>{child.profile ?? "general"}</Text>
        {description ? <Text bold>{` · ${truncate(description, Math.max(8, inner - (child.profile ?? "general").length - status.length - formatDuration(elapsed).length - 11 - (focused && running ? 10 : 0)))}`}</Text> : null}
        <Text dimColor> · </Text>
        <Text color={silent || asking || retrying ? "yellow" : color}>{status}</Text>
        <Text dimColor>{` · ${formatDuration(elapsed)}`}</Text>
        {focused && running ? <Text color="magentaBright" bold>{"  [x] stop"}</Text> : null}
      </Text>
      <Text dimColor wrap="truncate-end">
        {`${shortId(child.childId)}${child.model ? ` · ${child.model}` : ""} · ${turnsLabel(child.turns)} · ${formatTokens(liveTokens(child))} tokens${child.resumed ? " · resumed" : ""}${child.worktree ? " · worktree" : ""}`}
      </Text>
      <Text dimColor wrap="truncate-end">
        {"› "}
        {truncate(child.prompt.replace(/\s+/g, " "), inner - 2)}
      </Text>
      {body.map((line, i) =>
        line.kind === "text" ? (
          <Text key={`t${i}`} wrap="truncate-end">
            <MarkdownRow text={truncate(line.text, inner)} />
          </Text>
        ) : (
          <Text key={`tool:${line.tool.id}`} wrap="truncate-end">
            <StatusGlyph status={line.tool.status} now={now} />
            <Text bold> {line.tool.name}</Text>
            <Text dimColor> {formatArgs(line.tool.args, Math.max(8, inner - line.tool.name.length - 4))}</Text>
          </Text>
        ),
      )}
      {child.note ? (
        <Text dimColor wrap="truncate-end">
          {truncate(child.note, inner)}
        </Text>
      ) : null}
      {child.reason && child.status !== "running" ? (
        <Text color={color} wrap="truncate-end">
          {truncate(child.reason, inner)}
        </Text>
      ) : null}
    </Box>
  );
}
