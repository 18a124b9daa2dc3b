/**
 * How a message sent to a running agent reads in its history: a one-line bracketed header naming
 * the sender, a blank line, then the text as sent. `steerBody` takes the header off again (the
 * demo model and anything that wants the words the person typed).
 */
import type { SteerSource } from "./events.js";

const HEADER = /^\[Message from [^\]\n]*, sent while you were working[^\]\n]*\]\n\n/;

/** The user-message content for `text` sent by `from`. */
export function steerContent(text: string, from: SteerSource): string {
  const who = from === "user" ? "the person watching you work" : "the agent that delegated this task to you";
  return `[Message from ${who}, sent while you were working — take it into account, then go on with the task]\n\n${text}`;
}

/** `content` without a steer header (unchanged when it has none). */
export function steerBody(content: string): string {
  return content.replace(HEADER, "");
}
