/**
 * The "whole tool output" overlay (Ctrl-T): the latest tool call(s) of the main transcript with
 * their full results. A long result is kept in UI state only as its head; the whole text is read
 * back from the session file when the overlay opens (or taken from the results held in memory
 * while the file does not have them: not written yet, or saving failed). What cannot be found is
 * said in the overlay, with the head the UI kept; nothing here throws.
 */
import { readToolResults, type ToolResultLookup } from "../../src/session/tool-result-reader.js";
import { formatArgs, formatDuration, wrapText } from "./format.js";
import type { OverlayView } from "./child-transcript.js";
import type { StreamState, ToolItem, TranscriptItem } from "./transcript-types.js";
import type { OverlayLine } from "./ui-reducer.js";

/** Reads saved results (the session reader; tests may pass another). */
export type ResultReader = (file: string, ids: readonly string[]) => ToolResultLookup;

/**
 * The tool calls of the latest turn that made any: from the end of the transcript, the last run of
 * tool items (a text, thought or prompt ends the run). Running children's task calls are left out.
 */
export function latestToolItems(items: readonly TranscriptItem[]): ToolItem[] {
  const out: ToolItem[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "tool") {
      if (item.child?.status !== "running") out.unshift(item);
    } else if (out.length > 0 && (item.kind === "assistant" || item.kind === "user" || item.kind === "thinking")) break;
  }
  return out;
}

/** Where one item's whole text came from, or why it is not available. */
type Found = { text: string; note?: string } | { problem: string };

function find(item: ToolItem, held: Readonly<Record<string, string>>, lookup: Map<string, ToolResultLookup>, unsaved: boolean): Found {
  if (item.result !== undefined) return { text: item.result };
  if (!item.saved) return item.done ? { problem: "no result was kept" } : { text: "", note: "still running…" };
  const kept = held[item.saved.callId];
  if (kept !== undefined) return { text: kept, note: unsaved ? "kept in memory: the session file could not be written" : "kept in memory: not in the session file yet" };
  const read = lookup.get(item.saved.file);
  const saved = read?.results.get(item.saved.callId);
  if (saved) return { text: saved.content };
  if (read?.problem) return { problem: read.problem };
  return { problem: `the session file ${item.saved.file} does not hold this result${unsaved ? " (saving the session failed)" : ""}` };
}

/**
 * The overlay for `items` at `width` columns: each call (`⏺ name args`), then its whole result;
 * results kept only as a head are read with `read` from their session files (once per file).
 */
export function toolOutputView(items: readonly ToolItem[], held: Readonly<Record<string, string>>, width: number, opts: { unsaved?: boolean; read?: ResultReader } = {}): OverlayView {
  const read = opts.read ?? readToolResults;
  const byFile = new Map<string, string[]>();
  for (const item of items) if (item.saved && item.result === undefined && held[item.saved.callId] === undefined) byFile.set(item.saved.file, [...(byFile.get(item.saved.file) ?? []), item.saved.callId]);
  const lookup = new Map([...byFile].map(([file, ids]) => [file, read(file, ids)] as const));
  const lines: OverlayLine[] = [];
  const push = (text: string, tone: OverlayLine["tone"], indent = "") => {
    for (const [i, row] of wrapText(text, width - indent.length).entries()) lines.push({ text: (i === 0 ? indent : " ".repeat(indent.length)) + row, tone });
  };
  if (items.length === 0) lines.push({ text: "No tool call has finished in this transcript yet.", tone: "dim" });
  for (const item of items) {
    if (lines.length > 0) lines.push({ text: "" });
    const status = item.status === "error" ? " · failed" : "";
    push(`${item.name} ${formatArgs(item.args, Math.max(20, width * 2))}${item.durationMs !== undefined ? ` · ${formatDuration(item.durationMs)}` : ""}${status}`, "tool", "⏺ ");
    const found = find(item, held, lookup, opts.unsaved ?? false);
    if ("problem" in found) {
      push(`The whole output is not available: ${found.problem}. Its first lines:`, "error");
      for (const row of item.resultHead ?? []) push(row, "dim", "  ");
      if ((item.resultLines ?? 0) > (item.resultHead?.length ?? 0)) lines.push({ text: `  … ${(item.resultLines ?? 0) - (item.resultHead?.length ?? 0)} more lines`, tone: "dim" });
      continue;
    }
    if (found.note) lines.push({ text: `(${found.note})`, tone: "dim" });
    push(found.text.replace(/\s+$/, "") === "" ? "(no output)" : found.text.replace(/\s+$/, ""), item.status === "error" ? "error" : "plain");
  }
  const title = items.length > 1 ? `whole output of the latest ${items.length} tool calls` : "whole output of the latest tool call";
  return { title, lines };
}

/** The whole result of a tool item for copying: in the item, or read back from its session file (else its head). */
export function wholeResultText(item: ToolItem, read: ResultReader = readToolResults): string | undefined {
  if (item.result !== undefined || !item.saved) return item.result;
  return read(item.saved.file, [item.saved.callId]).results.get(item.saved.callId)?.content ?? item.resultHead?.join("\n");
}
