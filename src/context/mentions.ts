/**
 * `@path` mentions in a prompt: the files of the working tree a person can mention (gitignore-aware,
 * for completion) and the expansion that attaches each mentioned file's content to the message the
 * model receives. A mention is `@` at the start of the text or after whitespace, followed by a path
 * without spaces; only paths inside the working directory are attached.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { looksBinary, SNIFF_BYTES } from "../tools/binary.js";
import { walkFiles } from "../tools/walk.js";
import { attachedDirectoryBlock, attachedFileBlock } from "../protocol/attachment-blocks.js";

export { splitMentionBlocks } from "../protocol/attachment-blocks.js";

/** Most bytes of one file attached (the rest is cut, and the attachment says so). */
export const MENTION_MAX_BYTES = 100_000;
/** Most paths listed for completion. */
export const MENTION_LIST_LIMIT = 20_000;

/** One file attached to a prompt. */
export interface MentionAttachment {
  /** Path relative to the working directory, `/`-separated. */
  path: string;
  /** Lines attached (a directory: entries listed). */
  lines: number;
  /** The file was larger than MENTION_MAX_BYTES and only its head is attached. */
  truncated: boolean;
  directory: boolean;
}

/** A prompt with its mentions expanded. */
export interface ExpandedMentions {
  /** The text the model receives: the prompt as typed, then one `<attached-file>` block per mention. */
  text: string;
  attached: MentionAttachment[];
  /** Mentions that could not be attached, each naming the path and why (the text is sent as typed). */
  problems: string[];
}

const MENTION = /(^|\s)@([^\s@]+)/g;

/** The paths mentioned in `text`, in order, without duplicates (trailing punctuation dropped). */
export function mentionedPaths(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const path = m[2]!.replace(/[.,;:!?)\]}"']+$/, "");
    if (path !== "") seen.add(path);
  }
  return [...seen];
}

/** `abs` lies inside `root` (both real paths). */
function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Attaches every file mentioned in `text` (relative to `cwd`). A mention that is not a file or
 * directory inside `cwd`, or is binary, is reported in `problems` and left as plain text; a
 * directory attaches its entry list; a large file attaches its first MENTION_MAX_BYTES.
 */
export function expandMentions(text: string, cwd: string): ExpandedMentions {
  const paths = mentionedPaths(text);
  if (paths.length === 0) return { text, attached: [], problems: [] };
  let root: string;
  try {
    root = realpathSync(cwd);
  } catch {
    root = resolve(cwd);
  }
  const attached: MentionAttachment[] = [];
  const problems: string[] = [];
  const blocks: string[] = [];
  for (const path of paths) {
    let real: string;
    try {
      real = realpathSync(resolve(cwd, path));
    } catch {
      if (/[/.]/.test(path)) problems.push(`@${path}: no such file in ${cwd} — sent as plain text`);
      continue;
    }
    const rel = relative(root, real).split("\\").join("/") || ".";
    if (!inside(root, real)) {
      problems.push(`@${path}: outside the working directory ${cwd} — not attached`);
      continue;
    }
    try {
      if (statSync(real).isDirectory()) {
        const entries = readdirSync(real, { withFileTypes: true })
          .filter((e) => e.name !== ".git")
          .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
          .sort();
        blocks.push(attachedDirectoryBlock(rel, entries));
        attached.push({ path: rel, lines: entries.length, truncated: false, directory: true });
        continue;
      }
      const bytes = readFileSync(real);
      if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
        problems.push(`@${path}: a binary file — not attached (use the read tool for images)`);
        continue;
      }
      const truncated = bytes.length > MENTION_MAX_BYTES;
      const body = bytes.subarray(0, MENTION_MAX_BYTES).toString("utf8");
      const lines = body === "" ? 0 : body.split("\n").length - (body.endsWith("\n") ? 1 : 0);
      blocks.push(attachedFileBlock(rel, body, truncated ? `first ${MENTION_MAX_BYTES} of ${bytes.length} bytes` : undefined));
      attached.push({ path: rel, lines, truncated, directory: false });
    } catch (err) {
      problems.push(`@${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}) — not attached`);
    }
  }
  return { text: blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text, attached, problems };
}

/**
 * The files under `cwd` a person can mention, relative and `/`-separated, in walk order, skipping
 * `.git`, `node_modules` and gitignored paths; at most `limit` of them.
 */
export async function listMentionFiles(cwd: string, opts: { limit?: number; signal?: AbortSignal } = {}): Promise<string[]> {
  const limit = opts.limit ?? MENTION_LIST_LIMIT;
  const out: string[] = [];
  for await (const abs of walkFiles(cwd, { signal: opts.signal })) {
    out.push(relative(cwd, abs).split("\\").join("/"));
    if (out.length >= limit) break;
  }
  return out;
}

