/**
 * The child's system prompt and tool pool (SPEC §3): parent's assembled prompt + the
 * Subagent-mode section + the profile body; the parent's tools without `task`, narrowed by the
 * profile's `tools` list.
 */
import type { AnyTool } from "../protocol/tool.js";
import type { AgentProfile } from "./profile-parse.js";

/** Appended to every child's system prompt. */
export const CHILD_SUFFIX = [
  "",
  "",
  "# Subagent mode",
  "You are a one-shot subagent: your final message is returned verbatim to the",
  "calling agent. Finish the task and answer — do not ask questions. You do not",
  "have the task tool; complete the job yourself.",
].join("\n");

/** The child's full system prompt. */
export function childSystemPrompt(parentSystem: string, profile?: Pick<AgentProfile, "body">): string {
  return parentSystem + CHILD_SUFFIX + (profile?.body ? `\n\n# Agent profile\n\n${profile.body}` : "");
}

/**
 * The new prompt of a resumed child. When its transcript had to be repaired (`repairs`, e.g.
 * "1 interrupted tool call closed") the previous attempt was cut short: the child is told so, that
 * those calls were not run again, and to re-read files before editing. Otherwise `prompt` as is.
 */
export function resumedChildPrompt(prompt: string, repairs: readonly string[] = []): string {
  if (repairs.length === 0) return prompt;
  return [
    `[Ink] Your previous attempt was interrupted; its transcript was repaired (${repairs.join(", ")}) and interrupted tool calls were not run again.`,
    "Files may have changed since then: re-read a file before editing it.",
    "",
    prompt,
  ].join("\n");
}

/** Thrown before a child starts when its configuration cannot work. */
export class SubagentConfigError extends Error {
  override readonly name = "SubagentConfigError";
}

/**
 * The child's tools: the parent's pool without `task`; with a profile `tools` list, exactly those
 * (in the list's order). An unknown name throws SubagentConfigError naming it and the choices.
 * Listed tools of the profile's own MCP servers are not looked up here: they join the pool when
 * those servers start for the run (see child-mcp.ts).
 */
export function selectChildToolPool(pool: readonly AnyTool[], profile?: Pick<AgentProfile, "name" | "tools" | "path" | "disallowedTools" | "mcpServers">): AnyTool[] {
  const filtered = pool.filter((t) => t.name !== "task" && t.name !== "task_wait" && !profile?.disallowedTools?.includes(t.name));
  if (profile?.tools === undefined) return filtered;
  const byName = new Map(filtered.map((t) => [t.name, t] as const));
  const listed = profile.tools.filter((n) => !isProfileServerTool(profile, n));
  const unknown = listed.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    const where = profile.path ? ` (${profile.path})` : "";
    throw new SubagentConfigError(
      `agent "${profile.name}"${where} lists unknown tool${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; available to subagents: ${[...byName.keys()].join(", ")}. Fix the profile's tools: line.`,
    );
  }
  return listed.map((n) => byName.get(n)!);
}

/** True when `name` is a tool of one of the profile's own MCP servers (`mcp__<server>__…`). */
export function isProfileServerTool(profile: Pick<AgentProfile, "mcpServers">, name: string): boolean {
  return Object.keys(profile.mcpServers ?? {}).some((server) => name.startsWith(`mcp__${server}__`));
}
