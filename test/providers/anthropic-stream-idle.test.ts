/**
 * A model stream that sends only pings is cut after the idle limit and retried like a dropped
 * connection (a `retry` event labelled "stream stalled"); with no retries left the error says what
 * happened and how to change the limit. Against the loopback Messages-API server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { DEFAULT_STREAM_IDLE_MS, streamIdleMsFromEnv } from "../../src/providers/stream-idle.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import { pauseCause } from "../../src/subagents/runtime/pause.js";
import { drain, oneLineRequest as req, retries } from "../helpers/provider-drain.js";
import { sseTurn, startFakeAnthropic, turnEvents, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => server.close());
afterEach(() => server.reset());



describe("anthropic provider: a stream that sends only pings", () => {
  it.each([
    ["before message_start", []],
    ["after message_start", turnEvents([{ text: "x" }]).slice(0, 1)],
  ])("%s: cut after the idle limit and retried; the retry's answer arrives", async (_name, events) => {
    server.enqueue({ kind: "pings", events, everyMs: 10 }, sseTurn([{ text: "the answer" }]));
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, baseDelayMs: 1, maxDelayMs: 2, maxRetries: 3, idleTimeoutMs: 300 });
    const r = await drain(provider.stream(req));
    expect(r.error).toBeUndefined();
    expect(r.text).toBe("the answer");
    expect(server.requests).toHaveLength(2);
    const [retry] = retries(r.events);
    expect(retry).toMatchObject({ attempt: 1, maxAttempts: 4, label: "stream stalled" });
    expect(retry!.reason).toContain("sent no content for 0.3 s");
  });

  it("with no retries left: a network error that names the limit and INK_STREAM_IDLE_MS", async () => {
    server.enqueue({ kind: "pings", everyMs: 10 });
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, maxRetries: 0, idleTimeoutMs: 200 });
    const r = await drain(provider.stream(req));
    expect(r.error?.kind).toBe("network");
    expect(r.error?.message).toContain("sent no content for 0.2 s");
    expect(r.error?.message).toContain("INK_STREAM_IDLE_MS");
  });

  it("retries run out: the give-up error names the idle limit and does not pause a child (no further retries for the pause limit)", async () => {
    server.enqueue({ kind: "pings", everyMs: 10 }, { kind: "pings", everyMs: 10 });
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, baseDelayMs: 1, maxDelayMs: 2, maxRetries: 1, idleTimeoutMs: 200 });
    const r = await drain(provider.stream(req));
    expect(server.requests).toHaveLength(2);
    expect(r.error?.message).toMatch(/gave up after 2 attempts.*sent no content for 0\.2 s.*INK_STREAM_IDLE_MS/);
    expect(pauseCause(r.error)).toBeUndefined();
    // A connection reset given up the same way still pauses a child.
    expect(pauseCause(new ProviderError("network", "gave up", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) }))).toBe("connection reset");
  });

  it("an abort during the pings is an abort, not a stall", async () => {
    server.enqueue({ kind: "pings", everyMs: 10 });
    const controller = new AbortController();
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, maxRetries: 3, idleTimeoutMs: 60_000 });
    const stream = provider.stream({ ...req, signal: controller.signal });
    for (let i = 0; i < 200 && server.requests.length === 0; i++) await new Promise((res) => setTimeout(res, 10));
    controller.abort();
    const r = await drain(stream);
    expect(r.error?.kind).toBe("aborted");
    expect(retries(r.events)).toEqual([]);
  });
});

describe("INK_STREAM_IDLE_MS", () => {
  it("sets the limit; unset means the default; a bad value is refused naming it and the fix", () => {
    expect(streamIdleMsFromEnv({})).toBe(DEFAULT_STREAM_IDLE_MS);
    expect(streamIdleMsFromEnv({ INK_STREAM_IDLE_MS: "45000" })).toBe(45_000);
    expect(() => streamIdleMsFromEnv({ INK_STREAM_IDLE_MS: "soon" })).toThrow(/INK_STREAM_IDLE_MS="soon" is not a whole number of milliseconds .* unset it/);
  });
});
