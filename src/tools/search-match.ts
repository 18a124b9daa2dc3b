/**
 * The matching work of `grep` and `find`, as pure functions over one item (a file, or a relative
 * path). They run inside the search worker (`search-worker.ts`), never on the main thread, because
 * a pattern from the model may take exponential time on some input.
 * Imports only node built-ins and sibling modules without further imports, so the worker loads
 * from the built dist and from the TypeScript sources alike.
 */
import { readFileSync, statSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { SNIFF_BYTES } from "./binary.js";
import { createGlobMatcher } from "./glob.js";

/** What the worker is asked to do with every item it receives. */
export interface SearchJob {
  mode: "grep" | "find";
  /** grep: the regular expression's source and flags. */
  regex?: { source: string; flags: string };
  /** Only items whose relative path matches this glob (see `createGlobMatcher`). */
  glob?: string;
  /** grep: files larger than this are skipped (and counted). */
  maxFileBytes: number;
  /** grep: matched lines longer than this are clipped around the match. */
  maxLineChars: number;
}

/** One file or path to look at: absolute path and path relative to the search root. */
export interface SearchItem {
  path: string;
  rel: string;
}

/** One matching line (1-based number, text clipped around the match). */
export interface LineMatch {
  line: number;
  text: string;
}

/** The outcome for one item: matched (find), matching lines (grep), or why it was skipped. */
export interface ItemResult {
  matched: boolean;
  lines?: LineMatch[];
  skipped?: "too-large" | "unreadable";
}

/** Compiles a job into a function over items. Throws for an invalid regex or glob. */
export function compileJob(job: SearchJob): (item: SearchItem) => ItemResult {
  const glob = job.glob ? createGlobMatcher(job.glob) : undefined;
  if (job.mode === "find") return (item) => ({ matched: glob ? glob(item.rel) : true });
  const regex = new RegExp(job.regex!.source, job.regex!.flags);
  return (item) => {
    if (glob && !glob(item.rel)) return { matched: false };
    return grepFile(item.path, regex, job);
  };
}

/** Matching lines of one file; binary files (a NUL byte) give none; oversized or unreadable files are marked skipped. */
export function grepFile(file: string, regex: RegExp, job: Pick<SearchJob, "maxFileBytes" | "maxLineChars">): ItemResult {
  let buf: Buffer;
  try {
    if (statSync(file).size > job.maxFileBytes) return { matched: false, skipped: "too-large" };
    buf = readFileSync(file);
  } catch {
    return { matched: false, skipped: "unreadable" };
  }
  if (buf.subarray(0, SNIFF_BYTES).includes(0)) return { matched: false };
  const lines = grepText(buf.toString("utf8"), regex, job.maxLineChars);
  if (isUtf8(buf)) return { matched: lines.length > 0, lines };
  // Text with bytes that are not UTF-8 (a latin1 "é"): searched as UTF-8 (stray bytes become U+FFFD)
  // and as latin1 (one character per byte, so "café" finds its latin1 spelling); lines found either way.
  const seen = new Set(lines.map((l) => l.line));
  const extra = grepText(buf.toString("latin1"), regex, job.maxLineChars).filter((l) => !seen.has(l.line));
  const all = [...lines, ...extra].sort((a, b) => a.line - b.line);
  return { matched: all.length > 0, lines: all };
}

/** Matching lines of `text` (CRLF tolerated), each clipped to `maxLineChars` around the match. */
export function grepText(text: string, regex: RegExp, maxLineChars: number): LineMatch[] {
  const out: LineMatch[] = [];
  let start = 0;
  let n = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    n++;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    const m = regex.exec(line);
    if (m) out.push({ line: n, text: clipAround(line, m.index, maxLineChars) });
    start = end + 1;
  }
  return out;
}

/** Clips a long line to `max` characters, keeping the match at `index` in view. */
export function clipAround(line: string, index: number, max: number): string {
  if (line.length <= max) return line;
  const start = Math.max(0, Math.min(index - Math.floor(max / 4), line.length - max));
  const head = start > 0 ? "…" : "";
  const rest = start + max < line.length ? `… [+${line.length - start - max} chars]` : "";
  return `${head}${line.slice(start, start + max)}${rest}`;
}
