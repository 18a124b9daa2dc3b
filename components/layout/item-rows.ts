/**
 * itemRows: how many terminal rows a transcript item takes at a width, as TranscriptItemView draws
 * it — exact for one-row views (tool calls, summaries, notices), a close estimate for Markdown.
 * The live area plans with it; BottomClamp clips whatever an estimate misses.
 */
import type { TranscriptItem } from "../hooks/transcript-types.js";
import { toolCallRows } from "../ToolCallLine.js";
import { rowCount } from "./measure.js";

/** Rows of `item` at `width` columns (a running child's pane is planned separately: 0 here). */
export function itemRows(item: TranscriptItem, width: number): number {
  const w = Math.max(10, width);
  switch (item.kind) {
    case "header":
      return 3 + item.notices.reduce((n, t) => n + rowCount(`! ${t}`, w), 0) + rowCount("/help for commands · Tab focuses panes and the child-session sidebar · Ctrl-C stops a run · Ctrl-C twice exits", w) - 1;
    case "user":
      return 1 + rowCount(item.text, Math.max(1, w - 2 - (item.target ? item.target.length + 3 : 0)));
    case "assistant":
      return 1 + rowCount(item.text, Math.max(1, w - 4));
    case "thinking":
      return 1;
    case "tool":
      if (item.child) return item.child.status === "running" ? 0 : 1;
      return toolCallRows(item, 2, w);
    case "info":
      return item.retry && !item.done ? 1 : rowCount(item.text, w);
  }
}
