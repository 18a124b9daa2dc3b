/** The `read` tool: a text file with `cat -n`-style line numbers, paged by offset/limit. */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import { fileLooksBinary } from "./binary.js";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import { clipLine, formatBytes } from "./truncate.js";
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
    const out: string[] = [];
    let outBytes = 0;
    let total = 0;
    let capped = false;
    try {
      const input = createReadStream(abs, { encoding: "utf8", signal: ctx.signal });
      const lines = createInterface({ input, crlfDelay: Infinity });
      for await (const line of lines) {
        if (ctx.signal.aborted) break;
        total++;
        if (total < start || out.length >= limit || capped) continue;
        const text = `${String(total).padStart(6)}\t${clipLine(line, READ_MAX_LINE_CHARS)}`;
        if (outBytes + text.length > READ_MAX_OUTPUT_BYTES && out.length > 0) {
          capped = true;
          continue;
        }
        out.push(text);
        outBytes += text.length + 1;
      }
    } catch (err) {
      if (ctx.signal.aborted) return aborted();
      return fail(`Cannot read ${shown}: ${errorMessage(err)}`);
    }
    if (ctx.signal.aborted) return aborted();

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
