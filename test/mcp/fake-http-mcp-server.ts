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

/** The MCP server: one tool, `lookup {id: string}` → `issue <id>: open` (and a resource). */
function lookupServer(): Server {
  const mcp = new Server({ name: "fake-http", version: "1.0.0" }, { capabilities: { tools: {} } });
  mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "lookup", description: "Looks an issue up", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } }],
  }));
  mcp.setRequestHandler(CallToolRequestSchema, async (req) => ({
    content: [{ type: "text", text: `issue ${String(req.params.arguments?.id)}: open` }, { type: "resource", resource: { uri: "issue://1", text: "body of issue 1" } }],
  }));
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
