/**
 * The child's system prompt and tool pool (SPEC §3): parent's assembled prompt + the
 * Subagent-mode section + the profile body; the parent's tools without `task`, narrowed by the
 * profile's `tools` list.
 */
import type { AnyTool } from "../../protocol/tool.js";
import type { OnToolCall } from "../../core/tool-runner.js";
import type { AgentProfile } from "../profiles/profile-parse.js";

/** Appended to every child's system prompt. */
export const CHILD_SUFFIX = [
  "",
  "",
  "# Subagent mode",
  "You are a one-shot subagent: your final message is returned verbatim to the",
  "calling agent. Finish the task and answer — do not ask questions. You do not",
  "have the task tool; complete the job yourself.",
].join("\n");

/**
 * The child's full system prompt: the parent's, told only what the child has — its own tools in
 * the "# Tools" section, no "# Delegation" or agent roster (it cannot delegate) — then the
 * Subagent-mode section, the profile body and the profile's preloaded skills. The project context
 * is kept as it is.
 */
export function childSystemPrompt(parentSystem: string, profile: Pick<AgentProfile, "body" | "preloadedSkills"> | undefined, tools: readonly AnyTool[]): string {
  const skills = (profile?.preloadedSkills ?? []).map((s) => `\n\n# Skill: ${s.name} (preloaded)\n\n${s.body}`).join("");
  return childView(parentSystem, tools) + CHILD_SUFFIX + (profile?.body ? `\n\n# Agent profile\n\n${profile.body}` : "") + skills;
}

const PARENT_ONLY = new Set(["# Delegation", "# Available agents"]);

/** `system` with its "# Tools" list replaced by `tools` and the parent-only sections dropped (the project context untouched). */
function childView(system: string, tools: readonly AnyTool[]): string {
  const at = system.indexOf("\n\n# Project context\n");
  const head = at < 0 ? system : system.slice(0, at);
  const sections = head.split(/\n\n(?=# )/).filter((s) => !PARENT_ONLY.has(s.split("\n", 1)[0]!));
  const shown = sections.map((s) => (s.split("\n", 1)[0] === "# Tools" ? ["# Tools", ...tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]!.trim()}`)].join("\n") : s));
  return shown.join("\n\n") + (at < 0 ? "" : system.slice(at));
}

/**
 * A child's system prompt without the lines of its "# Tools" list (the section's heading stays):
 * what it says besides its tools, so a resume whose tool set changed can still tell whether the
 * rest of its instructions changed too.
 */
export function withoutToolList(system: string): string {
  const at = system.indexOf("\n\n# Project context\n");
  const head = at < 0 ? system : system.slice(0, at);
  const sections = head.split(/\n\n(?=# )/).map((s) => (s.split("\n", 1)[0] === "# Tools" ? "# Tools" : s));
  return sections.join("\n\n") + (at < 0 ? "" : system.slice(at));
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

/** Tools only the main agent has: children never delegate, so they neither start, search nor read back children. */
export const PARENT_ONLY_TOOLS: ReadonlySet<string> = new Set(["task", "task_result", "task_wait", "find_agent", "merge_branches"]);

/** Thrown before a child starts when its configuration cannot work. */
export class SubagentConfigError extends Error {
  override readonly name = "SubagentConfigError";
}

/**
 * The child's tools: the parent's pool without `task`; with a profile `tools` list, exactly those
 * (in the list's order). `mcp__<server>` stands for every tool of that server. A listed MCP tool
 * the session does not have (its server is not configured, or down) is left out and its name
 * pushed to `skipped`; `skill` is dropped when no skills are loaded; any other unknown name throws
 * SubagentConfigError naming it and the choices.
 * Listed tools of the profile's own MCP servers are not looked up here: they join the pool when
 * those servers start for the run (see child-mcp.ts).
 */
export function selectChildToolPool(pool: readonly AnyTool[], profile?: Pick<AgentProfile, "name" | "tools" | "path" | "disallowedTools" | "mcpServers">, skipped: string[] = []): AnyTool[] {
  const filtered = pool.filter((t) => !PARENT_ONLY_TOOLS.has(t.name) && !profile?.disallowedTools?.includes(t.name));
  if (profile?.tools === undefined) return filtered;
  const byName = new Map(filtered.map((t) => [t.name, t] as const));
  const listed: string[] = [];
  for (const name of profile.tools) {
    if (isProfileServerTool(profile, name)) continue;
    // `skill` exists only when skills are loaded; a profile listing it elsewhere simply goes without.
    if (name === "skill" && !byName.has(name)) continue;
    // `mcp__<server>` (no tool part): every tool of that server.
    const wholeServer = name.startsWith("mcp__") && !name.slice(5).includes("__");
    const expanded = wholeServer ? filtered.filter((t) => t.name.startsWith(`${name}__`)).map((t) => t.name) : [name];
    if (expanded.length === 0 || (name.startsWith("mcp__") && !byName.has(expanded[0]!))) {
      skipped.push(name);
      continue;
    }
    for (const n of expanded) if (!listed.includes(n)) listed.push(n);
  }
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

/**
 * The approval check for a child of `profile`: with `permissionMode: plan` only read-only tools may
 * run (a refusal the child sees, naming the file); otherwise the session's check as it is.
 */
export function childToolGate(onToolCall: OnToolCall | undefined, profile?: Pick<AgentProfile, "name" | "path" | "permissionMode">): OnToolCall | undefined {
  if (profile?.permissionMode !== "plan") return onToolCall;
  const gate: OnToolCall = (call, agent, tool) =>
    tool.readOnly || tool.readOnlyHint
      ? (onToolCall?.(call, agent, tool) ?? { allow: true })
      : { allow: false, reason: `agent "${profile.name}" works in plan mode (permissionMode: plan in ${profile.path}): only read-only tools run; ${call.name} is not run — describe the change instead` };
  // The PostToolUse hooks and the paths deny rules hide travel with the check.
  if (onToolCall?.after) gate.after = onToolCall.after;
  if (onToolCall?.hides) gate.hides = onToolCall.hides;
  return gate;
}
