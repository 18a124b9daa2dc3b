import { afterEach, describe, expect, it } from "vitest";
import { parseMcpServers } from "../src/mcp/config.js";
import { startFakeHttpMcp, type FakeHttpMcp } from "../test/mcp/fake-http-mcp-server.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
let mcp: FakeHttpMcp | undefined;
afterEach(async () => {
  h?.close();
  h = undefined;
  await mcp?.close();
  mcp = undefined;
});

describe("App: an MCP tool's image result", () => {
  it("shows as one line naming its type and size, never as base64", async () => {
    mcp = await startFakeHttpMcp();
    const mcpServers = parseMcpServers({ browser: { type: "http", url: mcp.url } }, "/test/settings.json", {}, []);
    h = renderApp((_r, n) => (n === 0 ? { toolCalls: [{ name: "mcp__browser__snapshot", arguments: {} }] } : { text: "looked at it" }), {
      session: { mcpServers, approval: { allow: ["mcp__browser__*"] } },
    });
    await h.session.startMcp();
    await typeAndSubmit(h.app, "take a snapshot");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("looked at it"), { what: "the answer" });
    expect(frame).toContain("[image: image/png, 12.0 KB]");
    expect(frame).not.toContain("iVBORw0KGgo"); // the PNG signature in base64
    expect(h.provider.requests[1]!.messages.some((m) => m.role === "toolResult" && m.results[0]!.images?.length === 1)).toBe(true);
  });
});
