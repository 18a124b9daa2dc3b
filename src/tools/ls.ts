/** The `ls` tool: one directory's entries, sorted, directories marked with a trailing `/`. */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { displayPath, resolvePath } from "./paths.js";
import { hiddenNote } from "./grep.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";

export interface LsToolOptions {
  /** Entries listed before stopping with a note (default 1000). */
  maxEntries?: number;
}

const schema = z.object({
  path: z.string().optional().describe("Directory to list (default: the working directory)."),
});

/** Builds an ls tool; options exist so tests can use small limits. */
export function createLsTool(options: LsToolOptions = {}): Tool<typeof schema> {
  const maxEntries = options.maxEntries ?? 1000;
  return {
    name: "ls",
    description:
      "List a directory (default: the working directory): sorted entry names, dotfiles included, " +
      `directories marked with a trailing \`/\`. Shows at most ${maxEntries} entries.`,
    schema,
    concurrent: true,
    readOnly: true,
    async execute(args, ctx): Promise<ToolOutput> {
      if (ctx.signal.aborted) return aborted();
      const dir = resolvePath(ctx.cwd, args.path);
      const shown = displayPath(ctx.cwd, dir);
      let names: string[];
      try {
        const info = await stat(dir);
        if (!info.isDirectory()) return fail(`${shown} is a file, not a directory; use read to view it.`);
        names = await readdir(dir);
      } catch (err) {
        const code = errorCode(err);
        if (code === "ENOENT" || code === "ENOTDIR") return fail(`Directory not found: ${shown}; check the path.`);
        if (code === "EACCES" || code === "EPERM") return fail(`Cannot list ${shown}: permission denied.`);
        return fail(`Cannot list ${shown}: ${errorMessage(err)}`);
      }
      const hiddenBy = new Map<string, number>();
      if (ctx.hidden) {
        names = names.filter((name) => {
          const rule = ctx.hidden!(join(dir, name));
          if (rule !== undefined) hiddenBy.set(rule, (hiddenBy.get(rule) ?? 0) + 1);
          return rule === undefined;
        });
      }
      const hiddenText = hiddenBy.size > 0 ? `\n\n${hiddenNote(hiddenBy, "listed")}` : "";
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const shownNames = names.slice(0, maxEntries);
      const lines: string[] = [];
      for (const name of shownNames) {
        if (ctx.signal.aborted) return aborted();
        const isDir = await stat(join(dir, name)).then(
          (s) => s.isDirectory(),
          () => false, // dangling symlink
        );
        lines.push(isDir ? `${name}/` : name);
      }
      if (lines.length === 0) return ok(`(${shown} is an empty directory)${hiddenText}`, { count: 0 });
      let output = lines.join("\n");
      if (names.length > maxEntries) {
        output += `\n\n[showing ${maxEntries} of ${names.length} entries; use find or grep to narrow down]`;
      }
      return ok(output + hiddenText, { count: names.length, truncated: names.length > maxEntries });
    },
  };
}

/** The default ls tool. */
export const lsTool = createLsTool();
