/**
 * The `find` tool: files whose path (relative to the search root) matches a glob, sorted and
 * printed relative to the working directory. Same skipping rules as grep (.git, node_modules,
 * .gitignore). The glob matching runs in the search worker (see search-runner.ts).
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { createGlobMatcher } from "./glob.js";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";
import { walk } from "./walk.js";
import type { SearchItem } from "./search-match.js";
import { runSearch } from "./search-runner.js";
import { hiddenNote } from "./grep.js";

export interface FindToolOptions {
  /** Paths listed before stopping with a note (default 1000). */
  maxResults?: number;
}

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe("Glob such as `**/*.ts`, `src/**/login*` or `*.{json,yaml}`; without `/` it matches file names at any depth."),
  path: z.string().optional().describe("Directory to search (default: the working directory); the pattern is relative to it."),
});

/** Builds a find tool; options exist so tests can use small limits. */
export function createFindTool(options: FindToolOptions = {}): Tool<typeof schema> {
  const maxResults = options.maxResults ?? 1000;
  return {
    name: "find",
    description:
      "Find files by glob pattern (`*` within a name, `**` across directories, `?`, `[abc]`, `{a,b}`). " +
      "A pattern without `/` matches file names anywhere (e.g. `*.test.ts`); otherwise it matches the path relative to `path`. " +
      `Skips .git, node_modules and .gitignore'd files. Returns sorted paths, at most ${maxResults}.`,
    schema,
    concurrent: true,
    readOnly: true,
    async execute(args, ctx): Promise<ToolOutput> {
      if (ctx.signal.aborted) return aborted();
      try {
        createGlobMatcher(args.pattern);
      } catch (err) {
        return fail(`Invalid glob ${JSON.stringify(args.pattern)}: ${errorMessage(err)}`);
      }
      const root = resolvePath(ctx.cwd, args.path);
      const shown = displayPath(ctx.cwd, root);
      try {
        if (!(await stat(root)).isDirectory()) return fail(`${shown} is a file, not a directory; find searches directories.`);
      } catch (err) {
        const missing = errorCode(err) === "ENOENT" || errorCode(err) === "ENOTDIR";
        return fail(missing ? `Directory not found: ${shown}; check it with ls.` : `Cannot search ${shown}: ${errorMessage(err)}`);
      }

      const found: string[] = [];
      const hiddenBy = new Map<string, number>();
      const outcome = await runSearch({ mode: "find", glob: args.pattern, maxFileBytes: 0, maxLineChars: 0 }, walkItems(root, ctx.signal), {
        signal: ctx.signal,
        onResult: (item, result) => {
          if (!result.matched) return;
          const rule = ctx.hidden?.(item.path);
          if (rule !== undefined) hiddenBy.set(rule, (hiddenBy.get(rule) ?? 0) + 1);
          else found.push(displayPath(ctx.cwd, item.path));
        },
      });
      if (outcome.error) return fail(`find could not run: ${outcome.error}`);
      if (ctx.signal.aborted || outcome.aborted) return aborted();
      const slowNote =
        (outcome.slow.length > 0 ? `\n\n[the pattern took too long on ${outcome.slow.join(", ")}${outcome.stopped ? "; the search stopped there" : ""} — simplify it]` : "") +
        (hiddenBy.size > 0 ? `\n\n${hiddenNote(hiddenBy, "listed")}` : "");
      if (found.length === 0) {
        const where = shown === "." ? "the working directory" : shown;
        return ok(`No files match ${args.pattern} under ${where} (the pattern is matched against paths relative to it).${slowNote}`, {
          count: 0,
        });
      }
      found.sort();
      let output = found.slice(0, maxResults).join("\n");
      if (found.length > maxResults) {
        output += `\n\n[showing ${maxResults} of ${found.length} matching files; narrow the pattern or path]`;
      }
      return ok(output + slowNote, { count: found.length, truncated: found.length > maxResults });
    },
  };
}

/** The walk's files as search items (absolute and root-relative paths). */
async function* walkItems(root: string, signal: AbortSignal): AsyncGenerator<SearchItem> {
  for await (const entry of walk(root, { signal })) yield { path: entry.path, rel: entry.rel };
}

/** The default find tool. */
export const findTool = createFindTool();
