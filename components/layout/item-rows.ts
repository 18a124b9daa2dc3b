/**
 * itemRows: how many terminal rows a transcript item takes at a width, as TranscriptItemView draws
 * it (details open — Ctrl-O — or not) — exact for one-row views (tool calls, summaries, notices), a
 * close estimate for Markdown.
 * The live area plans with it; BottomClamp clips whatever an estimate misses.
 */
import type { TranscriptItem } from "../state/transcript-types.js";
import { toolCallRows } from "../views/ToolCallLine.js";
import { DETAIL_RESULT_LINES } from "../views/TranscriptItemView.js";
import { hangingRowCount, rowCount } from "./measure.js";

/** Rows of `item` at `width` columns, `detail`: with details open (a running child's pane is planned separately: 0 here). */
export function itemRows(item: TranscriptItem, width: number, detail = false): number {
  const w = Math.max(10, width);
  switch (item.kind) {
    case "header":
      return 3 + item.notices.reduce((n, t) => n + rowCount(`! ${t}`, w), 0) + rowCount("/help for commands · Tab focuses panes and the child-session sidebar · Ctrl-C stops a run · Ctrl-C twice exits", w) - 1;
    case "user":
      return 1 + rowCount(item.text, Math.max(1, w - 2 - (item.target ? item.target.length + 3 : 0)));
    case "assistant":
      return 1 + rowCount(item.text, Math.max(1, w - 4));
    case "thinking":
      return detail && item.text ? 1 + rowCount(item.text.trim(), Math.max(1, w - 2)) : 1;
    case "tool":
      if (item.child) {
        if (item.child.status === "running") return 0;
        // Open: the report under the summary line, behind a one-column bar and a space.
        return detail && item.child.report.trim() ? 1 + rowCount(item.child.report, Math.max(1, w - 4)) : 1;
      }
      return toolCallRows(item, detail ? DETAIL_RESULT_LINES : 2, w);
    case "info":
      return item.retry && !item.done ? 1 : hangingRowCount(item.text, w);
  }
}
