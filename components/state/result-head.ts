/**
 * The head of a tool result, as the UI keeps it: the first lines a tool line can show, each
 * capped, and the whole result's line count. Shared by the children's panes (child-reducer) and
 * the main transcript's tool items, whose long results stay in the session file (read back on
 * Ctrl-T) instead of in UI state.
 */
import { contentLines, truncate } from "./format.js";

/** Result lines kept per tool call, and characters per line. */
export const RESULT_HEAD = 3;
export const RESULT_LINE_CAP = 300;
/** A result this short (lines and characters) is kept whole: reading it back would save nothing. */
export const SHORT_RESULT_LINES = 20;
export const SHORT_RESULT_CHARS = 4000;

/**
 * A copy of `text` that does not point into the string it was cut from: V8 keeps a line split or
 * sliced out of a long result as a view of the whole result, which would keep it all in memory.
 */
function detached(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** The first `RESULT_HEAD` lines of `content` (each capped, copied out of it) and how many lines it has. */
export function resultHead(content: string): { resultHead: string[]; resultLines: number } {
  const lines = contentLines(content);
  return { resultHead: lines.slice(0, RESULT_HEAD).map((l) => detached(truncate(l, RESULT_LINE_CAP))), resultLines: lines.length };
}

/** True when `content` is short enough to keep whole in UI state. */
export function isShortResult(content: string): boolean {
  return content.length <= SHORT_RESULT_CHARS && contentLines(content).length <= SHORT_RESULT_LINES;
}
