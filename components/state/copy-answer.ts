/**
 * Getting text out of the full-screen UI, whose layout the terminal's own selection cuts across:
 * `/copy` puts the conversation's last answer on the clipboard with OSC 52 (terminals that allow it; tmux with
 * `set-clipboard on`) and, since not every terminal does, into a file whose path is shown; Ctrl-Y
 * in the Ctrl-F search does the same for the item of the current hit.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "../../src/protocol/messages.js";
import type { TranscriptItem } from "./transcript-types.js";
import { wholeResultText } from "./tool-output.js";
import { childReport } from "./child-reducer.js";

/** The OSC 52 sequence that sets the clipboard to `text`. */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, "utf8").toString("base64")}\u0007`;
}

/**
 * Text of the conversation's last assistant answer (the model's history, not the screen: after a
 * `/rewind … conversation` the answers below the cut are still on screen but no longer part of it).
 */
export function lastHistoryAnswer(history: readonly AgentMessage[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== "assistant") continue;
    const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    if (text.trim()) return text;
  }
  return undefined;
}

/** Writes `text` to a file named after `sessionId` in the temp directory; returns its path. */
export function saveAnswer(text: string, sessionId: string, dir = tmpdir()): string {
  const path = join(dir, `ink-answer-${sessionId}.md`);
  writeFileSync(path, text.endsWith("\n") ? text : `${text}\n`);
  return path;
}

/** The text worth copying from one item: the message, a child's report, a tool's whole result (read back from the session file when the UI kept its head only; else its arguments), the thought. */
export function itemCopyText(item: TranscriptItem): string {
  switch (item.kind) {
    case "header":
      return [item.cwd, ...item.notices].join("\n");
    case "user":
    case "assistant":
    case "info":
      return item.text;
    case "thinking":
      return item.text ?? "";
    case "tool":
      return (item.child && childReport(item.child, item.result)) ?? wholeResultText(item) ?? JSON.stringify(item.args, null, 2);
  }
}

/**
 * Copies `text` (`what` names it, e.g. "the last answer"): the OSC 52 sequence through `write`, a
 * file beside it; returns the notice for the person (where it went, or why the file failed).
 */
export function copyOut(text: string, what: string, sessionId: string, write: (data: string) => void): string {
  write(osc52(text));
  let where = "";
  try {
    where = ` and to ${saveAnswer(text, sessionId)}`;
  } catch (err) {
    where = ` (the file copy failed: ${err instanceof Error ? err.message : String(err)})`;
  }
  const n = text.split("\n").length;
  return `Copied ${what} (${n} line${n === 1 ? "" : "s"}) to the clipboard, where the terminal allows OSC 52,${where}.`;
}
