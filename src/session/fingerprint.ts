/**
 * The fingerprint of what an agent was created with (system prompt + tool declarations). Resume
 * compares it to refuse continuing a session under a different prompt or tool set.
 */
import { createHash } from "node:crypto";
import type { ToolSpec } from "../protocol/provider.js";

/**
 * sha256 hex of a canonical JSON of `{system, tools}`: tools sorted by name, object keys sorted
 * at every depth, `undefined` members omitted. Key order and tool order never change the result;
 * any change to the text, a description or a schema does.
 */
export function fingerprint(system: string, tools: readonly ToolSpec[]): string {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return createHash("sha256").update(canonicalJson({ system, tools: sorted })).digest("hex");
}

/** JSON with object keys sorted recursively (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = (v as Record<string, unknown>)[k];
    return out;
  });
}

/** sha256 hex of a text (a child's system prompt, recorded so a resume can say it changed). */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Each tool declaration's hash by name (recorded so a resume names the tools whose definition changed). */
export function toolHashes(tools: readonly ToolSpec[]): Record<string, string> {
  return Object.fromEntries(tools.map((t) => [t.name, createHash("sha256").update(canonicalJson(t)).digest("hex")]));
}
