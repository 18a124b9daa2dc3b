/** Glyphs, colours and words for a child agent's status, shared by the pane and its summary line. */
import type { ChildStatus, ChildView } from "./hooks/transcript-types.js";
import { parseInline } from "./markdown/parse-markdown.js";
import { firstLine, shortId, totalTokens, truncate } from "./format.js";
import { childTitle } from "../src/subagents/child-label.js";
import { childUsage } from "./hooks/child-reducer.js";

/** Ink colour of each status. */
export const CHILD_COLOR: Record<ChildStatus, string> = { running: "cyan", ok: "green", aborted: "yellow", timeout: "red", crash: "red" };

/** One-character glyph of a finished status. */
export const CHILD_GLYPH: Record<ChildStatus, string> = { running: "●", ok: "✓", aborted: "⏹", timeout: "⏱", crash: "✗" };

/** The first line of Markdown text as plain text (markers removed). */
export function plainFirstLine(text: string): string {
  return parseInline(firstLine(text).replace(/^#+\s*|^[-*+]\s+/, ""))
    .map((s) => s.text)
    .join("");
}

/** `1 turn` / `3 turns`. */
export function turnsLabel(turns: number): string {
  return `${turns} turn${turns === 1 ? "" : "s"}`;
}

/** A child's tokens so far: its reported usage plus an estimate of what it streamed since (see childUsage). */
export function liveTokens(child: ChildView): number {
  return totalTokens(childUsage(child));
}

/**
 * `scout · find the login handler [ab12cd]`: how a row names a child — its profile and
 * description (else its prompt's first words, see childTitle) cut to `max` columns, then its short id.
 */
export function childHead(child: { childId: string; profile?: string; description?: string; prompt?: string }, max: number): string {
  return `${truncate(childTitle(child), Math.max(8, max))} [${shortId(child.childId)}]`;
}
