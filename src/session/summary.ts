/**
 * One session file's listing facts (header, size, mtime, last status, title), read without loading
 * the whole file: the header from the first line, the status scanning back from the end, a title
 * from the lines before the conversation's first message.
 */
import { statSync } from "node:fs";
import { parseEntryLine, parseHeaderLine } from "./entries.js";
import { findFirstLine, findLastLine, readFirstLine } from "./file-lines.js";
import type { SessionEntry, SessionHeader, SessionSummary } from "./types.js";

/** Characters of the first prompt kept in a summary (listings show the start of its first line). */
export const SUMMARY_PROMPT_CHARS = 200;

/** How far back from the end the last status entry is looked for. */
const STATUS_SCAN_BYTES = 4 * 1024 * 1024;
/** How much of a file's head a `title` entry is looked for in (only what came before the person's first question precedes it). */
const TITLE_SCAN_BYTES = 256 * 1024;

/** The header of the session file at `path`; throws naming the path when it is unreadable, empty or invalid. */
export function readHeaderAt(path: string): SessionHeader {
  let line: string;
  try {
    line = readFirstLine(path);
  } catch (err) {
    throw new Error(`cannot read session file ${path}: ${(err as Error).message}`);
  }
  if (line.trim() === "") {
    throw new Error(`invalid session file ${path}: it is empty (the first line must be the session header)`);
  }
  return parseHeaderLine(line, path);
}

/** The last `status` entry of a session file, scanning back from the end (at most ~4 MB). */
export function lastStatus(path: string): Extract<SessionEntry, { type: "status" }> | undefined {
  return findLastLine(path, (line) => {
    if (!line.includes('"status"')) return undefined;
    const parsed = parseEntryLine(line);
    return "entry" in parsed && parsed.entry.type === "status" ? parsed.entry : undefined;
  }, STATUS_SCAN_BYTES);
}

/** `header` as listed: without the resume-only fields, the prompt cut to SUMMARY_PROMPT_CHARS. */
function listedHeader(header: SessionHeader): Omit<SessionHeader, "fingerprint" | "toolNames"> {
  const { fingerprint: _f, toolNames: _t, ...rest } = header;
  if (rest.prompt !== undefined && rest.prompt.length > SUMMARY_PROMPT_CHARS) rest.prompt = rest.prompt.slice(0, SUMMARY_PROMPT_CHARS);
  return rest;
}

/**
 * The prompt of a session file's `title` entry (a session its person's run created before their
 * first question: one such entry). It is written when that question comes, before the question's
 * messages, so only the head before the first `message` entry is read (at most TITLE_SCAN_BYTES:
 * the runs before the question, never the conversation).
 */
export function titleOf(path: string): string | undefined {
  const found = findFirstLine(path, (line) => {
    if (!line.includes('"title"') && !line.includes('"message"')) return undefined;
    const parsed = parseEntryLine(line);
    if (!("entry" in parsed)) return undefined;
    if (parsed.entry.type === "title") return { prompt: parsed.entry.prompt };
    return parsed.entry.type === "message" ? { prompt: undefined } : undefined;
  }, TITLE_SCAN_BYTES);
  return found?.prompt;
}

/**
 * The summary of the session file at `path`, or undefined when its header cannot be read (the
 * file is left out of listings). With `header`, the first line is not read again (only the file's
 * size, mtime and status can have changed).
 */
export function readSummary(path: string, header?: Omit<SessionHeader, "fingerprint" | "toolNames">): SessionSummary | undefined {
  try {
    const listed = header ?? listedHeader(readHeaderAt(path));
    const stat = statSync(path);
    const status = lastStatus(path);
    // A file created by a run of the person's (a child resumed from the sidebar) before their first question: named by that question.
    const title = listed.prompt === undefined && listed.kind === "main" ? titleOf(path) : undefined;
    return {
      ...listed,
      ...(title !== undefined ? { prompt: title.slice(0, SUMMARY_PROMPT_CHARS) } : {}),
      path,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ...(status ? { status: status.status } : {}),
      ...(status?.reason !== undefined ? { statusReason: status.reason } : {}),
    };
  } catch {
    return undefined;
  }
}
