/** Output-size limits shared by the tools: clipping long lines and keeping the tail of a stream. */

/** Clips `line` to `max` characters, noting how many were cut. */
export function clipLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line truncated, ${line.length - max} more chars]`;
}

export interface TailResult {
  /** The kept text (the last lines/bytes of the stream). */
  text: string;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
  droppedLines: number;
  droppedBytes: number;
}

/**
 * Collects streamed text and keeps only its tail: at most `maxBytes` bytes and `maxLines` lines.
 * Memory stays bounded (about 2 × maxBytes) however much is pushed.
 */
export class TailBuffer {
  private buffer = "";
  private bytes = 0;
  private newlines = 0;
  private lastChar = "";

  constructor(
    private readonly maxBytes: number,
    private readonly maxLines: number,
  ) {}

  /** Appends a chunk of decoded text. */
  push(text: string): void {
    if (text === "") return;
    this.bytes += Buffer.byteLength(text);
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.newlines++;
    this.lastChar = text[text.length - 1]!;
    this.buffer += text;
    // A character is at least one byte, so the last maxBytes characters hold ≥ maxBytes bytes.
    if (this.buffer.length > this.maxBytes * 2) this.buffer = this.buffer.slice(-this.maxBytes);
  }

  /** The kept tail (without a final newline) plus counts of what was dropped. */
  finish(): TailResult {
    const totalBytes = this.bytes;
    const endsWithNewline = this.lastChar === "\n";
    const totalLines = this.newlines + (this.lastChar !== "" && !endsWithNewline ? 1 : 0);
    let text = this.buffer;
    if (Buffer.byteLength(text) > this.maxBytes) text = Buffer.from(text).subarray(-this.maxBytes).toString("utf8");
    if (endsWithNewline) text = text.slice(0, -1);
    const midStream = Buffer.byteLength(text) + (endsWithNewline ? 1 : 0) < totalBytes;
    const firstNewline = text.indexOf("\n");
    if (midStream && firstNewline >= 0) text = text.slice(firstNewline + 1); // drop the partial first line
    let lines = totalBytes === 0 ? [] : text.split("\n");
    if (lines.length > this.maxLines) lines = lines.slice(-this.maxLines);
    text = lines.join("\n");
    const keptBytes = totalBytes === 0 ? 0 : Buffer.byteLength(text) + (endsWithNewline ? 1 : 0);
    const droppedLines = Math.max(0, totalLines - lines.length);
    const droppedBytes = Math.max(0, totalBytes - keptBytes);
    return { text, truncated: droppedBytes > 0, totalLines, totalBytes, droppedLines, droppedBytes };
  }
}
