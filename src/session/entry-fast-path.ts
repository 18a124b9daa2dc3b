/**
 * The fast path of reading a session line: a `message` entry (nearly every line of a long
 * session) checked by hand against the same rules as the entry schema in entries.ts, and returned
 * as zod would return it — the same values, `at` defaulted to "", each object's keys in zod's order
 * (the schema's keys first, then the others). Anything it is not sure of (another entry type, a
 * wrong or missing field, a non-finite number, a `__proto__` key, which zod drops) is left to zod,
 * which then gives the same result or names the problem. Resuming 10,000 messages spent most of its
 * load in zod's generic parsing and the garbage it left.
 */
import type { SessionEntry } from "./types.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * `input` as a loose zod object of `shape` would output it: `shape` keys present (their values from
 * `values`, default the input's) first, then the input's other keys. Returns `input` itself when its
 * keys are already in that order; undefined when it has a `__proto__` key.
 */
function loose(input: Obj, shape: readonly string[], values?: Obj): Obj | undefined {
  if (Object.hasOwn(input, "__proto__")) return undefined;
  const keys = Object.keys(input);
  let inOrder = true;
  let k = 0;
  for (const key of shape) {
    if (!(key in input) && !(values && key in values)) continue;
    if (keys[k] !== key) inOrder = false;
    k++;
  }
  if (inOrder) {
    if (values) Object.assign(input, values);
    return input;
  }
  const out: Obj = {};
  for (const key of shape) {
    if (values && key in values) out[key] = values[key];
    else if (key in input) out[key] = input[key];
  }
  for (const key of keys) if (!shape.includes(key)) out[key] = input[key];
  return out;
}

/** The array of `check`ed items (a copy only where one was rebuilt), or undefined when one fails. */
function each(v: unknown, check: (item: unknown) => Obj | undefined): unknown[] | undefined {
  if (!Array.isArray(v)) return undefined;
  let out: unknown[] | undefined;
  for (let i = 0; i < v.length; i++) {
    const item = check(v[i]);
    if (item === undefined) return undefined;
    if (item !== v[i]) (out ??= [...v])[i] = item;
  }
  return out ?? v;
}

const textBlock = (v: unknown) => (isObj(v) && v.type === "text" && isStr(v.text) ? loose(v, ["type", "text"]) : undefined);

function assistantBlock(v: unknown): Obj | undefined {
  if (!isObj(v)) return undefined;
  if (v.type === "text") return textBlock(v);
  if (v.type === "thinking") return isStr(v.thinking) ? loose(v, ["type", "thinking"]) : undefined;
  if (v.type !== "toolCall" || !isStr(v.id) || !isStr(v.name) || !isObj(v.arguments) || Object.hasOwn(v.arguments, "__proto__")) return undefined;
  return loose(v, ["type", "id", "name", "arguments"]);
}

const usage = (v: unknown) => (isObj(v) && isNum(v.input) && isNum(v.output) && isNum(v.cacheRead) && isNum(v.cacheWrite) ? loose(v, ["input", "output", "cacheRead", "cacheWrite"]) : undefined);

const toolResult = (v: unknown) => (isObj(v) && isStr(v.toolCallId) && isStr(v.toolName) && isStr(v.content) && typeof v.isError === "boolean" ? loose(v, ["toolCallId", "toolName", "content", "isError"]) : undefined);

function message(v: unknown): Obj | undefined {
  if (!isObj(v)) return undefined;
  switch (v.role) {
    case "user": {
      if (isStr(v.content)) return loose(v, ["role", "content"]);
      const content = each(v.content, textBlock);
      return content ? loose(v, ["role", "content"], { content }) : undefined;
    }
    case "assistant": {
      const content = each(v.content, assistantBlock);
      const u = usage(v.usage);
      return content && isStr(v.stopReason) && u ? loose(v, ["role", "content", "stopReason", "usage"], { content, usage: u }) : undefined;
    }
    case "toolResult": {
      const results = each(v.results, toolResult);
      return results ? loose(v, ["role", "results"], { results }) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The `message` entry `value` (a line's JSON; objects whose keys are already in order are reused and
 * may be updated in place) as the entry schema outputs it, or undefined: not a message entry this
 * path is sure of (parse it with zod: a reordered copy parses to the same result as the original).
 */
export function fastMessageEntry(value: unknown): SessionEntry | undefined {
  if (!isObj(value) || value.type !== "message" || (value.at !== undefined && !isStr(value.at))) return undefined;
  const m = message(value.message);
  if (!m) return undefined;
  return loose(value, ["type", "message", "at"], { message: m, at: value.at ?? "" }) as SessionEntry | undefined;
}
