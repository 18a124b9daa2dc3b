/**
 * TranscriptItemView: one transcript item — header, user message (`›`), assistant Markdown,
 * collapsed thinking, a tool call, a child's pane or summary line, or a notice.
 */
import { Box, Text } from "ink";
import type { TranscriptItem } from "./hooks/transcript-types.js";
import { Markdown } from "./Markdown.js";
import { SubagentPane } from "./SubagentPane.js";
import { SubagentSummary } from "./SubagentSummary.js";
import { ToolCallLine } from "./ToolCallLine.js";

export interface TranscriptItemViewProps {
  /** The item to draw. */
  item: TranscriptItem;
  /** UI clock (ms) for spinners and elapsed times. */
  now: number;
  /** Terminal width. */
  width: number;
  /** For live assistant text: show only this many last lines. */
  tailLines?: number;
}

const TONE = { info: undefined, warn: "yellow", error: "red", dim: undefined } as const;

/** The item, with one blank row above blocks that start a new turn. */
export function TranscriptItemView({ item, now, width, tailLines }: TranscriptItemViewProps) {
  switch (item.kind) {
    case "header":
      return (
        <Box flexDirection="column" marginBottom={1}>
          <Text>
            <Text bold color="magenta">
              ✦ Ink
            </Text>
            <Text dimColor>{` · ${item.cwd} · ${item.provider}/${item.model}`}</Text>
          </Text>
          {item.notices.map((n, i) => (
            <Text key={i} color="yellow">
              ! {n}
            </Text>
          ))}
          <Text dimColor>/help for commands · Tab focuses panes and the child-session sidebar · Ctrl-C stops a run · Ctrl-C twice exits</Text>
        </Box>
      );
    case "user":
      return (
        <Box marginTop={1}>
          {item.target ? <Text color="magenta" bold>{`↻ ${item.target} `}</Text> : null}
          <Text color="cyan" bold>
            {"› "}
          </Text>
          <Box flexShrink={1}>
            <Text bold>{item.text}</Text>
          </Box>
        </Box>
      );
    case "assistant":
      return (
        <Box marginTop={1}>
          <Markdown text={item.text} tailLines={item.done ? undefined : tailLines} width={width} />
        </Box>
      );
    case "thinking":
      return (
        <Text dimColor italic>
          {item.done ? `✻ thought (${item.chars} chars)` : `✻ thinking… (${item.chars} chars)`}
        </Text>
      );
    case "tool":
      if (item.child && item.child.status !== "running") return <SubagentSummary child={item.child} result={item.result} width={width} />;
      if (item.child) return <SubagentPane child={item.child} now={now} width={Math.min(width, 100)} />;
      return <ToolCallLine item={item} now={now} width={width} />;
    case "info":
      return (
        <Text color={TONE[item.tone]} dimColor={item.tone === "dim"}>
          {item.text}
        </Text>
      );
  }
}
