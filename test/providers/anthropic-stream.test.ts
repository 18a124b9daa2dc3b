import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AgentMessage, AssistantMessage } from "../../src/protocol/messages.js";
import { anthropicAvailable, createAnthropicProvider } from "../../src/providers/anthropic.js";
import type { ModelRequest, Provider, ProviderEvent, ProviderStream } from "../../src/protocol/provider.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
let provider: Provider;

beforeAll(async () => {
  server = await startFakeAnthropic();
  provider = createAnthropicProvider({ apiKey: "test-key-123", baseURL: server.url, baseDelayMs: 1, maxDelayMs: 2 });
});
afterAll(async () => server.close());
afterEach(() => {
  server.reset();
  vi.unstubAllEnvs();
});

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are Ink.",
    messages: [{ role: "user", content: "hello" }],
    tools: [],
    model: "claude-test-model",
    maxTokens: 1000,
    ...overrides,
  };
}

async function collect(stream: ProviderStream): Promise<{ events: ProviderEvent[]; message: AssistantMessage }> {
  const events: ProviderEvent[] = [];
  for await (const e of stream) events.push(e);
  return { events, message: await stream.result() };
}

describe("anthropic provider: streaming", () => {
  it("streams text in several deltas and ends with the full message", async () => {
    server.enqueue(sseTurn([{ text: "Hello there, how can I help you today?" }], { model: "claude-served" }));
    const { events, message } = await collect(provider.stream(request()));

    const deltas = events.filter((e) => e.type === "text_delta").map((e) => (e as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello there, how can I help you today?");
    expect(message.content).toEqual([{ type: "text", text: "Hello there, how can I help you today?" }]);
    expect(message.stopReason).toBe("end_turn");
    expect(message.model).toBe("claude-served");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toMatch(/^\/v1\/messages/);
    expect(server.requests[0]!.body).toMatchObject({ model: "claude-test-model", max_tokens: 1000, stream: true });
  });

  it("sends the API key", async () => {
    server.enqueue(sseTurn([{ text: "ok" }]));
    await collect(provider.stream(request()));
    const h = server.requests[0]!.headers;
    expect(String(h["x-api-key"] ?? h.authorization)).toContain("test-key-123");
  });

  it("streams tool input in chunks and parses the arguments", async () => {
    const input = { path: "src/app.ts", offset: 10, limit: 20 };
    server.enqueue(sseTurn([{ text: "Reading." }, { toolUse: { id: "toolu_1", name: "read", input } }]));
    const { events, message } = await collect(provider.stream(request()));

    expect(events.find((e) => e.type === "toolcall_start")).toEqual({ type: "toolcall_start", id: "toolu_1", name: "read" });
    const chunks = events.filter((e) => e.type === "toolcall_delta");
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((e) => (e as { partialJson: string }).partialJson).join("")).toBe(JSON.stringify(input));
    const end = events.find((e) => e.type === "toolcall_end");
    expect(end).toEqual({ type: "toolcall_end", call: { type: "toolCall", id: "toolu_1", name: "read", arguments: input } });
    expect(message.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: input },
    ]);
    expect(message.stopReason).toBe("tool_use");
  });

  it("turns empty tool input into {} and unparsable input into {}", async () => {
    server.enqueue(
      sseTurn([
        { toolUse: { id: "t_empty", name: "ls", input: {}, rawJson: "" } },
        { toolUse: { id: "t_bad", name: "read", input: {}, rawJson: '{"path": "a' } },
      ]),
    );
    const { message } = await collect(provider.stream(request()));
    expect(message.content).toEqual([
      { type: "toolCall", id: "t_empty", name: "ls", arguments: {} },
      { type: "toolCall", id: "t_bad", name: "read", arguments: {} },
    ]);
  });

  it("reports usage including cache tokens", async () => {
    server.enqueue(sseTurn([{ text: "cached" }], { usage: { input: 120, output: 42, cacheRead: 900, cacheWrite: 300 } }));
    const { events, message } = await collect(provider.stream(request()));
    const expected = { input: 120, output: 42, cacheRead: 900, cacheWrite: 300 };
    expect(message.usage).toEqual(expected);
    expect(events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", usage: expected }]);
  });

  it("streams thinking with its signature and sends it back in the next request", async () => {
    server.enqueue(
      sseTurn([{ thinking: "Let me think about this carefully.", signature: "sig-abc" }, { redactedThinking: "opaque-data" }, { text: "Answer." }]),
    );
    const first = await collect(provider.stream(request({ thinking: { type: "on", budgetTokens: 2048 } })));
    expect(first.events.filter((e) => e.type === "thinking_delta").length).toBeGreaterThan(1);
    expect(first.message.content).toEqual([
      { type: "thinking", thinking: "Let me think about this carefully.", signature: "sig-abc" },
      { type: "thinking", thinking: "", redacted: "opaque-data" },
      { type: "text", text: "Answer." },
    ]);
    const sent = server.requests[0]!.body;
    expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(sent.max_tokens).toBeGreaterThan(2048);

    server.enqueue(sseTurn([{ text: "ok" }]));
    const history: AgentMessage[] = [{ role: "user", content: "q" }, first.message, { role: "user", content: "more" }];
    await collect(provider.stream(request({ messages: history })));
    expect(server.requests[1]!.body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Let me think about this carefully.", signature: "sig-abc" },
        { type: "redacted_thinking", data: "opaque-data" },
        { type: "text", text: "Answer." },
      ],
    });
    expect(server.requests[1]!.body.thinking).toBeUndefined();
  });
});

