/** The `write` tool: creates or overwrites a file, creating parent directories as needed. */
import { mkdir, stat } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-write.js";
import { dirname } from "node:path";
import { z } from "zod";
import { displayPath, resolvePath } from "./paths.js";
import { aborted, errorCode, errorMessage, fail, ok } from "./result.js";
import { formatBytes } from "../protocol/format-bytes.js";
import type { Tool, ToolOutput } from "../protocol/tool.js";

const schema = z.object({
  path: z.string().min(1).describe("File to write (relative to the working directory, or absolute)."),
  content: z.string().describe("The complete new content of the file."),
});

export const writeTool: Tool<typeof schema> = {
  name: "write",
  description:
    "Create a file or overwrite it entirely with `content`; missing parent directories are created. " +
    "For changes to part of an existing file, prefer edit.",
  schema,
  concurrent: false,
  readOnly: false,
  async execute(args, ctx): Promise<ToolOutput> {
    if (ctx.signal.aborted) return aborted();
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    let previousBytes: number | null = null;
    try {
      const info = await stat(abs);
      if (info.isDirectory()) return fail(`${shown} is a directory; give a file path.`);
      previousBytes = info.size;
    } catch {
      // Does not exist yet (or unreadable: writeFile below reports it).
    }
    try {
      await mkdir(dirname(abs), { recursive: true });
      await writeFileAtomic(abs, args.content);
    } catch (err) {
      if (ctx.signal.aborted) return aborted();
      const code = errorCode(err);
      if (code === "ENOTDIR" || code === "EEXIST") return fail(`Cannot write ${shown}: a parent path is a file, not a directory.`);
      if ((code === "EACCES" || code === "EPERM") && /is read-only/.test(errorMessage(err))) return fail(`Cannot write ${shown}: ${errorMessage(err)}.`);
      if (code === "EACCES" || code === "EPERM") return fail(`Cannot write ${shown}: permission denied.`);
      return fail(`Cannot write ${shown}: ${errorMessage(err)}`);
    }
    const bytes = Buffer.byteLength(args.content);
    const lines = countLines(args.content);
    const size = `${lines} line${lines === 1 ? "" : "s"}, ${formatBytes(bytes)}`;
    const created = previousBytes === null;
    const output = created
      ? `Created ${shown} (${size}).`
      : `Overwrote ${shown} (${size}; previously ${formatBytes(previousBytes!)}).`;
    return ok(output, { path: abs, created, bytes, lines });
  },
};

/** Number of lines in `text` (a final newline does not start a new line). */
function countLines(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
