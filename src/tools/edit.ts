/**
 * The `edit` tool: replaces one exact, unique occurrence of `oldText` with `newText`. Fails
 * clearly when the text is absent or ambiguous; reports the changed lines as a small diff.
 */
import { readFile, stat } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-write.js";
import { z } from "zod";
import { looksBinary, SNIFF_BYTES } from "./binary.js";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";

/** Largest file `edit` loads (bytes): beyond it, matching would hold the whole file as a string and block Ink. */
export const EDIT_MAX_FILE_BYTES = 32 * 1024 * 1024;

/** Diff lines shown per side before eliding. */
const MAX_DIFF_LINES = 30;

const schema = z.object({
  path: z.string().min(1).describe("File to edit (relative to the working directory, or absolute)."),
  oldText: z.string().describe("Exact text to replace, copied from the file (whitespace included); must occur exactly once."),
  newText: z.string().describe("Replacement text."),
});

export const editTool: Tool<typeof schema> = {
  name: "edit",
  description:
    "Edit a file by replacing one exact occurrence of oldText with newText. oldText must match the file exactly " +
    "(indentation and line breaks included) and occur exactly once; include surrounding lines to make it unique. " +
    "Read the file first. To create a file or rewrite it entirely, use write.",
  schema,
  concurrent: false,
  readOnly: false,
  async execute(args, ctx): Promise<ToolOutput> {
    if (ctx.signal.aborted) return aborted();
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    if (args.oldText === "") return fail("oldText is empty; copy the exact text to replace, or use write to create or overwrite a file.");
    if (args.oldText === args.newText) return fail(`oldText and newText are identical; nothing to change in ${shown}.`);

    let content: string;
    try {
      const info = await stat(abs);
      if (info.isDirectory()) return fail(`${shown} is a directory, not a file.`);
      if (!info.isFile()) return fail(`${shown} is not a regular file (a FIFO, socket or device); edit only changes text files.`);
      if (info.size > EDIT_MAX_FILE_BYTES) {
        return fail(`${shown} is ${(info.size / 1024 / 1024).toFixed(1)} MB; edit changes files up to ${EDIT_MAX_FILE_BYTES / 1024 / 1024} MB — for a file this large use bash (e.g. sed -i) or write a smaller file.`);
      }
      const buf = await readFile(abs, { signal: ctx.signal });
      if (looksBinary(buf.subarray(0, SNIFF_BYTES))) return fail(`${shown} looks like a binary file; edit only changes text files.`);
      content = buf.toString("utf8");
    } catch (err) {
      if (ctx.signal.aborted) return aborted();
      const code = errorCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return fail(`File not found: ${shown}; use write to create a new file.`);
      return fail(`Cannot read ${shown}: ${errorMessage(err)}`);
    }

    let oldText = args.oldText;
    let newText = args.newText;
    let positions = occurrences(content, oldText);
    if (positions.length === 0 && content.includes("\r\n") && /(?<!\r)\n/.test(oldText)) {
      // The file uses CRLF line endings but the model sent LF: match (and write) with CRLF.
      oldText = oldText.replace(/\r?\n/g, "\r\n");
      newText = newText.replace(/\r?\n/g, "\r\n");
      positions = occurrences(content, oldText);
    }
    if (positions.length === 0) {
      const squash = (s: string) => s.replace(/\s+/g, " ").trim();
      const hint = squash(content).includes(squash(oldText))
        ? " (a text differing only in whitespace/indentation exists — copy it exactly)"
        : "";
      return fail(`oldText not found in ${shown}${hint}; read the file and copy the exact text.`);
    }
    if (positions.length > 1) {
      const lines = positions.slice(0, 10).map((p) => lineOf(content, p));
      const more = positions.length > 10 ? ", …" : "";
      return fail(
        `oldText occurs ${positions.length} times in ${shown} (at lines ${lines.join(", ")}${more}); ` +
          "include more surrounding lines to make it unique.",
      );
    }

    const index = positions[0]!;
    const updated = content.slice(0, index) + newText + content.slice(index + oldText.length);
    if (ctx.signal.aborted) return aborted();
    try {
      // Atomic: an abort from here on cannot leave a half-written file (the write is short).
      await writeFileAtomic(abs, updated);
    } catch (err) {
      if (ctx.signal.aborted) return aborted();
      return fail(`Cannot write ${shown}: ${errorMessage(err)}`);
    }
    const startLine = lineOf(content, index);
    const oldCount = oldText.split("\n").length;
    const newCount = newText.split("\n").length;
    const diff = diffBlock(content, updated, index, oldText.length, newText.length, startLine);
    const summary =
      `Edited ${shown}: replaced ${range(startLine, oldCount)} (${oldCount} line${oldCount === 1 ? "" : "s"}) ` +
      `with ${newCount} line${newCount === 1 ? "" : "s"}.`;
    return ok(`${summary}\n${diff}`, { path: abs, startLine, oldLines: oldCount, newLines: newCount });
  },
};

/** Start indexes of every (possibly overlapping) occurrence of `needle`. */
function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** 1-based line number of character `index`. */
function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function range(start: number, count: number): string {
  return count === 1 ? `line ${start}` : `lines ${start}-${start + count - 1}`;
}

/** `-`/`+` lines (with line numbers) for the whole lines touched by the replacement. */
function diffBlock(before: string, after: string, index: number, oldLen: number, newLen: number, startLine: number): string {
  const lineStart = before.lastIndexOf("\n", index - 1) + 1;
  const endOld = before.indexOf("\n", index + oldLen);
  const oldBlock = before.slice(lineStart, endOld < 0 ? before.length : endOld);
  const tailLen = (endOld < 0 ? before.length : endOld) - (index + oldLen);
  const newBlock = after.slice(lineStart, index + newLen + tailLen);
  const side = (block: string, mark: string) => {
    const lines = block.split("\n").map((l, i) => `${mark}${String(startLine + i).padStart(5)} ${l.replace(/\r$/, "")}`);
    if (lines.length <= MAX_DIFF_LINES) return lines;
    return [...lines.slice(0, MAX_DIFF_LINES), `${mark}      … ${lines.length - MAX_DIFF_LINES} more lines`];
  };
  return [...side(oldBlock, "-"), ...side(newBlock, "+")].join("\n");
}