describe("anthropic provider: request conversion", () => {
  it("converts history with tool calls and a toolResult message, and marks cache breakpoints", async () => {
    server.enqueue(sseTurn([{ text: "done" }]));
    const history: AgentMessage[] = [
      { role: "user", content: "look at a.txt" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "Let me look." },
          { type: "toolCall", id: "t1", name: "read", arguments: { path: "a.txt" } },
          { type: "toolCall", id: "t2", name: "bash", arguments: { command: "false" } },
        ],
        stopReason: "tool_use",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
      },
      {
        role: "toolResult",
        results: [
          { toolCallId: "t1", toolName: "read", content: "1\thello", isError: false },
          { toolCallId: "t2", toolName: "bash", content: "exit code 1", isError: true },
        ],
      },
    ];
    const tools = [
      { name: "read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
      { name: "bash", description: "Run a command", inputSchema: { type: "object", properties: { command: { type: "string" } } } },
    ];
    await collect(provider.stream(request({ messages: history, tools })));
    const body = server.requests[0]!.body;

    expect(body.system).toEqual([{ type: "text", text: "You are Ink.", cache_control: { type: "ephemeral" } }]);
    expect(body.tools).toEqual([
      { name: "read", description: "Read a file", input_schema: tools[0]!.inputSchema },
      { name: "bash", description: "Run a command", input_schema: tools[1]!.inputSchema, cache_control: { type: "ephemeral" } },
    ]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "look at a.txt" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "t1", name: "read", input: { path: "a.txt" } },
          { type: "tool_use", id: "t2", name: "bash", input: { command: "false" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "1\thello" },
          { type: "tool_result", tool_use_id: "t2", content: "exit code 1", is_error: true, cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
    expect(body.thinking).toBeUndefined();
  });

  it("uses the default model when the request names none", async () => {
    server.enqueue(sseTurn([{ text: "ok" }]));
    vi.stubEnv("INK_MODEL", "claude-from-env");
    const p = createAnthropicProvider({ apiKey: "k", baseURL: server.url });
    expect(p.defaultModel).toBe("claude-from-env");
    expect(p.contextWindow("claude-from-env")).toBe(200_000);
    await collect(p.stream(request({ model: "" })));
    expect(server.requests[0]!.body.model).toBe("claude-from-env");
  });
});

describe("anthropicAvailable", () => {
  it("follows ANTHROPIC_API_KEY", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    expect(anthropicAvailable()).toBe(false);
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-test");
    expect(anthropicAvailable()).toBe(true);
  });
});
