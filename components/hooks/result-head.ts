/**
 * The head of a tool result, as the UI keeps it: the first lines a tool line can show, each
 * capped, and the whole result's line count. Shared by the children's panes (child-reducer) and
 * the main transcript's tool items, whose long results stay in the session file (read back on
 * Ctrl-T) instead of in UI state.
 */
import { contentLines, truncate } from "../format.js";

/** Result lines kept per tool call, and characters per line. */
export const RESULT_HEAD = 3;
export const RESULT_LINE_CAP = 300;
/** A result this short (lines and characters) is kept whole: reading it back would save nothing. */
export const SHORT_RESULT_LINES = 20;
export const SHORT_RESULT_CHARS = 4000;

/** The first `RESULT_HEAD` lines of `content` (each capped) and how many lines it has. */
export function resultHead(content: string): { resultHead: string[]; resultLines: number } {
  const lines = contentLines(content);
  return { resultHead: lines.slice(0, RESULT_HEAD).map((l) => truncate(l, RESULT_LINE_CAP)), resultLines: lines.length };
}

/** True when `content` is short enough to keep whole in UI state. */
export function isShortResult(content: string): boolean {
  return content.length <= SHORT_RESULT_CHARS && contentLines(content).length <= SHORT_RESULT_LINES;
}
