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

const ATTACHED = /\n\n<attached-(file|directory) path="([^"]*)"([^>]*)>\n([\s\S]*?)<\/attached-\1>(?=\n\n<attached-|$)/g;

/** One attached file or directory as its block holds it: lines attached (a directory: entries), and whether only its head is there. */
export interface AttachedBlock {
  path: string;
  lines: number;
  truncated: boolean;
  directory: boolean;
}

/** The count of lines (entries) a block's body holds; the block always ends its body with a line break. */
function bodyLines(body: string, directory: boolean): number {
  if (body === "" || (directory && body === "\n")) return 0;
  return body.split("\n").length - 1;
}

/** Splits the attachment blocks `expandMentions` added off a user message: the typed text, the attached paths and what each block holds. */
export function splitMentionBlocks(text: string): { text: string; paths: string[]; files: AttachedBlock[] } {
  const first = text.search(/\n\n<attached-(file|directory) path="/);
  if (first < 0) return { text, paths: [], files: [] };
  const tail = text.slice(first);
  const files = [...tail.matchAll(ATTACHED)].map((m): AttachedBlock => {
    const directory = m[1] === "directory";
    return { path: m[2]!, lines: bodyLines(m[4]!, directory), truncated: / truncated="/.test(m[3]!), directory };
  });
  if (files.length === 0 || tail.replace(ATTACHED, "") !== "") return { text, paths: [], files: [] };
  return { text: text.slice(0, first), paths: files.map((f) => f.path), files };
}
