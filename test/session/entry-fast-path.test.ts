/**
 * The fast path of reading message lines (src/session/entry-fast-path.ts) gives exactly what the
 * entry schema gives — the same values and key order, or it steps aside — for the shapes the loop
 * writes, extra fields in any order, and lines that are damaged in every field it checks.
 */
import { describe, expect, it } from "vitest";
import { fastMessageEntry } from "../../src/session/entry-fast-path.js";
import { parseEntryLine, schemaEntry } from "../../src/session/entries.js";

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 2 };
const at = "2026-12-04T10:00:00.000Z";

/** Lines the fast path must take. */
const usual: unknown[] = [
  { type: "message", message: { role: "user", content: "hello" }, at },
  { type: "message", message: { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b", cache: true }] }, at },
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: "hi" }], stopReason: "end_turn", usage, model: "m" }, at },
  {
    type: "message",
    message: {
      role: "assistant",
      content: [{ type: "thinking", thinking: "hm", signature: "s" }, { type: "toolCall", id: "t1", name: "read", arguments: { path: "a", deep: { x: [1, { y: 2 }] } } }],
      stopReason: "tool_use",
      usage,
    },
    at,
  },
  { type: "message", message: { role: "toolResult", results: [{ toolCallId: "t1", toolName: "read", content: "x", isError: false, images: [{ data: "AA", mimeType: "image/png" }] }] }, at },
  // Keys out of the schema's order, extras first, `at` missing: rebuilt in zod's order.
  { at, message: { usage: { cacheWrite: 0, extra: 1, output: 2, cacheRead: 0, input: 1 }, stopReason: "end_turn", content: [{ text: "t", type: "text" }], role: "assistant", abortedUsage: usage }, type: "message" },
  { type: "message", message: { content: "no at", role: "user" } },
  { extra: true, type: "message", message: { role: "toolResult", results: [] }, at },
];

/** Lines it must leave to zod (each differs from a usual one in one field). */
const unusual: unknown[] = [
  { type: "usage", usage, at },
  { type: "message", message: { role: "user", content: 3 }, at },
  { type: "message", message: { role: "user", content: [{ type: "image", data: "x" }] }, at },
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: "hi" }], stopReason: "end_turn" }, at },
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: "hi" }], stopReason: 1, usage }, at },
  { type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: "t", name: "n", arguments: [] }], stopReason: "x", usage }, at },
  { type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: "t", name: "n", arguments: null }], stopReason: "x", usage }, at },
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: "hi" }], stopReason: "end_turn", usage: { ...usage, input: "1" } }, at },
  { type: "message", message: { role: "toolResult", results: [{ toolCallId: "t", toolName: "n", content: "x", isError: "no" }] }, at },
  { type: "message", message: { role: "system", content: "x" }, at },
  { type: "message", message: { role: "user", content: "x" }, at: 5 },
  { type: "message", message: "x", at },
  { type: "message", at },
  null,
  [1, 2],
];

/** Lines whose JSON zod reads differently from its plain values: `__proto__` keys (dropped) and numbers too large for a double. */
const rawUnusual = [
  `{"type":"message","message":{"role":"user","content":"x","__proto__":{"a":1}},"at":"${at}"}`,
  `{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"t","name":"n","arguments":{"__proto__":1,"p":2}}],"stopReason":"x","usage":${JSON.stringify(usage)}},"at":"${at}"}`,
  `{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"x"}],"stopReason":"x","usage":{"input":1e400,"output":1,"cacheRead":0,"cacheWrite":0}},"at":"${at}"}`,
  `{"__proto__":{"x":1},"type":"message","message":{"role":"user","content":"x"},"at":"${at}"}`,
];

/** What the schema alone makes of `line`, as JSON text (key order included). */
const bySchema = (line: string) => JSON.stringify(schemaEntry(JSON.parse(line)));

describe("reading message lines without zod", () => {
  it("takes the usual shapes and gives the schema's result, key order included", () => {
    for (const value of usual) {
      const line = JSON.stringify(value);
      expect(fastMessageEntry(JSON.parse(line)), line).toBeDefined();
      expect(JSON.stringify(parseEntryLine(line)), line).toBe(bySchema(line));
      expect(parseEntryLine(line), line).toEqual(schemaEntry(JSON.parse(line)));
    }
  });

  it("leaves anything else to zod, so a damaged line is named as before", () => {
    const lines = [...unusual.map((v) => JSON.stringify(v)), ...rawUnusual];
    for (const line of lines) {
      expect(fastMessageEntry(JSON.parse(line)), line).toBeUndefined();
      expect(JSON.stringify(parseEntryLine(line)), line).toBe(bySchema(line));
    }
    expect(parseEntryLine(JSON.stringify(unusual[1]))).toMatchObject({ error: expect.stringContaining("not a valid entry") });
  });
});
