/**
 * TranscriptItemView: one transcript item — header, user message (`›`), assistant Markdown,
 * collapsed thinking, a tool call, a child's pane or summary line, or a notice.
 */
import { Box, Text } from "ink";
import { memo } from "react";
import type { TranscriptItem } from "../state/transcript-types.js";
import { childReport } from "../state/child-reducer.js";
import { Markdown } from "./Markdown.js";
import { SubagentPane } from "./SubagentPane.js";
import { SubagentSummary } from "./SubagentSummary.js";
import { ToolCallLine } from "./ToolCallLine.js";
import { retryStatus } from "../state/retry-status.js";
import { WrapLines, WrapText } from "./WrapText.js";
import { DETAIL_RESULT_LINES } from "../layout/tool-call-parts.js";

export interface TranscriptItemViewProps {
  /** The item to draw. */
  item: TranscriptItem;
  /** UI clock (ms) for spinners and elapsed times. */
  now: number;
  /** Terminal width. */
  width: number;
  /** Details open (Ctrl-O): a finished child's report, a tool's whole result, the thought itself. */
  detail?: boolean;
}

export { DETAIL_RESULT_LINES } from "../layout/tool-call-parts.js";

const TONE = { info: undefined, warn: "yellow", error: "red", dim: undefined } as const;

/** The item, with one blank row above blocks that start a new turn (memoised: an unchanged item with the same props is not drawn again). */
export const TranscriptItemView = memo(function TranscriptItemView({ item, now, width, detail = false }: TranscriptItemViewProps) {
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
            <WrapText key={i} color="yellow">
              ! {n}
            </WrapText>
          ))}
          <WrapText dimColor>/help for commands · Tab focuses panes and the child-session sidebar · Ctrl-C stops a run · Ctrl-C twice exits</WrapText>
        </Box>
      );
    case "user":
      return (
        <Box marginTop={1}>
          <Box flexShrink={0}>
            {item.target ? <Text color="magenta" bold>{`↻ ${item.target} `}</Text> : null}
            <Text color="cyan" bold>
              {"› "}
            </Text>
          </Box>
          <Box flexShrink={1}>
            <WrapLines bold text={item.text} />
          </Box>
        </Box>
      );
    case "assistant":
      return (
        <Box marginTop={1}>
          <Markdown text={item.text} width={width} />
        </Box>
      );
    case "thinking":
      return (
        <Box flexDirection="column">
          <Text dimColor italic>
            {item.done ? `✻ thought (${item.chars} chars)${detail ? "" : " · Ctrl-O shows it"}` : `✻ thinking… (${item.chars} chars)`}
          </Text>
          {detail && item.text ? (
            <Box paddingLeft={2} width={width}>
              <Text dimColor italic>
                {item.text.trim()}
              </Text>
            </Box>
          ) : null}
        </Box>
      );
    case "tool":
      if (item.child && item.child.status !== "running") {
        const summary = <SubagentSummary child={item.child} result={item.result} width={width} />;
        // Details open: the report, or for a child that failed without one, its whole reason (the summary line cuts it).
        const report = childReport(item.child, item.result);
        const reason = item.child.status !== "ok" && !report.trim() ? item.child.reason?.trim() : undefined;
        if (!detail || (!report.trim() && !reason)) return summary;
        return (
          <Box flexDirection="column">
            {summary}
            <Box borderStyle="single" borderTop={false} borderRight={false} borderBottom={false} borderDimColor paddingLeft={1} width={width}>
              {reason ? <Text color="red">{reason}</Text> : <Markdown text={report} width={width - 2} />}
            </Box>
          </Box>
        );
      }
      if (item.child) return <SubagentPane child={item.child} now={now} width={Math.min(width, 100)} />;
      return <ToolCallLine item={item} now={now} width={width} resultLines={detail ? DETAIL_RESULT_LINES : undefined} />;
    case "info":
      if (item.retry && !item.done) {
        return (
          <Text color="yellow" wrap="truncate-end">
            {`⟳ ${retryStatus(item.retry, now)}`}
          </Text>
        );
      }
      return (
        <WrapLines color={TONE[item.tone]} dimColor={item.tone === "dim"} text={item.text} hanging={width} />
      );
  }
});
