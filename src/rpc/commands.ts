/**
 * The control channel's commands (`ink --mode rpc`): one JSON object per stdin line. A command is
 * one of the ops below (src/protocol/ops.ts) with an optional `id` (string or number) that its
 * `response` line echoes; `parseOp` validates it, so a bad field is named as for any op.
 */
import { parseOp, type OpOf, type OpType, type OpVocabulary } from "../protocol/ops.js";

/** The ops the channel takes as commands, in the order the docs list them; there are no commands of its own. */
export const RPC_OP_TYPES = ["prompt", "steer", "abort", "approve", "deny", "get_state", "list_children", "resume_child", "list_branches", "merge", "merge_hand", "list_turns", "rewind"] as const satisfies readonly OpType[];

export type CommandType = (typeof RPC_OP_TYPES)[number];
/** The command names, in the order the docs list them. */
export const COMMAND_TYPES: readonly CommandType[] = RPC_OP_TYPES;

const COMMANDS: OpVocabulary = { types: RPC_OP_TYPES, noun: "command" };

export type CommandId = string | number | undefined;
export type RpcCommand = { [K in CommandType]: OpOf<K> & { id?: CommandId } }[CommandType];

/** A parsed line: the command, or the error to answer with (and the `id`/`type` when they could be read). */
export type ParsedLine = { ok: true; command: RpcCommand } | { ok: false; error: string; id?: CommandId; command?: string };

/** Parses one stdin line into a command: JSON, its `id`, then `parseOp` over the commands; never throws. */
export function parseCommandLine(line: string): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    return { ok: false, error: `not JSON (${(err as Error).message}); send one JSON object per line, e.g. {"type":"prompt","text":"hello"}` };
  }
  const obj = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const id = typeof obj.id === "string" || typeof obj.id === "number" ? obj.id : undefined;
  if (obj.id !== undefined && id === undefined) return { ok: false, error: 'field "id" must be a string or a number' };
  const parsed = parseOp(raw, COMMANDS);
  if (!parsed.ok) return { ok: false, error: parsed.error, ...(id !== undefined ? { id } : {}), ...(typeof obj.type === "string" ? { command: obj.type } : {}) };
  return { ok: true, command: { ...(parsed.op as RpcCommand), ...(id !== undefined ? { id } : {}) } };
}
