/**
 * The control channel's commands (`ink --mode rpc`): one JSON object per stdin line, validated
 * with zod. Every command may carry an `id` (string or number) that its `response` line echoes.
 * A line that is not a valid command is answered with an error naming the field and the fix.
 */
import { z } from "zod";
import { closestWord } from "../protocol/edit-distance.js";
import { describeIssue, OP_SCHEMAS, type OpType } from "../protocol/ops.js";

const id = z.union([z.string(), z.number()]).optional();

/** The commands: each is the op of the same name (src/protocol/ops.ts) with an optional `id`, in the order the docs list them. */
export const RPC_OP_TYPES = ["prompt", "steer", "abort", "approve", "deny", "get_state", "list_children", "resume_child", "list_branches", "merge", "merge_hand", "list_turns", "rewind"] as const satisfies readonly OpType[];

type RpcOpType = (typeof RPC_OP_TYPES)[number];
/** Op schema `schema` as a command: the same fields and an `id`. */
const withId = <S extends (typeof OP_SCHEMAS)[RpcOpType]>(schema: S) => schema.extend({ id });
type CommandSchemas = { [K in RpcOpType]: ReturnType<typeof withId<(typeof OP_SCHEMAS)[K]>> };

/** Each command's schema, by its `type`: its op's schema and `id`. */
export const COMMAND_SCHEMAS = Object.fromEntries(RPC_OP_TYPES.map((t) => [t, withId(OP_SCHEMAS[t])])) as unknown as CommandSchemas;

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
    return { ok: false, id: rawId, command: obj.type, error: describeIssue(obj.type, obj, parsed.error) };
  }
  return { ok: true, command: parsed.data as RpcCommand };
}
