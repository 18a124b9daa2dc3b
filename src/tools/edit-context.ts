/**
 * edit-context: the lines around an `edit` call's change, read from the file when the approval is
 * asked, and the hunk they make, so every approval (the TUI's, the control channel's) shows the
 * change as a unified diff reader expects it — whole lines, with CONTEXT_LINES unchanged lines
 * before and after, marked as context.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";

/** Unchanged lines shown before and after a change (as `diff -u`). */
export const CONTEXT_LINES = 3;
/** Files larger than this are not read for context (the change is shown alone). */
const MAX_BYTES = 4 * 1024 * 1024;

/** Where an edit's old text sits in its file, and the lines around it. */
export interface EditContext {
  /** 1-based number of the first changed line. */
  line: number;
  /** The text of that line before the old text, and of the last changed line after it: the change's whole lines. */
  prefix: string;
  suffix: string;
  /** Unchanged lines before and after the change (at most CONTEXT_LINES each). */
  before: string[];
  after: string[];
}

/** The context of replacing `oldText` in the file at `path` (relative to `cwd`); undefined when the file cannot be read or the text is not in it. */
export function editContext(path: string, oldText: string, cwd: string): EditContext | undefined {
  if (oldText === "") return undefined;
  let text: string;
  try {
    const file = resolve(cwd, path);
    if (statSync(file).size > MAX_BYTES) return undefined;
    text = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  } catch {
    return undefined;
  }
  const at = text.indexOf(oldText.replace(/\r\n/g, "\n"));
  if (at < 0) return undefined;
  const end = at + oldText.replace(/\r\n/g, "\n").length;
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  const nl = text.indexOf("\n", end);
  const lineEnd = nl < 0 ? text.length : nl;
  const beforeLines = lineStart === 0 ? [] : text.slice(0, lineStart - 1).split("\n");
  const afterLines = lineEnd >= text.length ? [] : text.slice(lineEnd + 1).split("\n");
  if (afterLines.at(-1) === "") afterLines.pop(); // the file's final newline ends a line, it is not one
  return {
    line: beforeLines.length + 1,
    prefix: text.slice(lineStart, at),
    suffix: text.slice(end, lineEnd),
    before: beforeLines.slice(-CONTEXT_LINES),
    after: afterLines.slice(0, CONTEXT_LINES),
  };
}

/** An edit's change as one unified-diff hunk: whole lines, with the context around it. */
export interface EditHunk {
  /** The `@@ -a,b +c,d @@` line; absent without context (where the change sits is unknown). */
  header?: string;
  before: string[];
  /** The changed lines before and after the edit (the old text's and the new text's whole lines). */
  oldLines: string[];
  newLines: string[];
  after: string[];
}

/** The hunk of replacing `oldText` with `newText`, with the file's `context` when it was read. */
export function editHunk(oldText: string, newText: string, context?: EditContext): EditHunk {
  const c = context;
  const oldLines = `${c?.prefix ?? ""}${oldText}${c?.suffix ?? ""}`.split("\n");
  const newLines = `${c?.prefix ?? ""}${newText}${c?.suffix ?? ""}`.split("\n");
  const before = c?.before ?? [];
  const after = c?.after ?? [];
  if (!c) return { before, oldLines, newLines, after };
  const from = c.line - before.length;
  const header = `@@ -${from},${before.length + oldLines.length + after.length} +${from},${before.length + newLines.length + after.length} @@`;
  return { header, before, oldLines, newLines, after };
}
