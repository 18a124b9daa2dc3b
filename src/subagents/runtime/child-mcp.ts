/**
 * A profile's own MCP servers (`mcpServers:` in its front matter): started for one child run only,
 * their tools added to that child's pool (never the parent's), and closed when the run ends. A
 * server that fails to start is reported and the child runs without it. Their stdio processes
 * carry the session's run tag (every MCP server does, see McpServer), so Ink's exit sweep ends
 * them even if Ink dies mid-run.
 */
import { resolve } from "node:path";
import { parseMcpServers } from "../../mcp/config.js";
import { McpManager } from "../../mcp/manager.js";
import type { AnyTool } from "../../protocol/tool.js";
import { isProfileServerTool } from "./child-prompt.js";
import type { AgentProfile } from "../profiles/profile-parse.js";

/** The running servers of one child. */
export interface ChildMcp {
  /** Tools of the servers that started (after the profile's `tools`/`disallowedTools`). */
  tools: AnyTool[];
  /** One line per server that was skipped or failed. */
  problems: string[];
  /** Ends every server. Never throws. */
  close(): Promise<void>;
}

/**
 * Starts `profile`'s servers (resolves when each is ready or failed, or at once when `signal`
 * aborts). A server whose name the session already uses is skipped (the session's tools of that
 * name stay). With a `tools` list in the profile, only the listed tools of these servers are
 * kept; `disallowedTools` removes tools. With `cwd` (a worktree child's), stdio servers start there. Undefined when the profile declares no servers. Never rejects.
 */
export async function startChildMcp(profile: AgentProfile, sessionToolNames: readonly string[], signal: AbortSignal, env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<ChildMcp | undefined> {
  if (!profile.mcpServers || Object.keys(profile.mcpServers).length === 0) return undefined;
  const problems: string[] = [];
  const configs = parseMcpServers(profile.mcpServers, profile.path, env, problems).filter((c) => {
    if (!sessionToolNames.some((n) => n.startsWith(`mcp__${c.name}__`))) return true;
    problems.push(`${profile.path}: MCP server "${c.name}" skipped: the session already has a server of that name (its tools are used)`);
    return false;
  });
  // A worktree child's servers run in its worktree (a server's own relative `cwd` resolves there), not in the person's checkout.
  if (cwd !== undefined) for (const c of configs) if (c.transport === "stdio") c.cwd = resolve(cwd, c.cwd ?? ".");
  const manager = new McpManager(configs, { onProblem: (m) => problems.push(m) });
  await Promise.race([manager.start(), new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })))]);
  let tools = manager.tools().filter((t) => !profile.disallowedTools?.includes(t.name));
  if (profile.tools !== undefined) {
    const listed = profile.tools.filter((n) => isProfileServerTool(profile, n));
    const missing = listed.filter((n) => !tools.some((t) => t.name === n));
    if (missing.length > 0) problems.push(`${profile.path}: listed tool${missing.length > 1 ? "s" : ""} ${missing.join(", ")} not offered by its MCP servers`);
    tools = tools.filter((t) => listed.includes(t.name));
  }
  return { tools, problems, close: () => manager.close() };
}
