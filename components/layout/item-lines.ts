/**
 * itemLines: a finished transcript item drawn to rows at a width — each row a string with its SGR
 * styles and never wider than the width — as TranscriptItemView draws it with Ink, with details
 * open (Ctrl-O) or not. An item's height is the number of rows it drew: the full-screen history
 * draws these rows and every height, scroll range and search row is their count (issue #41 item 3:
 * one layout model, no estimate beside the drawing). Rows are kept in the one bounded cache per
 * item version (an item object never changes: a change is a new object), width and details state.
 */
import stringWidth from "string-width";
import { BoundedCache } from "../terminal/bounded-cache.js";
import { formatArgs, formatDuration, spinnerFrame, truncate } from "../state/format.js";
import { retryStatus } from "../state/retry-status.js";
import { CHILD_COLOR } from "../state/child-status.js";
import { childReport } from "../state/child-reducer.js";
import type { ChildView, ToolItem, TranscriptItem } from "../state/transcript-types.js";
import type { WaitingCalls } from "../state/approval-broker.js";
import { hangOf } from "./measure.js";
import { markdownLines, ruled } from "./markdown-lines.js";
import { summaryParts } from "./summary-parts.js";
import { commandRows, DETAIL_RESULT_LINES, excerpt, moreRow, queuedTitle } from "./tool-call-parts.js";
import { paint, textRows, truncRow, wrapTextRows, type TextStyle } from "./text-rows.js";

/**
 * Items' rows kept (each entry one item at one width and details state): at most 1,000 entries and
 * ITEM_ROWS_BUDGET characters of rows a generation. Counted in entries alone, long items' rows
 * filled it over minutes (0.85 MB at minute 4 of a soak's heap snapshot, still growing); heights are
 * kept apart (virtual-window's finishedRows), so a dropped item's rows are drawn again only when it
 * is drawn again.
 */
export const ITEM_ROWS_BUDGET = 200_000;
const cache = new BoundedCache<string, string[]>(1000, { weigh: (_key, rows) => rows.reduce((n, r) => n + r.length, 0), budget: ITEM_ROWS_BUDGET });

/** Items' row sets held (both generations); for tests. */
export const heldItemRows = () => cache.size;
/** An item object's version number: the cache's key for it (objects are never mutated, so identity is version). */
const versions = new WeakMap<TranscriptItem, number>();
let nextVersion = 0;

function versionOf(item: TranscriptItem): number {
  let v = versions.get(item);
  if (v === undefined) versions.set(item, (v = nextVersion++));
  return v;
}

/** The rows `item` draws at `width` columns, details open or not (kept: the same array until the item, width or details change). */
export function itemLines(item: TranscriptItem, width: number, detail = false): readonly string[] {
  const w = Math.max(1, Math.floor(width));
  return cache.get(`${versionOf(item)}:${w}:${detail ? 1 : 0}`, () => drawItem(item, w, detail));
}

/** What a live tool call is doing besides running: waiting for the person's answer, or waiting to run after one. */
export type CallHold = "approval" | "run" | undefined;

/**
 * What `item` waits for, given the calls waiting for an approval (ApprovalBroker.waitingCalls): a
 * call asking the person waits for the answer; a main-agent call not started while one of the main
 * agent's calls asks waits to run after it. A finished item, or any other, holds nothing.
 */
export function callHold(item: TranscriptItem, waiting: WaitingCalls): CallHold {
  if (item.kind !== "tool" || item.done) return undefined;
  if (waiting.calls.has(item.id)) return "approval";
  return waiting.main && item.status === "pending" ? "run" : undefined;
}

/**
 * The rows a live item (one of the current run, still changing) draws at `width` and clock `now`:
 * a running call's spinner at `now` (or, `hold`, what it waits for, without a spinner), a retry's
 * countdown at `now`; any other item its itemLines rows. Kept like itemLines, keyed also by what
 * the clock and the hold change, so an unchanged spinner frame draws nothing again.
 */
