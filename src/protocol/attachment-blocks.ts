/**
 * Attachment blocks: the files an `@path` mention attached, appended after the typed text of a
 * user message (`<attached-file path="…">…</attached-file>`, a directory's entries in
 * `<attached-directory>`). Readers split them off again to show what the person typed.
 */

/** The block for a file's text; `truncated` says how much of it is there when it was cut. */
export function attachedFileBlock(path: string, body: string, truncated?: string): string {
  const note = truncated ? ` truncated="${truncated}"` : "";
  return `<attached-file path="${path}"${note}>\n${body}${body.endsWith("\n") || body === "" ? "" : "\n"}</attached-file>`;
}

/** The block for a directory's entry list. */
export function attachedDirectoryBlock(path: string, entries: readonly string[]): string {
  return `<attached-directory path="${path}">\n${entries.join("\n")}\n</attached-directory>`;
}

const ATTACHED = /\n\n<attached-(file|directory) path="([^"]*)"[^>]*>\n[\s\S]*?<\/attached-\1>(?=\n\n<attached-|$)/g;

/** Splits the attachment blocks `expandMentions` added off a user message: the typed text and the attached paths. */
export function splitMentionBlocks(text: string): { text: string; paths: string[] } {
  const first = text.search(/\n\n<attached-(file|directory) path="/);
  if (first < 0) return { text, paths: [] };
  const tail = text.slice(first);
  const paths = [...tail.matchAll(ATTACHED)].map((m) => m[2]!);
  if (paths.length === 0 || tail.replace(ATTACHED, "") !== "") return { text, paths: [] };
  return { text: text.slice(0, first), paths };
}
