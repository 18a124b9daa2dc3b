/**
 * The `grep` tool: a JavaScript regular expression over the text files under a path, printed as
 * `file:line: text` (paths relative to the working directory). Uses the gitignore-aware walker,
 * so `.git`, `node_modules`, ignored paths, binary files and symlinked files pointing outside the
 * searched directory (noted) are skipped. The matching runs in a
 * worker thread (see search-runner.ts): a pattern that backtracks for ever on one file costs that
 * file (skipped with a note), never the main thread.
 */
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { z } from "zod";
import { createGlobMatcher } from "./glob.js";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";
import { walk } from "./walk.js";
import type { SearchItem, SearchJob } from "./search-match.js";
import { ITEM_BUDGET_MS, runSearch } from "./search-runner.js";
import { formatBytes } from "../protocol/format-bytes.js";

export interface GrepToolOptions {
  /** Matches listed before stopping with a note (default 200). */
  maxMatches?: number;
  /** Matched lines longer than this are clipped around the match (default 300). */
  maxLineChars?: number;
  /** Files larger than this are skipped with a note (default 10 MB). */
  maxFileBytes?: number;
  /** Time the pattern may take on one file before the file is skipped (default 2 s). */
  fileBudgetMs?: number;
}

const schema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression to search for, e.g. `function\\s+load` or `TODO|FIXME`."),
  path: z.string().optional().describe("File or directory to search (default: the working directory)."),
  glob: z.string().optional().describe("Only search files matching this glob, e.g. `*.ts` or `src/**/*.test.ts`."),
  ignoreCase: z.boolean().optional().describe("Case-insensitive matching (default false)."),
  output: z
    .enum(["content", "count"])
    .optional()
    .describe("`content` (default): the matching lines. `count`: one `path: N` line per file with matches — to see where a term is used most before reading."),
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
      `Use \`glob\` to restrict file names (e.g. \`*.ts\`). Shows at most ${maxMatches} matches; \`output: "count"\` lists match counts per file instead (at most ${maxMatches * 5} files).`,
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
      const counting = args.output === "count";
      const maxLines = counting ? maxMatches * 5 : maxMatches;
      let total = 0;
      let filesWithMatches = 0;
      let more = false;
      let tooLarge = 0;
      const outside: string[] = [];
      const hiddenBy = new Map<string, number>();
      const hide = (path: string): boolean => {
        const rule = ctx.hidden?.(path);
        if (rule !== undefined) hiddenBy.set(rule, (hiddenBy.get(rule) ?? 0) + 1);
        return rule !== undefined;
      };
      const all = isDir ? walkItems(root, ctx.signal, (link, target) => outside.push(`${displayPath(ctx.cwd, link)} → ${target}`)) : [{ path: root, rel: basename(root) }];
      const items = ctx.hidden ? withoutHidden(all, hide) : all;
      const job: SearchJob = { mode: "grep", regex: { source: regex.source, flags: regex.flags }, glob: isDir ? args.glob : undefined, maxFileBytes, maxLineChars };
      const outcome = await runSearch(job, items, {
        signal: ctx.signal,
        itemBudgetMs: options.fileBudgetMs,
        onResult: (item, result) => {
          if (result.skipped === "too-large") tooLarge++;
          if (!result.lines || result.lines.length === 0) return true;
          filesWithMatches++;
          const name = displayPath(ctx.cwd, item.path);
          total += result.lines.length;
          if (counting) {
            if (lines.length >= maxLines) {
              more = true;
              return false;
            }
            lines.push(`${name}: ${result.lines.length}`);
            return true;
          }
          for (const m of result.lines) {
            if (lines.length >= maxMatches) {
              more = true;
              return false;
            }
            lines.push(`${name}:${m.line}: ${m.text}`);
          }
          return true;
        },
      });
      if (outcome.error) return fail(`grep could not run: ${outcome.error}`);
      if (ctx.signal.aborted) return aborted(lines.length > 0 ? lines.join("\n") : undefined);

      const flags = args.ignoreCase ? "i" : "";
      const where = `${shown === "." ? "the working directory" : shown}${fileFilter ? ` (files matching ${args.glob})` : ""}`;
      const notes = skippedNotes(outcome.slow, tooLarge, { budgetMs: options.fileBudgetMs ?? ITEM_BUDGET_MS, maxFileBytes, stoppedSlow: outcome.stopped && !more });
      if (hiddenBy.size > 0) notes.push(hiddenNote(hiddenBy, "searched"));
      if (outside.length > 0) notes.push(`[not searched: ${outside.length} symlinked file(s) pointing outside ${shown === "." ? "the working directory" : shown}: ${outside.slice(0, 5).join(", ")}${outside.length > 5 ? ", …" : ""} — read one by its path if needed (that asks)]`);
      if (lines.length === 0) return ok([`No matches for /${args.pattern}/${flags} in ${where}.`, ...notes].join("\n\n"), { matches: 0, slow: outcome.slow });
      let output = lines.join("\n");
      if (counting) output += `\n\n[${total} matches in ${filesWithMatches} file(s)${more ? `; showing the first ${maxLines} files — narrow the pattern, path or glob` : ""}]`;
      else if (more) {
        output += `\n\n[showing the first ${maxMatches} matches; there are more — narrow the pattern, path or glob]`;
      }
      if (notes.length > 0) output += `\n\n${notes.join("\n")}`;
      return ok(output, { matches: lines.length, files: filesWithMatches, truncated: more, slow: outcome.slow });
    },
  };
}

/** The default grep tool. */
export const grepTool = createGrepTool();

/** The walk as search items (absolute and root-relative paths). */
async function* walkItems(root: string, signal: AbortSignal, outsideLink: (path: string, target: string) => void): AsyncGenerator<SearchItem> {
  for await (const entry of walk(root, { signal, outsideLink })) yield { path: entry.path, rel: entry.rel };
}

/** The items `hide` does not cover. */
async function* withoutHidden(items: AsyncIterable<SearchItem> | Iterable<SearchItem>, hide: (path: string) => boolean): AsyncGenerator<SearchItem> {
  for await (const item of items) if (!hide(item.path)) yield item;
}

/** `[not searched: 3 file(s) a deny rule covers (read(./.env): 1, …)]` — counts only, never names. */
export function hiddenNote(hiddenBy: ReadonlyMap<string, number>, verb: string): string {
  const total = [...hiddenBy.values()].reduce((a, b) => a + b, 0);
  const rules = [...hiddenBy].map(([rule, n]) => `${rule}: ${n}`).join(", ");
  return `[not ${verb}: ${total} file(s) a deny rule covers (${rules})]`;
}

/** Notes on files left out: too slow for the pattern, or too large. */
function skippedNotes(slow: string[], tooLarge: number, o: { budgetMs: number; maxFileBytes: number; stoppedSlow: boolean }): string[] {
  const notes: string[] = [];
  if (slow.length > 0) {
    const stop = o.stoppedSlow ? " and the search stopped there" : "";
    notes.push(
      `[skipped ${slow.length} file(s) where the pattern took over ${o.budgetMs / 1000}s${stop}: ${slow.join(", ")} — ` +
        "simplify the pattern (nested quantifiers such as (a+)+ backtrack exponentially on long lines)]",
    );
  }
  if (tooLarge > 0) notes.push(`[skipped ${tooLarge} file(s) larger than ${formatBytes(o.maxFileBytes)}; use read with offset/limit on them]`);
  return notes;
}
