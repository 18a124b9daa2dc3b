/**
 * MCP server configuration (stdio, streamable HTTP, or the older HTTP+SSE): the entries of `mcpServers` in `$INK_HOME/settings.json`, a trusted
 * project's `.mcp.json` (Claude Code's format), a profile's `mcpServers:` and, when the person opts in with
 * `"claudeMcpServers": true`, Claude Code's `~/.claude.json` (its user-scope servers and its `projects["<dir>"]` ones). Each entry is
 * validated with zod; `${VAR}` (and `${VAR:-default}`) in strings are expanded from the
 * environment. A bad entry is a problem naming the file, the server and the fix; the rest load.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";

/** Default time a server has to start and list its tools (ms). */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 30_000;
/** Default time one tool call may take (ms). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 120_000;

const stdioSchema = z.strictObject({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** Start-up limit in ms. */
  timeout: z.number().int().min(100).optional(),
  /** Limit of one tool call in ms. */
  callTimeout: z.number().int().min(100).optional(),
});

const httpSchema = z.strictObject({
  /** `sse`: the older HTTP+SSE transport, still used by some servers (Claude Code accepts it too). */
  type: z.enum(["http", "streamable-http", "sse"]),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  timeout: z.number().int().min(100).optional(),
  callTimeout: z.number().int().min(100).optional(),
});

/** One server entry, as written in a file. */
export const mcpServerEntrySchema = z.union([stdioSchema, httpSchema]);

/** A validated, expanded server: where it came from and how to reach it. */
export type McpServerConfig =
  | { name: string; source: string; transport: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string; startupTimeoutMs: number; callTimeoutMs?: number }
  | { name: string; source: string; transport: "http" | "sse"; url: string; headers: Record<string, string>; startupTimeoutMs: number; callTimeoutMs?: number };

/** Server names become part of tool names (`mcp__<server>__<tool>`). */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Replaces `${VAR}` / `${VAR:-default}` with the environment's value ("" when unset and no default). */
export function expandVars(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => env[name] ?? fallback ?? "");
}

function expandRecord(record: Record<string, string> | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expandVars(v, env)]));
}

/**
 * The start-up timeout of a server whose entry names none: `MCP_TIMEOUT` (milliseconds, as in
 * Claude Code) when it is a whole number of at least 100, else 30 s. A bad value gives a problem
 * line naming it and the fix (when `problems` is given).
 */
export function mcpStartupTimeoutMs(env: NodeJS.ProcessEnv, problems?: string[]): number {
  const raw = env.MCP_TIMEOUT?.trim();
  if (raw === undefined || raw === "") return DEFAULT_MCP_STARTUP_TIMEOUT_MS;
  if (/^\d+$/.test(raw) && Number(raw) >= 100) return Number(raw);
  problems?.push(`MCP_TIMEOUT="${env.MCP_TIMEOUT}" is not a number of milliseconds of at least 100 (e.g. MCP_TIMEOUT=90000); MCP servers get the default ${DEFAULT_MCP_STARTUP_TIMEOUT_MS} ms to start`);
  return DEFAULT_MCP_STARTUP_TIMEOUT_MS;
}

/** The servers of one `mcpServers` record; bad entries go to `problems` (one line each, naming `source`). */
export function parseMcpServers(record: unknown, source: string, env: NodeJS.ProcessEnv, problems: string[]): McpServerConfig[] {
  if (record === undefined) return [];
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    problems.push(`${source}: "mcpServers" must be an object of servers by name, e.g. {"docs": {"command": "npx", "args": ["my-mcp-server"]}}`);
    return [];
  }
  const out: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(record as Record<string, unknown>)) {
    if (!SERVER_NAME.test(name)) {
      problems.push(`${source}: MCP server name "${name}" skipped: use 1-64 letters, digits, "-" or "_"`);
      continue;
    }
    const parsed = mcpServerEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join(".") || "(entry)"}: ${i.message}`).join("; ");
      problems.push(`${source}: MCP server "${name}" skipped (${why}); write {"command": "...", "args": [...]} for a local server or {"type": "http", "url": "https://..."} for a remote one`);
      continue;
    }
    const e = parsed.data;
    const startupTimeoutMs = e.timeout ?? mcpStartupTimeoutMs(env);
    const calls = e.callTimeout === undefined ? {} : { callTimeoutMs: e.callTimeout };
    if ("command" in e) {
      out.push({ name, source, transport: "stdio", command: expandVars(e.command, env), args: (e.args ?? []).map((a) => expandVars(a, env)), env: expandRecord(e.env, env), cwd: e.cwd && expandVars(e.cwd, env), startupTimeoutMs, ...calls });
    } else {
      out.push({ name, source, transport: e.type === "sse" ? "sse" : "http", url: expandVars(e.url, env), headers: expandRecord(e.headers, env), startupTimeoutMs, ...calls });
    }
  }
  return out;
}

/** Path of a project's `.mcp.json`. */
export function projectMcpPath(projectDir: string): string {
  return join(projectDir, ".mcp.json");
}

/** Reads a project's `.mcp.json` (call only for a trusted project). Missing file → none. */
export function readProjectMcp(projectDir: string, env: NodeJS.ProcessEnv, problems: string[]): McpServerConfig[] {
  const path = projectMcpPath(projectDir);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") problems.push(`${path}: cannot read it (${code}); fix its permissions or remove it`);
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    problems.push(`${path}: not valid JSON (${(err as Error).message}); its MCP servers were not started`);
    return [];
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    problems.push(`${path}: must be an object like {"mcpServers": {...}}`);
    return [];
  }
  return parseMcpServers((json as { mcpServers?: unknown }).mcpServers ?? {}, path, env, problems);
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

/** User servers, then (trusted only) the project's, then (opted in) ~/.claude.json's; a project server with a user server's name is skipped with a notice. */
export function collectMcpServers(opts: { userServers?: unknown; userSource: string; projectDir: string; trusted: boolean; env?: NodeJS.ProcessEnv; claudeJson?: string }): { servers: McpServerConfig[]; problems: string[] } {
  const env = opts.env ?? process.env;
  const problems: string[] = [];
  mcpStartupTimeoutMs(env, problems);
  const servers = parseMcpServers(opts.userServers, opts.userSource, env, problems);
  if (opts.trusted) {
    for (const server of readProjectMcp(opts.projectDir, env, problems)) {
      if (servers.some((s) => s.name === server.name)) {
        problems.push(`${server.source}: MCP server "${server.name}" skipped: ${opts.userSource} already defines a server of that name`);
        continue;
      }
      servers.push(server);
    }
  }
  // Claude Code's ~/.claude.json, when the person opted in; Ink's own servers win on a name.
  for (const server of opts.claudeJson ? readClaudeJsonServers(opts.claudeJson, opts.projectDir, env, problems) : []) {
    if (servers.some((s) => s.name === server.name)) problems.push(`${server.source}: MCP server "${server.name}" skipped: a server of that name is already defined in Ink's settings or .mcp.json`);
    else servers.push(server);
  }
  return { servers, problems };
}

/** How the person would start it: `command args…` or the URL. */
export function describeServer(server: McpServerConfig): string {
  return server.transport === "stdio" ? [server.command, ...server.args].join(" ") : server.url;
}
