/**
 * Glyphs, colours and words for a child agent's status, shared by its row, its pane and its
 * summary line; and the child tick, the coarse clock their changing figures are drawn on.
 */
import type { ChildStatus, ChildView } from "./transcript-types.js";
import { parseInline } from "../markdown/parse-markdown.js";
import { firstLine, formatDuration, shortId, spinnerStep, totalTokens, truncate } from "./format.js";
import { retryStatus } from "./retry-status.js";
import { childTitle } from "../../src/subagents/runtime/child-label.js";
import { childUsage } from "./child-reducer.js";

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

/** Seconds without any event after which a running child is shown as silent. */
export const STALL_MS = 10_000;

/**
 * How often a running child's changing figures — elapsed time, tokens, countdowns — are
 * redrawn: once a second, with the elapsed seconds (a person cannot read them faster; each change
 * rewrites cells of every child's row, and with 8 children the ticks alone were a third of the
 * bytes written at two a second).
 */
export const CHILD_TICK_MS = 1000;

/** `now` (ms) rounded down to the child tick: every row and pane changes its figures at the same moments. */
export function childTick(now: number): number {
  return tickOf(now, CHILD_TICK_MS);
}

/** The spinner glyph of a running child at child tick `tick`: one step a tick (a running tool call in a pane's body). */
export function childSpinner(tick: number): string {
  return spinnerStep(Math.floor(tick / CHILD_TICK_MS));
}

/**
 * How often a running child's row shows new words (its last activity) at most, with many rows
 * streaming: every 5 s (a new entry or status shows at once). With 8 children streaming, the words
 * changing in every frame, then on every tick, then every 3 s were most of the bytes written; a
 * row's ~40 characters are also about what a glance reads in that time.
 */
export const CHILD_WORDS_MS = 5000;

/** How often the words of `streaming` running child rows on screen change at most: one or two on the child tick, three or four every 3 s, more every CHILD_WORDS_MS. */
export function rowWordsEvery(streaming: number): number {
  return streaming <= 2 ? CHILD_TICK_MS : streaming <= 4 ? 3 * CHILD_TICK_MS : CHILD_WORDS_MS;
}

/**
 * How often a running child's pane body (its streaming text) is redrawn at most: every other child
 * tick. At 50 tokens/s a 3-row body turns over in about a second, so each redraw rewrites most of
 * it: with 8 panes inline, once a second wrote ~100 KB in the 51 s bench, every 2 s ~68 KB.
 */
export const PANE_BODY_MS = 2 * CHILD_TICK_MS;

/**
 * How often the bodies of `streaming` running panes on screen are redrawn at most (0: as the text
 * arrives). One or two panes stream live — few bytes, and the reader can follow them word by word;
 * three or four on the child tick; more every PANE_BODY_MS, where redrawing them with each delta
 * was most of what the screen wrote.
 */
export function paneBodyEvery(streaming: number): number {
  return streaming <= 2 ? 0 : streaming <= 4 ? CHILD_TICK_MS : PANE_BODY_MS;
}

/** `now` (ms) rounded down to a multiple of `every` ms (CHILD_TICK_MS, CHILD_WORDS_MS): the moments a sampled figure may change. */
export function tickOf(now: number, every: number): number {
  return Math.floor(now / every) * every;
}

/**
 * The glyph of a child's row and pane head, still (the status bar's spinner says work is going
 * on), and its colour: `?` waiting for the person's approval; `●` running — cyan, yellow when an
 * alert holds it (silent, retrying, paused, stopping); the end status's glyph in its colour.
 */
export function childGlyph(status: ChildStatus, alert: ChildAlert | undefined, waiting: boolean): { glyph: string; color: string } {
  if (waiting) return { glyph: "?", color: "yellowBright" };
  if (status !== "running") return { glyph: CHILD_GLYPH[status], color: CHILD_COLOR[status] };
  return { glyph: CHILD_GLYPH.running, color: alert ? "yellow" : CHILD_COLOR.running };
}

/** A running child's elapsed time at `tick`: whole seconds (`12s`, `3m05s`), so it changes once a second. */
export function runningElapsed(startedAt: number, tick: number): string {
  const ms = Math.max(0, tick - startedAt);
  return ms < 60_000 ? `${Math.floor(ms / 1000)}s` : formatDuration(ms);
}

/** Why a running child is not simply working, as its row and pane say it. */
export interface ChildAlert {
  kind: "stopping" | "asking" | "retrying" | "paused" | "silent";
  text: string;
}

/**
 * The one status decision of a child's row and pane, at UI clock `now`: being stopped, waiting
 * for the person's approval (`asking`), waiting to retry (or paused) a model call — with its
 * countdown —, or silent past STALL_MS; `undefined` while it simply works (or has finished).
 */
export function childAlert(child: ChildView, now: number, asking: boolean): ChildAlert | undefined {
  if (child.status !== "running") return undefined;
  if (child.stopping) return { kind: "stopping", text: "stopping…" };
  if (asking) return { kind: "asking", text: "waiting for approval" };
  if (child.retry) return { kind: child.retry.paused ? "paused" : "retrying", text: retryStatus(child.retry, now) };
  const silentMs = now - (child.lastEventAt ?? child.startedAt);
  if (silentMs >= STALL_MS) return { kind: "silent", text: `no output for ${Math.floor(silentMs / 1000)}s` };
  return undefined;
}
