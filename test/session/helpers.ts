/** Shared fixtures for session tests: temp INK_HOME dirs and small message builders. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage, AssistantMessage, ToolResultMessage, UserMessage } from "../../src/protocol/messages.js";
import { emptyUsage } from "../../src/protocol/messages.js";
import type { NewSessionHeader } from "../../src/session/types.js";

/** A fresh temp dir plus its cleanup. */
export function tempHome(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ink-session-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function user(text: string): UserMessage {
  return { role: "user", content: text };
}

export function assistant(text: string, calls: Array<{ id: string; name: string }> = []): AssistantMessage {
  return {
    role: "assistant",
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls.map((c) => ({ type: "toolCall" as const, id: c.id, name: c.name, arguments: { path: "a.txt" } })),
    ],
    stopReason: calls.length ? "tool_use" : "end_turn",
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
  };
}

export function results(...ids: Array<[id: string, name: string]>): ToolResultMessage {
  return { role: "toolResult", results: ids.map(([id, name]) => ({ toolCallId: id, toolName: name, content: `out ${id}`, isError: false })) };
}

export function header(overrides: Partial<NewSessionHeader> = {}): NewSessionHeader {
  return {
    kind: "main",
    cwd: "/tmp/project",
    provider: "scripted",
    model: "test-model",
    fingerprint: "f".repeat(64),
    toolNames: ["read", "bash"],
    ...overrides,
  };
}

export { emptyUsage };
export type { AgentMessage };
