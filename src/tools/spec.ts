/** Converts tools (zod schemas) into what the model sees. */
import { z } from "zod";
import type { ToolSpec } from "../providers/types.js";
import type { AnyTool } from "./types.js";

/** The model-facing declaration of a tool: name, description, JSON schema of its arguments. */
export function toToolSpec(tool: AnyTool): ToolSpec {
  const schema = z.toJSONSchema(tool.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, inputSchema: schema };
}
