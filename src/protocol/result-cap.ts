/**
 * The size cap every tool result passes before it reaches the model (built-ins, MCP tools, task):
 * a result over the cap keeps its head and its tail, joined by a marker saying how many lines and
 * bytes were cut and how to ask for less. Cuts never split a surrogate pair.
 */
import { formatBytes } from "./format-bytes.js";

/** Characters (UTF-16 code units) a tool result may hold (~120 KB of ASCII, ~30k tokens). */
export const MAX_TOOL_RESULT_CHARS = 120_000;
/** Share of the kept characters taken from the start; the rest comes from the end. */
const HEAD_SHARE = 0.6;

/** `index` moved so that cutting `text` there does not split a surrogate pair (moves back for an end, forward for a start). */
function onCodePoint(text: string, index: number, forward: boolean): number {
  const code = text.charCodeAt(index - 1);
  if (index > 0 && index < text.length && code >= 0xd800 && code <= 0xdbff) return forward ? index + 1 : index - 1;
  return index;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * `text` unchanged when it fits `maxChars`; otherwise its first and last parts around a marker
 * `[… N more lines (B bytes) cut here — the <tool> result was S, over the limit …]`. Head and tail
 * are cut at line boundaries when one is near, so the kept lines are whole.
 */
export function capToolResult(text: string, toolName: string, maxChars = MAX_TOOL_RESULT_CHARS): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars - 400); // room for the marker
  let headEnd = onCodePoint(text, Math.floor(budget * HEAD_SHARE), false);
  const lineEnd = text.lastIndexOf("\n", headEnd);
  if (lineEnd > headEnd * 0.8) headEnd = lineEnd + 1;
  let tailStart = onCodePoint(text, text.length - (budget - headEnd), true);
  const lineStart = text.indexOf("\n", tailStart);
  if (lineStart >= 0 && lineStart < tailStart + (text.length - tailStart) * 0.2) tailStart = lineStart + 1;
  const cut = text.slice(headEnd, tailStart);
  const lines = countLines(cut);
  const what = lines > 0 ? `${lines} more lines (${formatBytes(Buffer.byteLength(cut))})` : `${formatBytes(Buffer.byteLength(cut))}`;
  const marker =
    `[… ${what} cut here — the ${toolName} result was ${formatBytes(Buffer.byteLength(text))}, over the ${formatBytes(maxChars)} limit for one tool result. ` +
    "Ask for a smaller part: offset/limit for read, a narrower path or pattern, or a command that prints less.]";
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  return `${head}${head.endsWith("\n") ? "" : "\n"}${marker}\n${tail}`;
}
