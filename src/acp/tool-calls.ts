/**
 * How one Ink tool call looks to an ACP client: its kind (read, edit, execute, ...), a one-line
 * title, the files it touches, and — for `edit` and `write` — a diff the editor can show.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk/unstable";
import type { ToolCall } from "../protocol/messages.js";

const KINDS: Record<string, ToolKind> = {
  read: "read",
  ls: "read",
  grep: "search",
  find: "search",
  edit: "edit",
  write: "edit",
  bash: "execute",
  task: "think",
};

/** The ACP kind of a tool (`other` for MCP tools and anything unknown). */
export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function firstLine(text: string, max = 80): string {
  const line = text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A short title: `bash: npm test`, `edit src/a.ts`, `task: find the login handler`. */
export function toolTitle(call: Pick<ToolCall, "name" | "arguments">): string {
  const a = call.arguments;
  switch (call.name) {
    case "bash":
      return `bash: ${firstLine(str(a.command) ?? "")}`;
    case "read":
    case "edit":
    case "write":
      return `${call.name} ${str(a.path) ?? ""}`.trim();
    case "ls":
      return `ls ${str(a.path) ?? "."}`;
    case "grep":
    case "find":
      return `${call.name} ${str(a.pattern) ?? ""}${str(a.path) ? ` in ${str(a.path)}` : ""}`;
    case "task": {
      const who = str(a.description) ?? firstLine(str(a.prompt) ?? "", 60);
      return `task${str(a.agent) ? ` (${str(a.agent)})` : ""}: ${who}`;
    }
    default:
      return call.name;
  }
}

/** The absolute path a file tool names, resolved against the agent's working directory. */
function filePath(call: Pick<ToolCall, "name" | "arguments">, cwd: string): string | undefined {
  const path = str(call.arguments.path);
  if (path === undefined || !["read", "edit", "write", "ls"].includes(call.name)) return undefined;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** The files a call touches, for the editor to follow. */
export function toolLocations(call: Pick<ToolCall, "name" | "arguments">, cwd: string): ToolCallLocation[] {
  const path = filePath(call, cwd);
  const line = typeof call.arguments.offset === "number" ? call.arguments.offset : undefined;
  return path ? [{ path, ...(line !== undefined ? { line } : {}) }] : [];
}

/**
 * The diff of an `edit` (old → new text) or a `write` (the file as it is now → the new content;
 * no old text for a new file); none for other tools. Read before the tool runs.
 */
export function toolDiff(call: Pick<ToolCall, "name" | "arguments">, cwd: string): ToolCallContent[] {
  const path = filePath(call, cwd);
  if (!path) return [];
  if (call.name === "edit") {
    const oldText = str(call.arguments.oldText);
    const newText = str(call.arguments.newText);
    return newText === undefined ? [] : [{ type: "diff", path, oldText: oldText ?? null, newText }];
  }
  if (call.name === "write") {
    const content = str(call.arguments.content);
    if (content === undefined) return [];
    let oldText: string | null = null;
    try {
      oldText = readFileSync(path, "utf8");
    } catch {
      // a new file
    }
    return [{ type: "diff", path, oldText, newText: content }];
  }
  return [];
}

/** Plain text as tool-call content. */
export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}