export function liveItemLines(item: TranscriptItem, width: number, now: number, hold: CallHold = undefined): readonly string[] {
  const w = Math.max(1, Math.floor(width));
  if (item.kind === "tool" && !item.child && !item.done) {
    const glyph = hold ? `h${hold}` : item.status === "ok" || item.status === "error" ? "" : spinnerFrame(now);
    return cache.get(`${versionOf(item)}:${w}:live:${glyph}`, () => toolLines(item, w, 2, now, hold));
  }
  if (item.kind === "info" && item.retry && !item.done) {
    const text = `⟳ ${retryStatus(item.retry, now)}`;
    return cache.get(`${versionOf(item)}:${w}:live:${text}`, () => [truncRow(text, w, { color: "yellow" })]);
  }
  return itemLines(item, w);
}

const TONE = { info: undefined, warn: "yellow", error: "red", dim: undefined } as const;
const DOT_COLOR = { pending: "gray", running: "yellow", ok: "green", error: "red" } as const;
const HELP = "/help for commands · Tab focuses panes and the child-session sidebar · Ctrl-C stops a run · Ctrl-C twice exits";

function drawItem(item: TranscriptItem, w: number, detail: boolean): string[] {
  switch (item.kind) {
    case "header":
      return [
        ...textRows(paint("✦ Ink", { bold: true, color: "magenta" }) + paint(` · ${item.cwd} · ${item.provider}/${item.model}`, { dimColor: true }), w),
        ...item.notices.flatMap((n) => wrapTextRows(`! ${n}`, w, { color: "yellow" }, false)),
        ...wrapTextRows(HELP, w, { dimColor: true }, false),
        "",
      ];
    case "user": {
      const lead = (item.target ? paint(`↻ ${item.target} `, { color: "magenta", bold: true }) : "") + paint("› ", { color: "cyan", bold: true });
      const leadWidth = stringWidth(lead);
      const rows = lines(item.text, Math.max(1, w - leadWidth), { bold: true });
      const pad = " ".repeat(leadWidth);
      return ["", ...rows.map((row, i) => (i === 0 ? lead : pad) + row)];
    }
    case "assistant":
      return ["", ...markdownLines(item.text, w)];
    case "thinking": {
      const style = { dimColor: true, italic: true };
      const label = textRows(item.done ? `✻ thought (${item.chars} chars)${detail ? "" : " · Ctrl-O shows it"}` : `✻ thinking… (${item.chars} chars)`, w, style);
      if (!detail || !item.text) return label;
      return [...label, ...textRows(item.text.trim(), Math.max(1, w - 2), style).map((row) => `  ${row}`)];
    }
    case "tool":
      if (item.child && item.child.status !== "running") return childLines(item.child, item.result, w, detail);
      return toolLines(item, w, detail ? DETAIL_RESULT_LINES : 2, 0, undefined);
    case "info":
      if (item.retry && !item.done) return [truncRow(`⟳ ${retryStatus(item.retry, 0)}`, w, { color: "yellow" })];
      return lines(item.text, w, { color: TONE[item.tone], dimColor: item.tone === "dim" }, true);
  }
}

/** WrapLines: each source line a WrapText (an empty one a blank row); `hanging`: an indented line's continuation rows start at its hangOf column. */
function lines(text: string, w: number, style: TextStyle, hanging = false): string[] {
  return text.split("\n").flatMap((line) => {
    const hang = hanging ? hangOf(line, w) : 0;
    if (hang > 0) {
      const head = paint(line.slice(0, hang), style);
      const rest = line.slice(hang);
      return wrapTextRows(rest, w - hang, style, rest.startsWith(" ")).map((row, i) => (i === 0 ? head : " ".repeat(hang)) + row);
    }
    const shown = line === "" ? " " : line;
    return wrapTextRows(shown, w, style, shown.startsWith(" "));
  });
}

