/**
 * Reading a text file's lines with bounded memory, however long a line is: the file is streamed
 * in chunks, only the lines of the requested window are kept, and each kept line holds at most
 * `maxLineChars` characters (the rest is counted, never stored). A 600 MB file with a single
 * line costs a few KB, not a 600 MB string (which V8 cannot even build).
 */
import { createReadStream } from "node:fs";

/** One kept line: its first characters and how many were left out. */
export interface ClippedLine {
  /** 1-based line number. */
  number: number;
  text: string;
  /** Characters (UTF-16 code units) of the line not kept in `text`. */
  clippedChars: number;
}

export interface ClippedLinesOptions {
  /** First line to keep (1-based). */
  start: number;
  /** Keep at most this many lines. */
  limit: number;
  /** Keep at most this many characters of a line. */
  maxLineChars: number;
  /** Stop keeping lines once the kept text (line texts + numbering overhead) reaches this many characters. */
  maxChars: number;
  /** Characters of numbering counted per kept line (for `maxChars`). */
  lineOverhead: number;
  signal?: AbortSignal;
}

export interface ClippedLinesResult {
  lines: ClippedLine[];
  /** Lines in the whole file (a last line without "\n" counts). */
  totalLines: number;
  /** True when `maxChars` stopped the window before `limit` lines. */
  capped: boolean;
}

/** `end` moved back so that `text.slice(0, end)` does not split a surrogate pair. */
export function codePointCut(text: string, end: number): number {
  if (end <= 0 || end >= text.length) return Math.max(0, Math.min(end, text.length));
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/**
 * Streams `path` (UTF-8) and returns the window of lines `[start, start + limit)`, each clipped,
 * plus the file's total line count. "\r\n" and "\n" end lines. Rejects on read errors and aborts.
 */
export async function readClippedLines(path: string, o: ClippedLinesOptions): Promise<ClippedLinesResult> {
  const lines: ClippedLine[] = [];
  let lineNo = 1; // the line being read now
  let current: ClippedLine | undefined; // the kept part of the line being read, when it is in the window
  let keptChars = 0;
  let capped = false;
  let sawAny = false;
  let lastWasNewline = false;
  let pendingCr = false; // the last chunk ended in "\r" (maybe half of "\r\n")

  const inWindow = () => !capped && lineNo >= o.start && lines.length < o.limit;
  const append = (piece: string) => {
    if (piece === "") return;
    if (!current) {
      if (!inWindow()) return;
      current = { number: lineNo, text: "", clippedChars: 0 };
    }
    const room = o.maxLineChars - current.text.length;
    if (room <= 0) {
      current.clippedChars += piece.length;
      return;
    }
    if (piece.length <= room) {
      current.text += piece;
      return;
    }
    const cut = codePointCut(piece, room);
    current.text += piece.slice(0, cut);
    current.clippedChars += piece.length - cut;
  };
  const endLine = () => {
    if (!current && inWindow()) current = { number: lineNo, text: "", clippedChars: 0 };
    if (current) {
      const size = current.text.length + o.lineOverhead;
      if (keptChars + size > o.maxChars && lines.length > 0) capped = true;
      else {
        lines.push(current);
        keptChars += size;
      }
    }
    current = undefined;
    lineNo++;
  };

  const input = createReadStream(path, { encoding: "utf8", signal: o.signal, highWaterMark: 256 * 1024 });
  for await (const chunk of input as AsyncIterable<string>) {
    if (chunk.length === 0) continue;
    sawAny = true;
    let from = 0;
    if (pendingCr) {
      pendingCr = false;
      if (chunk[0] !== "\n") append("\r"); // it was a lone "\r": part of the line
    }
    for (let nl = chunk.indexOf("\n"); nl >= 0; nl = chunk.indexOf("\n", from)) {
      const end = nl > from && chunk[nl - 1] === "\r" ? nl - 1 : nl;
      append(chunk.slice(from, end));
      endLine();
      from = nl + 1;
    }
    let rest = chunk.slice(from);
    if (rest.endsWith("\r")) {
      pendingCr = true;
      rest = rest.slice(0, -1);
    }
    append(rest);
    lastWasNewline = from === chunk.length;
  }
  if (pendingCr) append("\r");
  if (sawAny && (!lastWasNewline || pendingCr)) endLine();
  return { lines, totalLines: lineNo - 1, capped };
}
