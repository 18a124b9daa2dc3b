/**
 * Writes a real MCP server (raw JSON-RPC over stdio, newline-delimited) into a temp dir for tests.
 * Modes: "ok" (tools echo + add), "crash-start" (prints to stderr, exits 1), "crash-call" (exits
 * on the first call), "hang" (never answers initialize), "gate" (answers initialize only once
 * the file named by GATE exists), "linger" (like "ok", but ignores SIGTERM and a closed stdin), "hang-call" (never answers a call), "clash" (also lists "e.cho", "e_cho" and "add" again), "grow" (adds a tool "later" on the first
 * call and announces it with tools/list_changed).
 * With PIDFILE set, the server writes its pid there when it answers initialize.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SCRIPT = String.raw`
const fs = require("node:fs");
const mode = process.env.MODE || "ok";
if (mode === "crash-start") { process.stderr.write("boom: cannot open the database\n"); process.exit(1); }
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const tools = [
  { name: "echo", description: "Echoes the text back", inputSchema: { type: "object", properties: { text: { type: "string", description: "what to echo" } }, required: ["text"], additionalProperties: false }, annotations: { readOnlyHint: true } },
  { name: "add", description: "Adds two numbers", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
];
let buf = "";
process.stdin.on("data", (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});
// "linger": a server that outlives a closed stdin and ignores SIGTERM (only SIGKILL ends it); it
// writes its pid to PIDFILE once it has answered initialize.
if (mode === "linger") process.on("SIGTERM", () => undefined);
process.stdin.on("end", () => { if (mode !== "linger") process.exit(0); else setInterval(() => undefined, 1000); });
function handle(m) {
  if (m.method === "initialize") {
    if (mode === "hang") return;
    const answer = () => send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: mode === "grow" ? { listChanged: true } : {} }, serverInfo: { name: "fake", version: "1.0.0" } } });
    if (mode === "gate") { const t = setInterval(() => { if (fs.existsSync(process.env.GATE)) { clearInterval(t); answer(); } }, 20); return; }
    if (process.env.PIDFILE) fs.writeFileSync(process.env.PIDFILE, String(process.pid));
    return answer();
  }
  if (m.method === "tools/list") return send({ jsonrpc: "2.0", id: m.id, result: { tools: mode === "clash" ? [...tools, { ...tools[0], name: "e.cho" }, { ...tools[0], name: "e_cho" }, tools[1]] : tools } });
  if (m.method === "tools/call") {
    if (mode === "crash-call") { process.stderr.write("fatal: lost the connection\n"); process.exit(2); }
    if (mode === "hang-call") return;
    if (mode === "grow" && !tools.some((t) => t.name === "later")) {
      tools.push({ name: "later", description: "Added after the first call", inputSchema: { type: "object", properties: {} } });
      send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    }
    const a = m.params.arguments || {};
    if (m.params.name === "echo") return send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "echo: " + a.text }, { type: "image", data: "AAAA", mimeType: "image/png" }] } });
    if (m.params.name === "add") return send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: String(a.a + a.b) }] } });
    return send({ jsonrpc: "2.0", id: m.id, result: { isError: true, content: [{ type: "text", text: "no such tool" }] } });
  }
  if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } });
}
`;

/** Path of the server script (a .cjs file in a fresh temp dir). */
export function writeFakeMcpServer(): string {
  const dir = mkdtempSync(join(tmpdir(), "ink-mcp-"));
  const path = join(dir, "server.cjs");
  writeFileSync(path, SCRIPT);
  return path;
}