/** A finished child: its summary line, and with details open its report (or the reason it failed) behind a rule. */
function childLines(child: ChildView, result: string | undefined, w: number, detail: boolean): string[] {
  const color = CHILD_COLOR[child.status];
  const p = summaryParts(child, result, w);
  const summary = truncRow(
    paint(p.glyph, { color }) + paint(p.profile + p.description, { bold: true }) + paint(p.status, { color }) + paint(p.stats, { color: child.status === "ok" ? undefined : color, dimColor: child.status === "ok" }) + p.gist + paint(p.id, { dimColor: true }),
    w,
  );
  const report = childReport(child, result);
  const reason = child.status !== "ok" && !report.trim() ? child.reason?.trim() : undefined;
  if (!detail || (!report.trim() && !reason)) return [summary];
  const inner = Math.max(1, w - 2);
  return [summary, ...ruled(reason ? textRows(reason, inner, { color: "red" }) : markdownLines(report, inner))];
}

/** A main-agent tool call: the call line, a long command under it, the result's first lines and how many more; a running one's spinner at `now`, or what it is held for. */
function toolLines(item: ToolItem, w: number, resultLines: number, now: number, hold: CallHold): string[] {
  const { shown, more } = excerpt(item, resultLines);
  const cut = Math.max(20, w - 8);
  const queued = item.name === "task" && !item.done && item.status === "running" && !item.child;
  const command = commandRows(item, w);
  const args = command.length > 0 ? "" : queued ? truncate(queuedTitle(item.args), Math.max(20, w - 17)) : Object.keys(item.args).length === 0 && item.status === "pending" ? "…" : formatArgs(item.args, Math.max(20, w - item.name.length - 16));
  const held = !item.done && hold !== undefined;
  const glyph = item.status === "ok" ? paint("✓", { color: "green" }) : item.status === "error" ? paint("✗", { color: "red" }) : paint(spinnerFrame(now), { color: "yellow" });
  const head =
    paint("⏺ ", { color: queued || held ? "gray" : DOT_COLOR[item.status] }) +
    paint(item.name, { bold: true }) +
    paint(` ${args} `, { dimColor: true }) +
    (queued ? paint("· queued — waits for a free child slot", { color: "yellow" }) : held ? paint(hold === "approval" ? "· waits for your approval" : "· waits to run", { color: "gray" }) : glyph) +
    (item.durationMs !== undefined ? paint(` ${formatDuration(item.durationMs)}`, { dimColor: true }) : "");
  const dim = { dimColor: true };
  const rows = [truncRow(head, w)];
  command.forEach((row, i) => rows.push(truncRow(`${i === 0 ? "  $ " : "    "}${row}`, w, dim)));
  if (item.update && !item.done) rows.push(truncRow(`  ⎿  ${truncate(item.update, cut)}`, w, dim));
  const resultStyle = item.status === "error" ? { color: "red" } : dim;
  shown.forEach((line, i) => rows.push(truncRow(`${i === 0 ? "  ⎿  " : "     "}${truncate(line, cut)}`, w, resultStyle)));
  if (more > 0) rows.push(truncRow(moreRow(item, more, resultLines), w, dim));
  return rows;
}

/**
 * The row of `item` drawn at `width` (details open or not) put at the top of the view for a search
 * hit: in an answer, the row where `query` (case-insensitive) is first seen (0 when no one row
 * holds it: the query wraps across rows); any other item from its first row (a child's summary
 * line above its report, a call line above its result).
 */
export function queryRow(item: TranscriptItem, query: string, width: number, detail = false): number {
  const q = query.toLowerCase();
  if (q === "" || item.kind !== "assistant") return 0;
  const at = itemLines(item, width, detail).findIndex((row) => stripSgr(row).toLowerCase().includes(q));
  return Math.max(0, at);
}

const SGR = /\u001b\[[\d;]*m/g;
const stripSgr = (row: string) => row.replace(SGR, "");
