import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/protocol/provider-error.js";
import { createAnthropicProvider, type AnthropicProviderOptions } from "../../src/providers/anthropic.js";
import type { ModelRequest, ProviderEvent, ProviderStream } from "../../src/protocol/provider.js";
import { httpError, sseError, sseTurn, startFakeAnthropic, turnEvents, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => server.close());
afterEach(() => server.reset());

const req = (signal?: AbortSignal): ModelRequest => ({
  system: "sys",
  messages: [{ role: "user", content: "hi" }],
  tools: [],
  model: "claude-test",
  maxTokens: 100,
  signal,
});

function provider(extra: AnthropicProviderOptions = {}) {
  return createAnthropicProvider({ apiKey: "test-key", baseURL: server.url, baseDelayMs: 1, maxDelayMs: 4, ...extra });
}

/** Drains the stream; returns its events and the error it failed with (or throws if it succeeded). */
async function failure(stream: ProviderStream): Promise<{ events: ProviderEvent[]; error: ProviderError }> {
  const events: ProviderEvent[] = [];
  for await (const e of stream) events.push(e);
  const error = await stream.result().then(
    () => {
      throw new Error("expected the stream to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return { events, error: error as ProviderError };
}

async function success(stream: ProviderStream) {
  const events: ProviderEvent[] = [];
  for await (const e of stream) events.push(e);
  return { events, message: await stream.result() };
}

describe("anthropic provider: retries", () => {
  it("retries a 529 overload and then succeeds, announcing the retry", async () => {
    server.enqueue(httpError(529, "overloaded_error", "Overloaded"), sseTurn([{ text: "second time lucky" }]));
    const { events, message } = await success(provider().stream(req()));
    expect(server.requests).toHaveLength(2);
    const retry = events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({ type: "retry", attempt: 1 });
    expect((retry as { reason: string }).reason).toMatch(/overloaded/i);
    expect(events.findIndex((e) => e.type === "retry")).toBeLessThan(events.findIndex((e) => e.type === "text_delta"));
    expect(message.content).toEqual([{ type: "text", text: "second time lucky" }]);
  });

  it("honours retry-after on a 429 (the delay given to sleep)", async () => {
    const sleeps: number[] = [];
    const sleep = async (ms: number) => void sleeps.push(ms);
    server.enqueue(httpError(429, "rate_limit_error", "Number of request tokens has exceeded your rate limit", { "retry-after": "7" }), sseTurn([{ text: "ok" }]));
    const { events } = await success(provider({ sleep }).stream(req()));
    expect(sleeps).toEqual([7000]);
    expect(events.find((e) => e.type === "retry")).toMatchObject({ delayMs: 7000 });
    expect(server.requests).toHaveLength(2);
  });

  it("prefers retry-after-ms when present", async () => {
    const sleeps: number[] = [];
    server.enqueue(httpError(429, "rate_limit_error", "slow down", { "retry-after-ms": "1234", "retry-after": "2" }), sseTurn([{ text: "ok" }]));
    await success(provider({ sleep: async (ms) => void sleeps.push(ms) }).stream(req()));
    expect(sleeps).toEqual([1234]);
  });

  it("backs off exponentially and gives up after a bounded number of attempts", async () => {
    const sleeps: number[] = [];
    server.setFallback(httpError(529, "overloaded_error", "Overloaded"));
    const p = provider({ maxRetries: 3, baseDelayMs: 100, maxDelayMs: 250, random: () => 1, sleep: async (ms) => void sleeps.push(ms) });
    const { events, error } = await failure(p.stream(req()));
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([100, 200, 250]);
    expect(events.filter((e) => e.type === "retry").map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2, 3]);
    expect(error.kind).toBe("overloaded");
    expect(error.message).toMatch(/Anthropic API overloaded; gave up after 4 attempts over [\d.]+s/);
  });

  it("gives up when the next wait would pass the retry window", async () => {
    server.setFallback(httpError(429, "rate_limit_error", "slow down", { "retry-after": "600" }));
    const sleeps: number[] = [];
    const { error } = await failure(provider({ maxRetryWindowMs: 60_000, sleep: async (ms) => void sleeps.push(ms) }).stream(req()));
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBe(600_000);
    expect(error.message).toMatch(/gave up after 1 attempts/);
  });

  it("does not retry a 400 and reports the API's message", async () => {
    server.enqueue(httpError(400, "invalid_request_error", "messages.1.content: tool_use ids must be unique"), sseTurn([{ text: "never" }]));
    const { events, error } = await failure(provider().stream(req()));
    expect(server.requests).toHaveLength(1);
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(error.kind).toBe("api");
    expect(error.status).toBe(400);
    expect(error.message).toContain("tool_use ids must be unique");
    expect(server.pending()).toBe(1);
  });
});

describe("anthropic provider: error classification", () => {
  it.each([
    "prompt is too long: 210000 tokens > 200000 maximum",
    "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again",
  ])("classifies a 400 '%s' as context_overflow", async (message) => {
    server.enqueue(httpError(400, "invalid_request_error", message));
    const { error } = await failure(provider().stream(req()));
    expect(error.kind).toBe("context_overflow");
    expect(error.message).toContain(message);
    expect(server.requests).toHaveLength(1);
  });

  it("turns a 401 into an auth error naming ANTHROPIC_API_KEY", async () => {
    server.enqueue(httpError(401, "authentication_error", "invalid x-api-key"));
    const { error } = await failure(provider().stream(req()));
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(401);
    expect(error.message).toContain("ANTHROPIC_API_KEY");
    expect(error.message).toContain("ANTHROPIC_BASE_URL");
    expect(server.requests).toHaveLength(1);
  });

  it("fails with an auth error, without a request, when no key is set", async () => {
    const { error } = await failure(createAnthropicProvider({ apiKey: "", baseURL: server.url }).stream(req()));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("ANTHROPIC_API_KEY is not set");
    expect(server.requests).toHaveLength(0);
  });

  it("classifies an SSE error event (overloaded_error)", async () => {
    server.enqueue(sseError("overloaded_error", "Overloaded right now"));
    const { error } = await failure(provider({ maxRetries: 0 }).stream(req()));
    expect(error.kind).toBe("overloaded");
    expect(error.message).toContain("Overloaded right now");
  });

  it("retries an SSE error that arrives before any content", async () => {
    server.enqueue(sseError("overloaded_error", "Overloaded"), sseTurn([{ text: "recovered" }]));
    const { message } = await success(provider().stream(req()));
    expect(server.requests).toHaveLength(2);
    expect(message.content).toEqual([{ type: "text", text: "recovered" }]);
  });

  it("does not retry once content has been streamed", async () => {
    const partial = turnEvents([{ text: "partial answer here" }]).slice(0, 4); // start, ping, block start, first delta
    server.enqueue(
      { kind: "sse", events: [...partial, { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }] },
      sseTurn([{ text: "must not be used" }]),
    );
    const { events, error } = await failure(provider().stream(req()));
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    expect(error.kind).toBe("overloaded");
    expect(server.requests).toHaveLength(1);
    expect(server.pending()).toBe(1);
  });

  it("retries a stream cut off before any content, and fails one cut off after content as 'network'", async () => {
    const start = turnEvents([{ text: "some words here" }]);
    server.enqueue({ kind: "sse", events: start.slice(0, 2) }, sseTurn([{ text: "whole" }]));
    const { message } = await success(provider().stream(req()));
    expect(server.requests).toHaveLength(2);
    expect(message.content).toEqual([{ type: "text", text: "whole" }]);

    server.reset();
    server.enqueue({ kind: "sse", events: start.slice(0, 5) }, sseTurn([{ text: "unused" }]));
    const { error } = await failure(provider().stream(req()));
    expect(error.kind).toBe("network");
    expect(error.message).toContain("ended before the message was complete");
    expect(server.requests).toHaveLength(1);
  });

  it("reports a dead server as a network error naming the URL", async () => {
    const dead = await startFakeAnthropic();
    const url = dead.url;
    await dead.close();
    const p = createAnthropicProvider({ apiKey: "k", baseURL: url, maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 });
    const { events, error } = await failure(p.stream(req()));
    expect(error.kind).toBe("network");
    expect(error.message).toContain(url);
    expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
  });
});

describe("anthropic provider: abort", () => {
  it("fails with 'aborted' mid-stream and closes the HTTP request", async () => {
    const start = turnEvents([{ text: "a long answer that never finishes" }]).slice(0, 4);
    server.enqueue({ kind: "stall", events: start });
    const controller = new AbortController();
    const stream = createAnthropicProvider({ apiKey: "k", baseURL: server.url }).stream(req(controller.signal));
    const seen: ProviderEvent[] = [];
    for await (const e of stream) {
      seen.push(e);
      if (e.type === "text_delta") controller.abort();
    }
    await expect(stream.result()).rejects.toMatchObject({ kind: "aborted" });
    expect(seen.some((e) => e.type === "text_delta")).toBe(true);
    expect(await server.requests[0]!.finished).toBe("client_closed");
  });

  it("fails at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await failure(provider().stream(req(controller.signal)));
    expect(error.kind).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("an abort during a retry wait ends the stream as aborted", async () => {
    server.setFallback(httpError(529, "overloaded_error", "Overloaded"));
    const controller = new AbortController();
    const stream = provider({ baseDelayMs: 60_000, maxDelayMs: 60_000 }).stream(req(controller.signal));
    for await (const e of stream) if (e.type === "retry") controller.abort();
    await expect(stream.result()).rejects.toMatchObject({ kind: "aborted" });
    expect(server.requests).toHaveLength(1);
  });
});
