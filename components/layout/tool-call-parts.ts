/**
 * The pieces of a main-agent tool call's rows that do not depend on how they are drawn: the result
 * excerpt, its "… +N lines" row, the rows of a long `bash` command under the call line and a queued
 * `task` call's title. ToolCallLine (a live call) and itemLines (a finished one) draw from them.
 */
import { contentLines, formatArgs } from "../state/format.js";
import { childTitle, normalizeDescription } from "../../src/subagents/runtime/child-label.js";
import type { ToolItem } from "../state/transcript-types.js";
import { wrapRows } from "./measure.js";

/** Lines of a tool result shown with details open. */
export const DETAIL_RESULT_LINES = 200;

/** The result lines shown under the call (`resultLines`, one more for an error) and how many more there are. */
export function excerpt(item: ToolItem, resultLines: number): { shown: string[]; more: number } {
  const lines = item.result !== undefined ? contentLines(item.result) : (item.resultHead ?? []);
  const total = item.result !== undefined ? lines.length : (item.resultLines ?? lines.length);
  const shown = lines.slice(0, item.status === "error" ? resultLines + 1 : resultLines);
  return { shown, more: total - shown.length };
}

/** The "… +N lines" row; when more lines were asked for than the kept head has, it says where the rest is. */
export function moreRow(item: ToolItem, more: number, resultLines: number): string {
  const row = `     … +${more} line${more === 1 ? "" : "s"}`;
  return item.resultHead !== undefined && resultLines > item.resultHead.length ? `${row} · Ctrl-T opens the latest tool output in full` : row;
}

/** Most rows a long command takes under its call line; a longer one ends with a count. */
export const COMMAND_MAX_ROWS = 12;
const COMMAND_INDENT = 4;

/** The rows of a `bash` command drawn under the call line (none when it fits on the line itself). */
export function commandRows(item: ToolItem, width: number): string[] {
  const command = item.args.command;
  if (typeof command !== "string" || item.name !== "bash") return [];
  const line = Math.max(20, width - item.name.length - 16);
  if (!command.includes("\n") && formatArgs(item.args, Number.MAX_SAFE_INTEGER).length <= line) return [];
  const rows = wrapRows(command, Math.max(10, width - COMMAND_INDENT));
  if (rows.length <= COMMAND_MAX_ROWS) return rows;
  return [...rows.slice(0, COMMAND_MAX_ROWS - 1), `… +${rows.length - COMMAND_MAX_ROWS + 1} more rows of the command`];
}

/** A queued `task` call named as its child's row will name it: `scout · find the login handler` (its description, else its prompt's first words). */
export function queuedTitle(args: Record<string, unknown>): string {
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return childTitle({ profile: text(args.agent), description: normalizeDescription(text(args.description)).text, prompt: text(args.prompt) });
}
