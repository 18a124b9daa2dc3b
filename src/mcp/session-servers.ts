/**
 * Which MCP servers a session starts: `mcpServers` of `$INK_HOME/settings.json` and, only when
 * the project is trusted, its `.mcp.json` (an untrusted project's file is not even read; a notice
 * says it was skipped and how to trust the project).
 */
import { claudeJsonPath } from "../settings/paths.js";
import { existsSync } from "node:fs";
import { readSettingsFile, userSettingsPath } from "../settings/settings.js";
import { collectMcpServers, projectMcpPath, type McpServerConfig } from "./config.js";

/** The servers to start, and one problem line per unusable entry. Never throws. */
export function sessionMcpServers(opts: { inkHome: string; cwd: string; trusted: boolean; changedSinceTrust?: boolean; env?: NodeJS.ProcessEnv }): { servers: McpServerConfig[]; problems: string[] } {
  const path = userSettingsPath(opts.inkHome);
  let userServers: unknown;
  let claudeJson: string | undefined;
  const problems: string[] = [];
  try {
    const user = readSettingsFile(path, "user", [])?.settings;
    userServers = user?.mcpServers;
    if (user?.claudeMcpServers === true) claudeJson = claudeJsonPath(opts.env);
  } catch (err) {
    problems.push(`MCP servers of ${path} not started: ${(err as Error).message}`);
  }
  const found = collectMcpServers({ userServers, userSource: path, projectDir: opts.cwd, trusted: opts.trusted, env: opts.env, claudeJson });
  const project = projectMcpPath(opts.cwd);
  if (!opts.trusted && opts.changedSinceTrust) {
    problems.push(`${project} was added or changed since you trusted this project, so its MCP servers were not started; run with --trust (or accept the trust question) to start them`);
  } else if (!opts.trusted && existsSync(project)) {
    problems.push(`${project} was not read: this project is not trusted, so its MCP servers were not started; run with --trust (or accept the trust question) to start them`);
  }
  return { servers: found.servers, problems: [...problems, ...found.problems] };
}
