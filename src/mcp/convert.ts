/**
 * Converting an MCP `tools/call` result into Ink's tool output: text blocks verbatim, images as
 * images for the model (named in the text as `[image: image/png, 12 KB]`; too large, too many or
 * of a type the model cannot read → a note instead), audio as a one-line note, embedded resources
 * as their text (or a note for binary ones), resource links as their URI, `structuredContent` as
 * JSON when there is no text.
 */
import type { ToolImage } from "../protocol/messages.js";
import { formatBytes } from "../protocol/format-bytes.js";

/** The parts of an MCP call result Ink reads. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

/** Image types the model reads (the Messages API's list). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** Largest image sent, in base64 characters (the Messages API refuses images over 5 MB). */
export const MAX_IMAGE_CHARS = 5 * 1024 * 1024;
/** Most base64 characters of images sent for one tool result (the rest are named, not sent). */
export const MAX_RESULT_IMAGE_CHARS = 10 * 1024 * 1024;
/** Most images sent for one tool result. */
export const MAX_RESULT_IMAGES = 8;

/** Decoded size of base64 text (padding and whitespace not counted). */
function decodedBytes(data: string): number {
  const clean = data.replace(/\s+/g, "");
  return Math.floor((clean.length * 3) / 4) - (clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Either the image to send (with its note) or only a note saying why it is not sent. */
function image(item: any, taken: { count: number; chars: number }): { note: string; image?: ToolImage } {
  const mimeType = String(item.mimeType ?? "unknown type").toLowerCase();
  const data = typeof item.data === "string" ? item.data.replace(/\s+/g, "") : "";
  const head = `[image: ${mimeType}, ${formatBytes(decodedBytes(data))}`;
  if (data === "" || data.length % 4 !== 0 || !BASE64.test(data)) return { note: `${head} — not sent to the model: its data is not valid base64]` };
  if (!IMAGE_TYPES.includes(mimeType)) return { note: `${head} — not sent to the model: it reads ${IMAGE_TYPES.join(", ")} only]` };
  if (data.length > MAX_IMAGE_CHARS) return { note: `${head} — not sent to the model: ${formatBytes(data.length)} as base64, over the ${formatBytes(MAX_IMAGE_CHARS)} an image may be]` };
  if (taken.count >= MAX_RESULT_IMAGES || taken.chars + data.length > MAX_RESULT_IMAGE_CHARS) {
    return { note: `${head} — not sent to the model: one result sends at most ${MAX_RESULT_IMAGES} images, ${formatBytes(MAX_RESULT_IMAGE_CHARS)} in all]` };
  }
  taken.count++;
  taken.chars += data.length;
  return { note: `${head}]`, image: { mimeType, data } };
}

function block(item: any): string {
  switch (item?.type) {
    case "text":
      return String(item.text ?? "");
    case "audio":
      return `[audio ${item.mimeType ?? "unknown type"}, ${formatBytes(decodedBytes(String(item.data ?? "")))} — not shown]`;
    case "resource": {
      const r = item.resource ?? {};
      if (typeof r.text === "string") return `[resource ${r.uri ?? ""}]\n${r.text}`;
      return `[resource ${r.uri ?? ""} ${r.mimeType ?? ""}, binary — not shown]`.replace(/ +,/, ",");
    }
    case "resource_link":
      return `[resource link ${item.uri ?? ""}${item.name ? ` (${item.name})` : ""}]`;
    default:
      return JSON.stringify(item);
  }
}

/** The text the model sees for a call result, the images sent with it, and whether it is an error. */
export function convertCallResult(result: McpCallResult): { output: string; isError: boolean; images?: ToolImage[] } {
  const images: ToolImage[] = [];
  const taken = { count: 0, chars: 0 };
  const parts = (result.content ?? [])
    .map((item: any) => {
      if (item?.type !== "image") return block(item);
      const one = image(item, taken);
      if (one.image) images.push(one.image);
      return one.note;
    })
    .filter((t) => t !== "");
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  return { output: parts.join("\n") || "(the tool returned no content)", isError: result.isError === true, ...(images.length > 0 ? { images } : {}) };
}
