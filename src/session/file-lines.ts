/**
 * Line-level file helpers for JSONL session files that avoid reading whole files: the first line
 * (headers for listings), the first line of a given kind after it within a bounded head (a title),
 * the last line of a given kind scanning backwards (last status), and
 * making a file safe to append to after a torn write.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** The first line of the file at `path` (without the newline; the whole file when it has none). */
export function readFirstLine(path: string): string {
  const fd = openSync(path, "r");
  try {
    const parts: Buffer[] = [];
    let position = 0;
    for (;;) {
      const buf = Buffer.alloc(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, position);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(NEWLINE);
      if (nl >= 0) {
        parts.push(buf.subarray(0, nl));
        break;
      }
      parts.push(buf.subarray(0, n));
      position += n;
    }
    return Buffer.concat(parts).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Scans the lines of `path` after the first from the start and returns the first value `pick`
 * gives (it gets each non-empty line's text and returns a value or `undefined`). Reads at most
 * `maxBytes` from the start: a line not complete within them is never offered.
 */
export function findFirstLine<T>(path: string, pick: (line: string) => T | undefined, maxBytes: number): T | undefined {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(Math.min(maxBytes, fstatSync(fd).size));
    let n = 0;
    for (let got = -1; got !== 0 && n < head.length; n += got) got = readSync(fd, head, n, head.length - n, n);
    let start = head.subarray(0, n).indexOf(NEWLINE) + 1;
    if (start === 0) return undefined;
    for (let nl = head.subarray(0, n).indexOf(NEWLINE, start); nl >= 0; start = nl + 1, nl = head.subarray(0, n).indexOf(NEWLINE, start)) {
      const found = offer(head.subarray(start, nl), pick);
      if (found !== undefined) return found;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Scans the lines of `path` from the end and returns the first value `pick` accepts (it gets each
 * non-empty line's text and returns a value or `undefined`). The first line is never offered.
 * Stops after reading about `maxBytes` from the end (default: the whole file).
 */
export function findLastLine<T>(path: string, pick: (line: string) => T | undefined, maxBytes = Infinity): T | undefined {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let end = size;
    let carry = Buffer.alloc(0);
    while (end > 0 && size - end < maxBytes) {
      const start = Math.max(0, end - CHUNK);
      const buf = Buffer.alloc(end - start);
      readSync(fd, buf, 0, buf.length, start);
      const data = Buffer.concat([buf, carry]);
      let lineEnd = data.length;
      for (let i = data.length - 1; i >= 0; i--) {
        if (data[i] !== NEWLINE) continue;
        const found = offer(data.subarray(i + 1, lineEnd), pick);
        if (found !== undefined) return found;
        lineEnd = i;
      }
      // data[0, lineEnd) is the start of a line that began in an earlier chunk (or the first line).
      carry = Buffer.from(data.subarray(0, lineEnd));
      end = start;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function offer<T>(line: Buffer, pick: (line: string) => T | undefined): T | undefined {
  if (line.length === 0) return undefined;
  return pick(line.toString("utf8"));
}

/**
 * Makes the file at `path` end at a line boundary before new lines are appended. A trailing
 * fragment without a newline (a torn write) is cut off when it is not valid JSON, or completed
 * with a newline when it is. Returns the removed fragment's length in bytes (0 when none).
 */
export function endAtLineBoundary(path: string): number {
  const fd = openSync(path, "r+");
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] === NEWLINE) return 0;
    const start = lastLineStart(fd, size);
    const fragment = Buffer.alloc(size - start);
    readSync(fd, fragment, 0, fragment.length, start);
    if (isJson(fragment.toString("utf8"))) {
      writeSync(fd, "\n", size);
      return 0;
    }
    ftruncateSync(fd, start);
    return fragment.length;
  } finally {
    closeSync(fd);
  }
}

/** Byte offset where the last line of an open file of `size` bytes begins. */
function lastLineStart(fd: number, size: number): number {
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const buf = Buffer.alloc(end - start);
    readSync(fd, buf, 0, buf.length, start);
    const nl = buf.lastIndexOf(NEWLINE);
    if (nl >= 0) return start + nl + 1;
    end = start;
  }
  return 0;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
