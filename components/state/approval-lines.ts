/**
 * approval-lines: the plain rows an approval shows — the header (tool, who asks, cwd), the full
 * command wrapped to the width at word boundaries, or a unified diff / new file head for edit and
 * write — and the answer choices laid out so `[r]eason` is always on screen.
 */
import { editHunk } from "../../src/tools/edit-context.js";
import { shortId, truncate } from "./format.js";
import type { ApprovalRequest } from "./approval-broker.js";

/** One body row with its colour role. */
export interface ApprovalLine {
  text: string;
  tone: "plain" | "add" | "remove" | "dim";
}

/** Splits `text` into rows of at most `width` characters (hard wrap, newlines kept). */
export function hardWrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (line.length === 0) out.push("");
    for (let i = 0; i < line.length; i += w) out.push(line.slice(i, i + w));
  }
  return out;
}

/**
 * wordWrap: `text` in rows of at most `width` characters, broken at spaces where a row can end
 * before its next word (the spaces a row breaks at are dropped), a word longer than a row cut hard;
 * newlines and a line's leading indentation are kept.
 */
export function wordWrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const line of text.split("\n")) {
    let row = "";
    for (let token of line.match(/\s*\S+|\s+$/g) ?? [""]) {
      if (row.length + token.length > w && row !== "") {
        out.push(row);
        token = token.trimStart();
        row = "";
      }
      for (; token.length > w; token = token.slice(w)) out.push(token.slice(0, w));
      row += token;
    }
    out.push(row);
  }
  return out;
}

/** One answer the approval offers: its key and the rest of its label (`[y]es` = y + "es"). */
export interface AnswerChoice {
  key: string;
  rest: string;
}

const SEPARATOR = " / ";
const rowWidth = (row: readonly AnswerChoice[]) => row.reduce((n, c) => n + c.key.length + 2 + c.rest.length, 0) + SEPARATOR.length * Math.max(0, row.length - 1);

/**
 * answerRows: the answer choices in rows that fit `width` — one row when all fit; else the rule
 * to save goes to a second row (its end may be cut) so y, n, a and r stay whole on the first, `r`
 * losing its "(deny and say why)" when even that row is too wide.
 */
export function answerRows(rule: string | undefined, width: number): AnswerChoice[][] {
  const base: AnswerChoice[] = [
    { key: "y", rest: "es" },
    { key: "n", rest: "o" },
    { key: "a", rest: "lways" },
  ];
  const save: AnswerChoice[] = rule !== undefined ? [{ key: "s", rest: `ave rule ${rule}` }] : [];
  const reason = { key: "r", rest: "eason (deny and say why)" };
  const all = [...base, ...save, reason];
  if (rowWidth(all) <= width) return [all];
  const first = rowWidth([...base, reason]) <= width ? [...base, reason] : [...base, { key: "r", rest: "eason" }];
  return save.length > 0 ? [first, save] : [first];
}

/** Who asks: "main", or the child's profile/label plus its short id, as its pane shows it. */
export function askerLabel(request: ApprovalRequest): string {
  const { agent } = request;
  if (agent.depth === 0) return "main";
  const what = agent.description ? ` · ${truncate(agent.description, 32)}` : "";
  return `${agent.profile ?? agent.label}${what} ${shortId(agent.id)}`;
}

/** The body rows for `request` at inner width `width` (border and padding excluded). */
export function approvalBodyLines(request: ApprovalRequest, width: number): ApprovalLine[] {
  const args = request.call.arguments as Record<string, unknown>;
  const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  const plain = (t: string): ApprovalLine[] => wordWrap(t, width).map((text) => ({ text, tone: "plain" as const }));
  if (request.call.name === "bash" && str("command") !== undefined) return plain(`$ ${str("command")}`);
  if (request.call.name === "edit" && str("path") !== undefined) {
    // With the file's context: whole lines, the unchanged ones around marked with a space (as `diff -u`).
    const hunk = editHunk(str("oldText") ?? "", str("newText") ?? "", request.context);
    const rows: ApprovalLine[] = [{ text: `--- ${str("path")}  +${hunk.newLines.length} -${hunk.oldLines.length}`, tone: "dim" }];
    if (hunk.header !== undefined) rows.push({ text: hunk.header, tone: "dim" });
    for (const l of hunk.before) for (const text of hardWrap(` ${l}`, width)) rows.push({ text, tone: "dim" });
    for (const l of hunk.oldLines) for (const text of hardWrap(`-${l}`, width)) rows.push({ text, tone: "remove" });
    for (const l of hunk.newLines) for (const text of hardWrap(`+${l}`, width)) rows.push({ text, tone: "add" });
    for (const l of hunk.after) for (const text of hardWrap(` ${l}`, width)) rows.push({ text, tone: "dim" });
    return rows;
  }
  if (request.call.name === "write" && str("path") !== undefined) {
    // A final newline ends the last line; it does not start another.
    const content = str("content") ?? "";
    const lines = content === "" ? [] : content.replace(/\n$/, "").split("\n");
    const rows: ApprovalLine[] = [{ text: `new ${str("path")}  +${lines.length}`, tone: "dim" }];
    for (const l of lines.slice(0, 20)) for (const text of hardWrap(`+${l}`, width)) rows.push({ text, tone: "add" });
    if (lines.length > 20) rows.push({ text: `… ${lines.length - 20} more lines`, tone: "dim" });
    return rows;
  }
  return plain(JSON.stringify(request.call.arguments));
}
