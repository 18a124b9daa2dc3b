/**
 * MCP servers from Claude Code's `~/.claude.json` (read only when the person opts in with
 * `"claudeMcpServers": true` in `$INK_HOME/settings.json`): its user-scope `mcpServers` and the
 * `projects["<this directory>"].mcpServers` Claude Code keeps per project. The file is the
 * person's own, beside `~/.claude` (`$INK_CLAUDE_HOME/../.claude.json`).
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { claudeHomeDir } from "../subagents/profiles.js";
import { parseMcpServers, type McpServerConfig } from "./config.js";

/** Where Claude Code keeps its user configuration. */
export function claudeJsonPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(claudeHomeDir(env)), ".claude.json");
}

/** The servers `~/.claude.json` defines for everyone and for `cwd`; problems name the file. Never throws. */
export function readClaudeJsonServers(path: string, cwd: string, env: NodeJS.ProcessEnv, problems: string[]): McpServerConfig[] {
  let json: { mcpServers?: unknown; projects?: Record<string, { mcpServers?: unknown }> };
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.push(code === "ENOENT" ? `${path}: not found, so no Claude Code MCP servers were added ("claudeMcpServers" is on in your settings)` : `${path}: cannot be read as JSON (${(err as Error).message}); its MCP servers were not added`);
    return [];
  }
  if (json === null || typeof json !== "object") return [];
  const user = parseMcpServers(json.mcpServers, path, env, problems);
  const key = resolve(cwd);
  const local = parseMcpServers(json.projects?.[key]?.mcpServers, `${path} (projects["${key}"])`, env, problems);
  return [...local, ...user.filter((u) => !local.some((l) => l.name === u.name))];
}
