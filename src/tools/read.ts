/** The `read` tool: a text file with `cat -n`-style line numbers, paged by offset/limit. */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { fileLooksBinary } from "./binary.js";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import { readClippedLines, type ClippedLine } from "./clipped-lines.js";
import { formatBytes } from "../protocol/format-bytes.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";

/** Lines returned when no `limit` is given. */
export const READ_DEFAULT_LIMIT = 2000;
/** Longer lines are clipped with a note. */
export const READ_MAX_LINE_CHARS = 2000;
/** Output stops (with a "continue at offset" note) once this many bytes are collected. */
export const READ_MAX_OUTPUT_BYTES = 100_000;

const schema = z.object({
  path: z.string().min(1).describe("Path of the file to read (relative to the working directory, or absolute)."),
  offset: z.number().int().min(0).optional().describe("1-based line number to start at (default 1)."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum number of lines to return (default ${READ_DEFAULT_LIMIT}).`),
});

export const readTool: Tool<typeof schema> = {
  name: "read",
  description:
    "Read a text file. Output lines are numbered like `cat -n` (1-based). " +
    `Returns at most ${READ_DEFAULT_LIMIT} lines by default; use offset/limit to page through long files. ` +
    `Lines longer than ${READ_MAX_LINE_CHARS} characters are clipped. Binary files are refused. ` +
    "Use ls for directories.",
  schema,
  concurrent: true,
  readOnly: true,
  async execute(args, ctx): Promise<ToolOutput> {
    if (ctx.signal.aborted) return aborted();
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    const problem = await checkReadable(abs, shown);
    if (problem) return problem;
    if (ctx.signal.aborted) return aborted();

    const start = Math.max(1, args.offset ?? 1);
    const limit = args.limit ?? READ_DEFAULT_LIMIT;
    let window;
    try {
      window = await readClippedLines(abs, { start, limit, maxLineChars: READ_MAX_LINE_CHARS, maxChars: READ_MAX_OUTPUT_BYTES, lineOverhead: 8, signal: ctx.signal });
    } catch (err) {
      if (ctx.signal.aborted) return aborted();
      return fail(`Cannot read ${shown}: ${errorMessage(err)}`);
    }
    if (ctx.signal.aborted) return aborted();
    const { totalLines: total, capped } = window;
    const out = window.lines.map((l) => `${String(l.number).padStart(6)}\t${clipNote(l)}`);

    if (total === 0) return ok(`(${shown} is empty)`, { path: abs, totalLines: 0 });
    if (start > total) {
      return fail(`offset ${start} is past the end of ${shown}, which has ${total} lines; use an offset from 1 to ${total}.`);
    }
    const end = start + out.length - 1;
    const details = { path: abs, startLine: start, endLine: end, totalLines: total };
    let output = out.join("\n");
    if (end < total) {
      const why = capped ? `output capped at ${formatBytes(READ_MAX_OUTPUT_BYTES)}; ` : "";
      output += `\n\n[${why}showing lines ${start}-${end} of ${total}; ${total - end} more lines — use offset=${end + 1} to continue]`;
    }
    return ok(output, details);
  },
};

/** A kept line's text, with a note of how much of it was clipped. */
function clipNote(line: ClippedLine): string {
  if (line.clippedChars === 0) return line.text;
  return `${line.text}… [line truncated, ${line.clippedChars} more chars]`;
}

/** An error result when `abs` is missing, a directory, not a regular file, or binary; else null. */
async function checkReadable(abs: string, shown: string): Promise<ToolOutput | null> {
  try {
    const info = await stat(abs);
    if (info.isDirectory()) return fail(`${shown} is a directory, not a file; use ls to list it.`);
    if (!info.isFile()) return fail(`${shown} is not a regular file; read only opens text files.`);
    if (info.size > 0 && (await fileLooksBinary(abs))) {
      return fail(`${shown} looks like a binary file (${formatBytes(info.size)}); read only shows text files.`);
    }
    return null;
  } catch (err) {
    const code = errorCode(err);
    if (code === "ENOENT" || code === "ENOTDIR") {
      return fail(`File not found: ${shown}${shown === abs ? "" : ` (${abs})`}; check the path with ls or find.`);
    }
    if (code === "EACCES" || code === "EPERM") return fail(`Cannot read ${shown}: permission denied.`);
    return fail(`Cannot read ${shown}: ${errorMessage(err)}`);
  }
}
