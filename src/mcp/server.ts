/**
 * One MCP server connection through the official SDK client (loaded lazily, so start-up never
 * pays for it): connect over stdio, streamable HTTP or HTTP+SSE, list tools, call them, close. State moves
 * starting → ready | failed; a crash after start moves ready → failed. Never throws to callers.
 */
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { describeServer, DEFAULT_MCP_CALL_TIMEOUT_MS, type McpServerConfig } from "./config.js";
import { convertCallResult, type McpCallResult } from "./convert.js";
import type { ToolImage } from "../protocol/messages.js";
import { SESSION_RUN_TAG } from "../tools/process-registry.js";

export type McpServerState = "starting" | "ready" | "failed" | "closed";

/** A tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The server's `annotations.readOnlyHint`: it says the tool only reads. */
  readOnlyHint?: boolean;
}

const STDERR_TAIL = 2000;

/** The parts of a listed tool Ink uses. */
function toolInfo(t: any): McpToolInfo {
  return { name: t.name, description: t.description, inputSchema: t.inputSchema ?? { type: "object" }, ...(t.annotations?.readOnlyHint === true ? { readOnlyHint: true } : {}) };
}

/** The code of an error's cause (fetch puts ECONNREFUSED there), if any. */
function causeCode(err: unknown): string | undefined {
  const code = (err as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

/** True for a network failure that means the server cannot be reached at all. */
function unreachable(err: unknown): boolean {
  const code = causeCode(err);
  if (code && ["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EHOSTUNREACH", "UND_ERR_SOCKET"].includes(code)) return true;
  return /fetch failed/i.test(String((err as Error)?.message));
}

/** The start-up timeout ran out (its message is the whole reason). */
class StartTimeout extends Error {}

/** A live (or failed) server. */
export class McpServer {
  state: McpServerState = "starting";
  tools: McpToolInfo[] = [];
  /** Why it failed: name, command, reason and the tail of its stderr. */
  failure?: string;
  private stderr = "";
  /** The connection closed while starting (the start's rejection then says why; see start()). */
  private closedWhileStarting = false;
  private client?: { callTool: (...a: any[]) => Promise<any>; close: () => Promise<void> };
  private transport?: { _process?: ChildProcess };
  private onChange: () => void = () => undefined;

  constructor(readonly config: McpServerConfig) {}

  /** Connects and lists tools within the start-up timeout; resolves when ready or failed. */
  async start(onChange: () => void): Promise<void> {
    this.onChange = onChange;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StartTimeout(`did not start within ${this.config.startupTimeoutMs} ms`)), this.config.startupTimeoutMs);
    });
    try {
      await Promise.race([this.connect(), timeout]);
      if (this.state !== "starting") return;
      this.state = "ready";
    } catch (err) {
      const reason = (err as Error).message ?? String(err);
      // A stdio server that exited says more by its stderr than by "Connection closed"; an HTTP
      // endpoint's own error (status, refused connection) is the reason.
      const timedOut = err instanceof StartTimeout;
      this.fail(this.closedWhileStarting && this.config.transport === "stdio" ? "exited before it finished starting" : timedOut ? reason : `could not start: ${reason}`);
    } finally {
      clearTimeout(timer);
    }
    this.onChange();
  }

  private async connect(): Promise<void> {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    // A server that announces a changed tool list (tools/list_changed) gets its new tools picked up.
    const client = new Client(
      { name: "ink", version: "0.1.0" },
      { listChanged: { tools: { debounceMs: 50, onChanged: (error, tools) => this.toolsChanged(error, tools) } } },
    );
    let transport: any;
    const c = this.config;
    if (c.transport === "stdio") {
      const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
      // The run tag lets Ink's exit sweep find the server and whatever it started (npx → node),
      // even one that ignores SIGTERM and a closed stdin.
      transport = new StdioClientTransport({ command: c.command, args: c.args, env: { ...getDefaultEnvironment(), ...c.env, INK_RUN_ID: SESSION_RUN_TAG }, cwd: c.cwd, stderr: "pipe" });
      (transport.stderr as Readable | null)?.on("data", (d: Buffer) => {
        this.stderr = (this.stderr + d.toString("utf8")).slice(-STDERR_TAIL);
      });
    } else if (c.transport === "sse") {
      const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
      transport = new SSEClientTransport(new URL(c.url), { requestInit: { headers: c.headers } });
    } else {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      transport = new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers: c.headers } });
    }
    this.client = client;
    this.transport = transport;
    client.onclose = () => {
      if (this.state === "closed" || this.state === "failed") return;
      if (this.state === "starting") {
        this.closedWhileStarting = true; // start() fails it with the reason of the failed request
        return;
      }
      this.fail("exited (connection closed)");
      this.onChange();
    };
    await client.connect(transport, { timeout: c.startupTimeoutMs });
    const listed = await client.listTools(undefined, { timeout: c.startupTimeoutMs });
    this.tools = listed.tools.map(toolInfo);
  }

  private toolsChanged(error: Error | null, tools: readonly unknown[] | null): void {
    if (error || !tools || this.state !== "ready") return;
    this.tools = tools.map(toolInfo);
    this.onChange();
  }

  private fail(reason: string): void {
    this.state = "failed";
    this.tools = [];
    const tail = this.stderr.trim().split("\n").slice(-10).join("\n");
    this.failure = `MCP server "${this.config.name}" (${describeServer(this.config)}) ${reason}${tail ? `; its stderr ended with:\n${tail}` : ""}`;
    void this.client?.close().catch(() => undefined);
    this.kill();
  }

  /** Calls one tool; failures (server gone, timeout, protocol error) come back as error output. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ output: string; isError: boolean; images?: ToolImage[] }> {
    const limit = this.config.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
    if (this.state !== "ready" || !this.client) return { output: `MCP server "${this.config.name}" is not running (${this.state})${this.failure ? `: ${this.failure}` : ""}`, isError: true };
    try {
      const result = (await this.client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: limit })) as McpCallResult;
      return convertCallResult(result);
    } catch (err) {
      if (this.config.transport !== "stdio" && !signal.aborted && unreachable(err)) {
        // The remote server is gone (connection refused, host unreachable): like a crashed stdio server.
        this.fail(`stopped answering (${(err as Error).message}${causeCode(err) ? `: ${causeCode(err)}` : ""})`);
        this.onChange();
        return { output: `MCP tool ${tool} on server "${this.config.name}" failed: ${this.failure}; its tools were removed for this session`, isError: true };
      }
      const why = signal.aborted ? "stopped (the run was aborted)" : /timed out|timeout/i.test(String((err as Error).message)) ? `got no answer within ${limit} ms (raise "callTimeout" of this server in its settings to wait longer)` : `failed: ${(err as Error).message ?? String(err)}`;
      return { output: `MCP tool ${tool} on server "${this.config.name}" ${why}`, isError: true };
    }
  }

  /** Closes the connection (a stdio server's process is ended). Never throws. */
  async close(): Promise<void> {
    if (this.state === "closed") return;
    this.state = "closed";
    this.tools = [];
    await this.client?.close().catch(() => undefined);
    this.kill();
  }

  /**
   * Asks a stdio server's process to end now (SIGTERM) and stops it from holding Ink's exit: its
   * handles are unref'd, so a server that ignores the signal is left to the exit sweep (SIGKILL
   * for every process carrying the run tag) instead of the SDK's seconds-long close.
   */
  kill(): void {
    const proc = this.transport?._process;
    if (!proc || proc.exitCode !== null) return;
    proc.kill("SIGTERM");
    proc.unref();
    for (const stream of [proc.stdin, proc.stdout, proc.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
  }
}
