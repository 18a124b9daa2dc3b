/**
 * A real streamable-HTTP MCP server for tests, built from the SDK's server side (low-level
 * `Server` with raw JSON schemas, one stateful transport) on a loopback port. It records the
 * `authorization` header of every request so tests can check `headers` reach it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface FakeHttpMcp {
  url: string;
  /** The `authorization` header of each HTTP request received. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** `bytes` bytes that start like a PNG file (the signature, then a counter), as base64. */
export function pngBase64(bytes: number): string {
  const buf = Buffer.alloc(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf);
  for (let i = 8; i < bytes; i++) buf[i] = i % 251;
  return buf.toString("base64");
}

/**
 * The MCP server: `lookup {id: string}` → `issue <id>: open` (and a resource); `snapshot {bytes?,
 * mimeType?, count?}` → a caption and `count` (default 1) images of `bytes` bytes (default 12 KB, PNG).
 */
function lookupServer(): Server {
  const mcp = new Server({ name: "fake-http", version: "1.0.0" }, { capabilities: { tools: {} } });
  mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "lookup", description: "Looks an issue up", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      { name: "snapshot", description: "Takes a screenshot", inputSchema: { type: "object", properties: { bytes: { type: "number" }, mimeType: { type: "string" }, count: { type: "number" } } } },
    ],
  }));
  mcp.setRequestHandler(CallToolRequestSchema, async (req) => {
    const a = req.params.arguments ?? {};
    if (req.params.name === "snapshot") {
      const image = { type: "image" as const, data: pngBase64(Number(a.bytes ?? 12 * 1024)), mimeType: String(a.mimeType ?? "image/png") };
      return { content: [{ type: "text", text: "snapshot of the page" }, ...Array.from({ length: Number(a.count ?? 1) }, () => image)] };
    }
    return { content: [{ type: "text", text: `issue ${String(a.id)}: open` }, { type: "resource", resource: { uri: "issue://1", text: "body of issue 1" } }] };
  });
  return mcp;
}

/** Starts the streamable-HTTP server at `/mcp`. */
export async function startFakeHttpMcp(): Promise<FakeHttpMcp> {
  const mcp = lookupServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const authorizations: (string | undefined)[] = [];
  const http: HttpServer = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    async close() {
      await mcp.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Starts an HTTP+SSE server (the older transport): the stream at `/sse`, messages posted to `/messages`. */
export async function startFakeSseMcp(): Promise<FakeHttpMcp> {
  const transports = new Map<string, SSEServerTransport>();
  const servers: Server[] = [];
  const authorizations: (string | undefined)[] = [];
  const http: HttpServer = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      const mcp = lookupServer();
      servers.push(mcp);
      void mcp.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport) return void transport.handlePostMessage(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    authorizations,
    async close() {
      await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
