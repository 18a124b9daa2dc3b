/**
 * The `grep` tool: a JavaScript regular expression over the text files under a path, printed as
 * `file:line: text` (paths relative to the working directory). Uses the gitignore-aware walker,
 * so `.git`, `node_modules`, ignored paths and binary files are skipped.
 */
import { readFileSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { z } from "zod";
import { looksBinary, SNIFF_BYTES } from "./binary.js";
import { createGlobMatcher } from "./glob.js";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";
import { walkFiles } from "./walk.js";

export interface GrepToolOptions {
  /** Matches listed before stopping with a note (default 200). */
  maxMatches?: number;
  /** Matched lines longer than this are clipped around the match (default 300). */
  maxLineChars?: number;
  /** Files larger than this are skipped (default 10 MB). */
  maxFileBytes?: number;
}

const schema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression to search for, e.g. `function\\s+load` or `TODO|FIXME`."),
  path: z.string().optional().describe("File or directory to search (default: the working directory)."),
  glob: z.string().optional().describe("Only search files matching this glob, e.g. `*.ts` or `src/**/*.test.ts`."),
  ignoreCase: z.boolean().optional().describe("Case-insensitive matching (default false)."),
});

/** Builds a grep tool; options exist so tests can use small limits. */
export function createGrepTool(options: GrepToolOptions = {}): Tool<typeof schema> {
  const maxMatches = options.maxMatches ?? 200;
  const maxLineChars = options.maxLineChars ?? 300;
  const maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
  return {
    name: "grep",
    description:
      "Search file contents with a JavaScript regular expression. Prints `path:line: text` for each matching line. " +
      "Searches the working directory (or `path`), skipping .git, node_modules, files ignored by .gitignore and binary files. " +
      `Use \`glob\` to restrict file names (e.g. \`*.ts\`). Shows at most ${maxMatches} matches.`,
    schema,
    concurrent: true,
    readOnly: true,
    async execute(args, ctx): Promise<ToolOutput> {
      if (ctx.signal.aborted) return aborted();
      let regex: RegExp;
      try {
        regex = new RegExp(args.pattern, args.ignoreCase ? "i" : "");
      } catch (err) {
        return fail(
          `Invalid regex ${JSON.stringify(args.pattern)}: ${errorMessage(err)}. ` +
            "Escape characters such as ( ) [ ] { } . * + ? | with a backslash to match them literally.",
        );
      }
      let fileFilter: ((rel: string) => boolean) | undefined;
      try {
        if (args.glob) fileFilter = createGlobMatcher(args.glob);
      } catch (err) {
        return fail(`Invalid glob ${JSON.stringify(args.glob)}: ${errorMessage(err)}`);
      }
      const root = resolvePath(ctx.cwd, args.path);
      const shown = displayPath(ctx.cwd, root);
      let isDir: boolean;
      try {
        isDir = (await stat(root)).isDirectory();
      } catch (err) {
        const missing = errorCode(err) === "ENOENT" || errorCode(err) === "ENOTDIR";
        return fail(missing ? `Path not found: ${shown}; check it with ls or find.` : `Cannot search ${shown}: ${errorMessage(err)}`);
      }

      const lines: string[] = [];
      let filesWithMatches = 0;
      let more = false;
      const files: AsyncIterable<string> | string[] = isDir
        ? walkFiles(root, { signal: ctx.signal, glob: args.glob })
        : [root];
      let searched = 0;
      for await (const file of files) {
        if (ctx.signal.aborted) break;
        // Let the event loop breathe (UI, other children) every few files.
        if (++searched % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
        const found = searchFile(file, regex, maxFileBytes);
        if (found.length === 0) continue;
        filesWithMatches++;
        const name = displayPath(ctx.cwd, file);
        for (const m of found) {
          if (lines.length >= maxMatches) {
            more = true;
            break;
          }
          lines.push(`${name}:${m.line}: ${clipAround(m.text, m.index, maxLineChars)}`);
        }
        if (more) break;
      }
      if (ctx.signal.aborted) return aborted(lines.length > 0 ? lines.join("\n") : undefined);

      const flags = args.ignoreCase ? "i" : "";
      const where = `${shown === "." ? "the working directory" : shown}${fileFilter ? ` (files matching ${args.glob})` : ""}`;
      if (lines.length === 0) return ok(`No matches for /${args.pattern}/${flags} in ${where}.`, { matches: 0 });
      let output = lines.join("\n");
      if (more) {
        output += `\n\n[showing the first ${maxMatches} matches; there are more — narrow the pattern, path or glob]`;
      }
      return ok(output, { matches: lines.length, files: filesWithMatches, truncated: more });
    },
  };
}

/** Files searched between two yields to the event loop. */
const YIELD_EVERY = 64;

/** The default grep tool. */
export const grepTool = createGrepTool();

interface LineMatch {
  line: number;
  text: string;
  index: number;
}

/**
 * Matching lines of one file; binary, oversized or unreadable files give none. Reads synchronously:
 * small source files read several times faster that way than through the thread pool, and the
 * caller yields to the event loop every few files.
 */
function searchFile(file: string, regex: RegExp, maxBytes: number): LineMatch[] {
  let buf: Buffer;
  try {
    if (statSync(file).size > maxBytes) return [];
    buf = readFileSync(file);
  } catch {
    return [];
  }
  if (looksBinary(buf.subarray(0, SNIFF_BYTES))) return [];
  const text = buf.toString("utf8");
  const out: LineMatch[] = [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith("\r")) line = line.slice(0, -1);
    const m = regex.exec(line);
    if (m) out.push({ line: i + 1, text: line, index: m.index });
  }
  return out;
}

/** Clips a long line to `max` characters, keeping the match in view. */
function clipAround(line: string, index: number, max: number): string {
  if (line.length <= max) return line;
  const start = Math.max(0, Math.min(index - Math.floor(max / 4), line.length - max));
  const head = start > 0 ? "…" : "";
  const rest = start + max < line.length ? `… [+${line.length - start - max} chars]` : "";
  return `${head}${line.slice(start, start + max)}${rest}`;
}

