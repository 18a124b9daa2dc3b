import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { estimateMessageTokens, IMAGE_TOKENS } from "../../src/core/token-estimate.js";
import { parseMcpServers } from "../../src/mcp/config.js";
import { convertCallResult, MAX_IMAGE_CHARS, MAX_RESULT_IMAGES } from "../../src/mcp/convert.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { pngBase64, startFakeHttpMcp, type FakeHttpMcp } from "./fake-http-mcp-server.js";

describe("MCP image content", () => {
  it("an image is kept for the model and named in the text with its type and size", () => {
    const data = pngBase64(12 * 1024);
    const out = convertCallResult({ content: [{ type: "text", text: "the page" }, { type: "image", data, mimeType: "image/png" }] });
    expect(out.output).toBe("the page\n[image: image/png, 12.0 KB]");
    expect(out.images).toEqual([{ mimeType: "image/png", data }]);
  });

  it("an image the model cannot take is named with the reason and not sent: wrong type, too large, bad data, too many", () => {
    const small = pngBase64(30);
    const out = convertCallResult({
      content: [
        { type: "image", data: small, mimeType: "image/svg+xml" },
        { type: "image", data: "A".repeat(MAX_IMAGE_CHARS + 4), mimeType: "image/jpeg" },
        { type: "image", data: "not base64!", mimeType: "image/png" },
        ...Array.from({ length: MAX_RESULT_IMAGES + 1 }, () => ({ type: "image", data: small, mimeType: "image/gif" })),
      ],
    });
    const lines = out.output.split("\n");
    expect(lines[0]).toBe("[image: image/svg+xml, 30 B — not sent to the model: it reads image/png, image/jpeg, image/gif, image/webp only]");
    expect(lines[1]).toBe("[image: image/jpeg, 3.8 MB — not sent to the model: 5.0 MB as base64, over the 5.0 MB an image may be]");
    expect(lines[2]).toContain("not sent to the model: its data is not valid base64]");
    expect(lines.slice(3, 3 + MAX_RESULT_IMAGES).every((l) => l === "[image: image/gif, 30 B]")).toBe(true);
    expect(lines[3 + MAX_RESULT_IMAGES]).toBe(`[image: image/gif, 30 B — not sent to the model: one result sends at most ${MAX_RESULT_IMAGES} images, 10.0 MB in all]`);
    expect(out.images).toHaveLength(MAX_RESULT_IMAGES);
  });

  it("the context estimate counts an image as a fixed cost, not as its base64 length", () => {
    const data = pngBase64(600_000);
    const tokens = estimateMessageTokens({ role: "toolResult", results: [{ toolCallId: "t", toolName: "mcp__s__shot", content: "[image: image/png, 586 KB]", isError: false, images: [{ mimeType: "image/png", data }] }] });
    expect(tokens).toBeGreaterThan(IMAGE_TOKENS);
    expect(tokens).toBeLessThan(IMAGE_TOKENS + 100);
  });
});

describe("MCP images reach the Anthropic model as image blocks", () => {
  let model: FakeAnthropic;
  const sessions: AgentSession[] = [];
  const servers: FakeHttpMcp[] = [];
  beforeAll(async () => {
    model = await startFakeAnthropic();
  });
  afterEach(async () => {
    for (const s of sessions.splice(0)) s.close();
    for (const m of servers.splice(0)) await m.close();
    model.reset();
  });
  afterAll(async () => model.close());

  /** A session whose MCP server "browser" is a real SDK server (one per session: its transport is stateful). */
  async function session(): Promise<AgentSession> {
    const mcp = await startFakeHttpMcp();
    servers.push(mcp);
    const problems: string[] = [];
    const mcpServers = parseMcpServers({ browser: { type: "http", url: mcp.url } }, "/test/settings.json", {}, problems);
    expect(problems).toEqual([]);
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: model.url, baseDelayMs: 1, maxDelayMs: 2 });
    const cwd = mkdtempSync(join(tmpdir(), "ink-img-cwd-"));
    const inkHome = mkdtempSync(join(tmpdir(), "ink-img-home-"));
    const s = new AgentSession({ cwd, inkHome, provider, model: "claude-sonnet-4-5", interactive: false, approval: { allow: ["mcp__browser__*"] }, persist: false, mcpServers });
    sessions.push(s);
    return s;
  }

  it("a tool_result carries the text and a base64 image source; the next turn still sends it", async () => {
    const s = await session();
    await s.startMcp();
    model.enqueue(
      sseTurn([{ toolUse: { id: "toolu_1", name: "mcp__browser__snapshot", input: {} } }]),
      sseTurn([{ text: "I see the page." }]),
      sseTurn([{ text: "Still there." }]),
    );
    await s.prompt("look at the page");
    await s.prompt("and again");
    const result = (body: any) => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === "tool_result");
    for (const request of model.requests.slice(1)) {
      expect(result(request.body)).toMatchObject({
        tool_use_id: "toolu_1",
        content: [
          { type: "text", text: "snapshot of the page\n[image: image/png, 12.0 KB]" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64(12 * 1024) } },
        ],
      });
    }
    expect(model.requests).toHaveLength(3);
  });

  it("an image over the cap reaches the model as the note only (the request stays sendable)", async () => {
    const s = await session();
    await s.startMcp();
    model.enqueue(sseTurn([{ toolUse: { id: "toolu_2", name: "mcp__browser__snapshot", input: { bytes: 4 * 1024 * 1024 } } }]), sseTurn([{ text: "too big" }]));
    await s.prompt("look");
    const body = model.requests[1]!.body;
    expect(JSON.stringify(body)).not.toContain('"type":"image"');
    const block = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === "tool_result");
    expect(block.content).toBe("snapshot of the page\n[image: image/png, 4.0 MB — not sent to the model: 5.3 MB as base64, over the 5.0 MB an image may be]");
  });
});
