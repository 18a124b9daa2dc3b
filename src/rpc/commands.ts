/**
 * The control channel's commands (`ink --mode rpc`): one JSON object per stdin line, validated
 * with zod. Every command may carry an `id` (string or number) that its `response` line echoes.
 * A line that is not a valid command is answered with an error naming the field and the fix.
 */
import { z } from "zod";
import { closestWord } from "../protocol/edit-distance.js";

const id = z.union([z.string(), z.number()]).optional();
const text = z.string().refine((t) => t.trim() !== "", "must not be empty");
const childId = z.string().min(1);

/** Each command's schema, by its `type`. */
export const COMMAND_SCHEMAS = {
  prompt: z.object({ type: z.literal("prompt"), id, text }),
  steer: z.object({ type: z.literal("steer"), id, text, child: childId.optional() }),
  abort: z.object({ type: z.literal("abort"), id, child: childId.optional() }),
  approve: z.object({ type: z.literal("approve"), id, requestId: z.string().min(1) }),
  deny: z.object({ type: z.literal("deny"), id, requestId: z.string().min(1), reason: z.string().optional() }),
  get_state: z.object({ type: z.literal("get_state"), id }),
  list_children: z.object({ type: z.literal("list_children"), id }),
  resume_child: z.object({ type: z.literal("resume_child"), id, child: childId, text }),
  list_branches: z.object({ type: z.literal("list_branches"), id }),
  merge: z.object({
    type: z.literal("merge"),
    id,
    branches: z.union([z.literal("all"), z.array(z.union([z.string().min(1), z.number().int().min(1)])).min(1)]),
    squash: z.boolean().optional(),
    allowDirty: z.boolean().optional(),
  }),
  list_turns: z.object({ type: z.literal("list_turns"), id }),
  rewind: z.object({
    type: z.literal("rewind"),
    id,
    turn: z.number().int().min(1),
    files: z.boolean().optional(),
    conversation: z.boolean().optional(),
    force: z.boolean().optional(),
    stopChildren: z.boolean().optional(),
  }),
} as const;

export type CommandType = keyof typeof COMMAND_SCHEMAS;
/** The command names, in the order the docs list them. */
export const COMMAND_TYPES = Object.keys(COMMAND_SCHEMAS) as CommandType[];

export type RpcCommand = { [K in CommandType]: z.infer<(typeof COMMAND_SCHEMAS)[K]> }[CommandType];
export type CommandId = string | number | undefined;

/** A parsed line: the command, or the error to answer with (and the `id`/`type` when they could be read). */
export type ParsedLine = { ok: true; command: RpcCommand } | { ok: false; error: string; id?: CommandId; command?: string };

/** Parses one stdin line into a command; never throws. */
export function parseCommandLine(line: string): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    return { ok: false, error: `not JSON (${(err as Error).message}); send one JSON object per line, e.g. {"type":"prompt","text":"hello"}` };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, error: 'a command must be a JSON object with a "type" field, e.g. {"type":"get_state"}' };
  const obj = raw as Record<string, unknown>;
  const rawId = typeof obj.id === "string" || typeof obj.id === "number" ? obj.id : undefined;
  if (obj.id !== undefined && rawId === undefined) return { ok: false, error: 'field "id" must be a string or a number' };
  if (typeof obj.type !== "string") return { ok: false, id: rawId, error: `field "type" is missing or not a string; known commands: ${COMMAND_TYPES.join(", ")}` };
  const schema = (COMMAND_SCHEMAS as Record<string, z.ZodType>)[obj.type];
  if (!schema) {
    const meant = closestWord(obj.type, COMMAND_TYPES);
    return { ok: false, id: rawId, command: obj.type, error: `unknown command "${obj.type}"${meant ? ` (did you mean "${meant}"?)` : ""}; known commands: ${COMMAND_TYPES.join(", ")}` };
  }
  const parsed = schema.safeParse(obj);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".") || "(command)";
    const detail = issue.code === "invalid_type" && obj[field] === undefined ? "is required" : issue.message;
    return { ok: false, id: rawId, command: obj.type, error: `${obj.type}: field "${field}" ${detail}` };
  }
  return { ok: true, command: parsed.data as RpcCommand };
}
