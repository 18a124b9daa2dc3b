/**
 * The `find` tool: files whose path (relative to the search root) matches a glob, sorted and
 * printed relative to the working directory. Same skipping rules as grep (.git, node_modules,
 * .gitignore).
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { createGlobMatcher } from "./glob.js";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";
import { walkFiles } from "./walk.js";

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
      for await (const file of walkFiles(root, { signal: ctx.signal, glob: args.pattern })) {
        found.push(displayPath(ctx.cwd, file));
      }
      if (ctx.signal.aborted) return aborted();
      if (found.length === 0) {
        const where = shown === "." ? "the working directory" : shown;
        return ok(`No files match ${args.pattern} under ${where} (the pattern is matched against paths relative to it).`, {
          count: 0,
        });
      }
      found.sort();
      let output = found.slice(0, maxResults).join("\n");
      if (found.length > maxResults) {
        output += `\n\n[showing ${maxResults} of ${found.length} matching files; narrow the pattern or path]`;
      }
      return ok(output, { count: found.length, truncated: found.length > maxResults });
    },
  };
}

/** The default find tool. */
export const findTool = createFindTool();
