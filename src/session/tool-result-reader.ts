/**
 * Reads tool results back from a session file: the UI keeps only the head of a long tool result
 * and asks here for the whole text when the person opens it. The file is scanned line by line from
 * its end (the latest calls are near it), and reading stops once every asked-for call was found. A
 * line that is not JSON (a torn last line of a crash) or not a tool-result message is skipped.
 */
import { findLastLine } from "./file-lines.js";

/** One tool result as the session file saved it. */
export interface SavedToolResult {
  toolCallId: string;
  toolName: string;
  content: string;
  isError: boolean;
}

/** What was found: results by tool call id; `problem` says why the file could not be read. */
export interface ToolResultLookup {
  results: Map<string, SavedToolResult>;
  problem?: string;
}

/** The results of a `toolResult` message entry on `line`, or undefined for any other line. */
function resultsOn(line: string): SavedToolResult[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const entry = value as { type?: unknown; message?: { role?: unknown; results?: unknown } } | null;
  if (!entry || entry.type !== "message" || entry.message?.role !== "toolResult" || !Array.isArray(entry.message.results)) return undefined;
  return (entry.message.results as Partial<SavedToolResult>[]).filter(
    (r): r is SavedToolResult => !!r && typeof r.toolCallId === "string" && typeof r.content === "string",
  );
}

/**
 * The saved results of tool calls `ids` in the session file at `path` (the latest entry of each
 * id). Never throws: a missing or unreadable file gives an empty map and `problem`.
 */
export function readToolResults(path: string, ids: readonly string[]): ToolResultLookup {
  const results = new Map<string, SavedToolResult>();
  const wanted = new Set(ids);
  if (wanted.size === 0) return { results };
  const quoted = [...wanted].map((id) => JSON.stringify(id));
  try {
    findLastLine(path, (line) => {
      // Cheap test first: most lines are not a result of a wanted call.
      if (!line.includes('"toolResult"') || !quoted.some((q) => line.includes(q))) return undefined;
      for (const r of resultsOn(line) ?? []) {
        if (wanted.delete(r.toolCallId)) results.set(r.toolCallId, { toolCallId: r.toolCallId, toolName: String(r.toolName ?? ""), content: r.content, isError: r.isError === true });
      }
      return wanted.size === 0 ? true : undefined;
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const problem = e.code === "ENOENT" ? `the session file ${path} does not exist (any more)` : `the session file ${path} cannot be read (${e.code ?? e.message})`;
    return { results, problem };
  }
  return { results };
}
