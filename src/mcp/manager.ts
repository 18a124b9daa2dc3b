/**
 * The MCP servers of one session: started in the background (never awaited by start-up), their
 * tools exposed as Ink tools named `mcp__<server>__<tool>` with the server's JSON schema passed
 * to the model as-is and arguments checked against it. A failed server is reported once through
 * `onProblem` and its tools disappear from `tools()`. `close()` ends every server.
 */
import { z } from "zod";
import type { AnyTool } from "../protocol/tool.js";
import type { McpServerConfig } from "./config.js";
import { checkJsonSchema } from "./json-schema-check.js";
import { McpServer, type McpToolInfo } from "./server.js";

/** The Ink name of an MCP tool. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 128);
}

/** An Ink tool that calls `info` on `server`. */
export function mcpTool(server: McpServer, info: McpToolInfo): AnyTool {
  const schema = z.record(z.string(), z.unknown()).superRefine((args, ctx) => {
    for (const p of checkJsonSchema(info.inputSchema, args)) ctx.addIssue({ code: "custom", message: `${p.path}: ${p.message}` });
  });
  return {
    name: mcpToolName(server.config.name, info.name),
    description: info.description?.trim() || `Tool ${info.name} of MCP server ${server.config.name}`,
    schema,
    inputSchema: info.inputSchema,
    concurrent: false,
    readOnly: false,
    ...(info.readOnlyHint ? { readOnlyHint: true } : {}),
    execute: (args: Record<string, unknown>, ctx) => server.call(info.name, args, ctx.signal),
  };
}

export class McpManager {
  readonly servers: McpServer[];
  private started?: Promise<void>;
  private reported = new Set<McpServer>();
  private cache = new Map<string, AnyTool>();
  private reportedClashes = new Set<string>();

  /** `onChange` runs whenever a server's state or tools change; `onProblem` once per failed server. */
  constructor(configs: readonly McpServerConfig[], private readonly hooks: { onChange?: () => void; onProblem?: (message: string) => void } = {}) {
    this.servers = configs.map((c) => new McpServer(c));
  }

  /** Starts every server (idempotent); the promise resolves when each is ready or failed. Never rejects. */
  start(): Promise<void> {
    this.started ??= Promise.all(this.servers.map((s) => s.start(() => this.changed()))).then(() => undefined);
    return this.started;
  }

  private changed(): void {
    for (const s of this.servers) {
      if (s.state === "failed" && !this.reported.has(s)) {
        this.reported.add(s);
        this.hooks.onProblem?.(s.failure ?? `MCP server "${s.config.name}" failed`);
      }
    }
    this.hooks.onChange?.();
  }

  /** The tools of the ready servers now (the same tool object for the same server tool). */
  tools(): AnyTool[] {
    const out: AnyTool[] = [];
    const names = new Set<string>();
    for (const s of this.servers) {
      if (s.state !== "ready") continue;
      for (const info of s.tools) {
        const key = `${s.config.name}\u0000${info.name}\u0000${JSON.stringify(info.inputSchema)}`;
        let tool = this.cache.get(key);
        if (!tool) this.cache.set(key, (tool = mcpTool(s, info)));
        // Tool names must be unique for the model; "a.b" and "a_b" (or a tool listed twice) would clash.
        if (names.has(tool.name)) {
          this.clash(`MCP server "${s.config.name}": tool "${info.name}" skipped: its name ${tool.name} is already taken by another of its tools (names are cut to letters, digits, "_" and "-")`);
          continue;
        }
        names.add(tool.name);
        out.push(tool);
      }
    }
    return out;
  }

  private clash(message: string): void {
    if (this.reportedClashes.has(message)) return;
    this.reportedClashes.add(message);
    this.hooks.onProblem?.(message);
  }

  /** Lines for `/mcp`: each server, its state, source and tools. */
  describe(): string[] {
    if (this.servers.length === 0) return ['No MCP servers configured. Add "mcpServers" to $INK_HOME/settings.json or a trusted project\'s .mcp.json.'];
    return this.servers.flatMap((s) => {
      const head = `${s.config.name} — ${s.state} (${s.config.transport}, from ${s.config.source})`;
      if (s.state === "failed") return [head, `  ${s.failure ?? ""}`];
      return [head, ...s.tools.map((t) => `  ${mcpToolName(s.config.name, t.name)}${t.description ? `: ${t.description.split("\n")[0]}` : ""}`)];
    });
  }

  /** Kills every stdio server's process now (synchronous; for process exit). */
  killAll(): void {
    for (const s of this.servers) s.kill();
  }

  /** Ends every server. Never throws. */
  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.close()));
  }
}
