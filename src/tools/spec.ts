/** Converts tools (zod schemas) into what the model sees. */
import { z } from "zod";
import type { ToolSpec } from "../protocol/provider.js";
import type { AnyTool } from "../protocol/tool.js";

/** Tools are immutable values, so each one's spec is computed once (JSON-schema conversion is not free). */
const cache = new WeakMap<AnyTool, ToolSpec>();

/** The model-facing declaration of a tool: name, description, JSON schema of its arguments. Memoised per tool. */
export function toToolSpec(tool: AnyTool): ToolSpec {
  const known = cache.get(tool);
  if (known) return known;
  if (tool.inputSchema) {
    const spec: ToolSpec = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
    cache.set(tool, spec);
    return spec;
  }
  const schema = z.toJSONSchema(tool.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  const spec: ToolSpec = { name: tool.name, description: tool.description, inputSchema: schema };
  cache.set(tool, spec);
  return spec;
}
