/**
 * Validation of what is read back from a session file: the header line and each entry line.
 * Schemas are lenient about extra fields (forward compatibility) but strict about the fields the
 * code relies on, so a damaged line is reported instead of crashing a later consumer.
 */
import { z } from "zod";
import type { SessionEntry, SessionHeader } from "./types.js";
import { SESSION_FORMAT_VERSION } from "./types.js";
import { fastMessageEntry } from "./entry-fast-path.js";

const usage = z.looseObject({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() });
const worktree = z.looseObject({ path: z.string(), branch: z.string() });
const textBlock = z.looseObject({ type: z.literal("text"), text: z.string() });

const assistantBlock = z.discriminatedUnion("type", [
  textBlock,
  z.looseObject({ type: z.literal("thinking"), thinking: z.string() }),
  z.looseObject({ type: z.literal("toolCall"), id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
]);

const agentMessage = z.discriminatedUnion("role", [
  z.looseObject({ role: z.literal("user"), content: z.union([z.string(), z.array(textBlock)]) }),
  z.looseObject({ role: z.literal("assistant"), content: z.array(assistantBlock), stopReason: z.string(), usage }),
  z.looseObject({
    role: z.literal("toolResult"),
    results: z.array(z.looseObject({ toolCallId: z.string(), toolName: z.string(), content: z.string(), isError: z.boolean() })),
  }),
]);

const taskRecord = z.looseObject({
  childId: z.string(),
  status: z.string(),
  turns: z.number(),
  usage,
  durationMs: z.number(),
  prompt: z.string(),
  sessionId: z.string().optional(),
  toolCallId: z.string().optional(),
  profile: z.string().optional(),
  worktree: worktree.extend({ kept: z.boolean() }).optional(),
  model: z.string().optional(),
  description: z.string().optional(),
  noTranscript: z.string().optional().catch(undefined),
});

const at = z.string().optional().default("");

const entry = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("message"), message: agentMessage, at }),
  z.looseObject({ type: z.literal("task_record"), record: taskRecord, at }),
  z.looseObject({ type: z.literal("compaction"), summary: z.string(), replacedCount: z.number().int().min(0), at }),
  z.looseObject({ type: z.literal("usage"), usage, agent: z.string().optional().catch(undefined), run: z.string().optional().catch(undefined), model: z.string().optional().catch(undefined), at }),
  z.looseObject({ type: z.literal("status"), status: z.string(), reason: z.string().optional(), at }),
  z.looseObject({ type: z.literal("note"), text: z.string(), tone: z.enum(["info", "warn", "error", "dim"]).catch("info"), at }),
  z.looseObject({ type: z.literal("shell"), command: z.string(), output: z.string(), isError: z.boolean(), durationMs: z.number().optional(), at }),
  z.looseObject({ type: z.literal("settings"), model: z.string().optional(), permissionMode: z.string().optional(), at }),
  z.looseObject({
    type: z.literal("background_report"),
    report: z.looseObject({ childId: z.string(), profile: z.string().optional(), prompt: z.string(), status: z.string(), output: z.string(), isError: z.boolean() }),
    at,
  }),
  z.looseObject({ type: z.literal("background_delivered"), childIds: z.array(z.string()), at }),
  z.looseObject({ type: z.literal("rewind"), keep: z.number().int().min(0), turn: z.number().int().min(0), at }),
  z.looseObject({ type: z.literal("title"), prompt: z.string(), at }),
]);

const header = z.looseObject({
  type: z.literal("header"),
  version: z.literal(SESSION_FORMAT_VERSION),
  id: z.string().min(1),
  kind: z.enum(["main", "child"]),
  parentId: z.string().optional(),
  parentToolCallId: z.string().optional(),
  cwd: z.string(),
  provider: z.string(),
  model: z.string(),
  profile: z.string().optional(),
  fingerprint: z.string(),
  toolNames: z.array(z.string()),
  createdAt: z.string(),
  prompt: z.string().optional(),
  description: z.string().optional(),
  worktree: worktree.optional(),
  // Written since per-dispatch models (#25); an unreadable value is dropped, never a load failure.
  modelFrom: z.literal("task").optional().catch(undefined),
  thinking: z.union([z.object({ type: z.literal("off") }), z.object({ type: z.literal("on"), budgetTokens: z.number().int().positive(), level: z.enum(["minimal", "low", "medium", "high", "max"]).optional().catch(undefined) })]).optional().catch(undefined),
  budget: z.object({ maxTokens: z.number().int().positive().optional(), maxCostUsd: z.number().positive().optional() }).optional().catch(undefined),
  // Written since round two of the seed's contract (#30): they name what changed when a resume is refused.
  inkVersion: z.string().optional().catch(undefined),
  systemHash: z.string().optional().catch(undefined),
  toolHashes: z.record(z.string(), z.string()).optional().catch(undefined),
  // Written since #36: the system prompt without its tool list, so a changed tool set does not hide a changed prompt.
  promptHash: z.string().optional().catch(undefined),
  profileHash: z.string().optional().catch(undefined),
});

/** "field: problem; field: problem" for a zod error. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(line)"}: ${i.message}`).join("; ");
}

/** What to do about a session whose header line is damaged (appended to those errors). */
export const DAMAGED_HEADER_FIX = "this session cannot be resumed until its first line is restored; the file is left as it is — start a new session (ink without --continue/--resume)";

/**
 * Parses the first line of the session file at `path`; throws an error naming the path and what
 * is wrong (not JSON, not a header, a newer format version, missing fields).
 */
export function parseHeaderLine(line: string, path: string): SessionHeader {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`invalid session file ${path}: the first line is not JSON (expected the session header); ${DAMAGED_HEADER_FIX}`);
  }
  const v = value as { type?: unknown; version?: unknown } | null;
  if (v && typeof v === "object" && v.type === "header" && typeof v.version === "number" && v.version > SESSION_FORMAT_VERSION) {
    throw new Error(
      `session file ${path} has format version ${v.version}; this Ink reads version ${SESSION_FORMAT_VERSION} (upgrade Ink)`,
    );
  }
  const parsed = header.safeParse(value);
  if (!parsed.success) throw new Error(`invalid session header in ${path}: ${describeIssues(parsed.error)}; ${DAMAGED_HEADER_FIX}`);
  return parsed.data as SessionHeader;
}

/** An entry line's JSON checked by the schema alone (no fast path): what parseEntryLine's fast path must agree with. */
export function schemaEntry(value: unknown): { entry: SessionEntry } | { error: string } {
  const parsed = entry.safeParse(value);
  return parsed.success ? { entry: parsed.data as SessionEntry } : { error: `not a valid entry (${describeIssues(parsed.error)})` };
}

/** Parses one entry line: the entry, or the reason it is unusable. */
export function parseEntryLine(line: string): { entry: SessionEntry } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not valid JSON" };
  }
  // Message lines in the usual shape skip zod (same result, a fraction of the time); the rest go through it.
  const fast = fastMessageEntry(value);
  return fast ? { entry: fast } : schemaEntry(value);
}
