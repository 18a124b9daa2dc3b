/**
 * MCP servers an ACP client passes in `session/new` / `session/load`, as Ink's server
 * configuration: they are started, named (`mcp__<server>__<tool>`) and approved exactly like the
 * servers of settings.json. An entry Ink cannot use is a problem naming it and the reason.
 */
import type { McpServer } from "@agentclientprotocol/sdk/unstable";
import { mcpStartupTimeoutMs, type McpServerConfig } from "../mcp/config.js";

const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Converts the client's servers; unusable ones go to `problems` (one line each). */
export function acpMcpServers(servers: readonly McpServer[], problems: string[]): McpServerConfig[] {
  const out: McpServerConfig[] = [];
  for (const server of servers) {
    const source = "the editor's session/new";
    if (!SERVER_NAME.test(server.name)) {
      problems.push(`${source}: MCP server "${server.name}" skipped: its name must be 1-64 letters, digits, "-" or "_" (it becomes part of tool names)`);
      continue;
    }
    if (out.some((s) => s.name === server.name)) {
      problems.push(`${source}: MCP server "${server.name}" skipped: the editor passed two servers of that name`);
      continue;
    }
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
      out.push({ name: server.name, source, transport: server.type, url: server.url, headers, startupTimeoutMs: mcpStartupTimeoutMs(process.env) });
    } else if ("command" in server) {
      const env = Object.fromEntries(server.env.map((e) => [e.name, e.value]));
      out.push({ name: server.name, source, transport: "stdio", command: server.command, args: server.args, env, startupTimeoutMs: mcpStartupTimeoutMs(process.env) });
    } else {
      problems.push(`${source}: MCP server "${server.name}" skipped: Ink starts stdio, http and sse servers only`);
    }
  }
  return out;
}
