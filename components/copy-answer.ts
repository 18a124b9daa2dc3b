/**
 * Getting text out of the full-screen UI, whose layout the terminal's own selection cuts across:
 * `/copy` puts the last answer on the clipboard with OSC 52 (terminals that allow it; tmux with
 * `set-clipboard on`) and, since not every terminal does, into a file whose path is shown.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TranscriptItem } from "./hooks/transcript-types.js";

/** The OSC 52 sequence that sets the clipboard to `text`. */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, "utf8").toString("base64")}\u0007`;
}

/** Text of the newest finished assistant answer, or undefined. */
export function lastAnswerText(items: readonly TranscriptItem[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "assistant" && item.text.trim()) return item.text;
  }
  return undefined;
}

/** Writes `text` to a file named after `sessionId` in the temp directory; returns its path. */
export function saveAnswer(text: string, sessionId: string, dir = tmpdir()): string {
  const path = join(dir, `ink-answer-${sessionId}.md`);
  writeFileSync(path, text.endsWith("\n") ? text : `${text}\n`);
  return path;
}
