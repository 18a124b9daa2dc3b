/**
 * Converting an MCP `tools/call` result into Ink's tool output: text blocks verbatim, images and
 * audio as a one-line note (mime type and size), embedded resources as their text (or a note for
 * binary ones), resource links as their URI, `structuredContent` as JSON when there is no text.
 */

/** The parts of an MCP call result Ink reads. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

function block(item: any): string {
  switch (item?.type) {
    case "text":
      return String(item.text ?? "");
    case "image":
    case "audio":
      return `[${item.type} ${item.mimeType ?? "unknown type"}, ${Math.round(((item.data?.length ?? 0) * 3) / 4)} bytes — not shown]`;
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

/** The text the model sees for a call result, and whether it is an error. */
export function convertCallResult(result: McpCallResult): { output: string; isError: boolean } {
  const parts = (result.content ?? []).map(block).filter((t) => t !== "");
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  return { output: parts.join("\n") || "(the tool returned no content)", isError: result.isError === true };
}
