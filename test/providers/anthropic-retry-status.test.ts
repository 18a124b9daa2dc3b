import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { drain, oneLineRequest as req, retries } from "../helpers/provider-drain.js";
import { httpError, sseTurn, startFakeAnthropic, turnEvents, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => server.close());
afterEach(() => server.reset());

const provider = () => createAnthropicProvider({ apiKey: "k", baseURL: server.url, baseDelayMs: 1, maxDelayMs: 2, maxRetries: 9 });


describe("anthropic provider: a socket closed mid-SSE", () => {
  it("is retried when nothing of the response was streamed yet, and said to be a dropped connection", async () => {
    const whole = turnEvents([{ text: "the whole answer" }]);
    server.enqueue({ kind: "drop", events: whole.slice(0, 2) }, sseTurn([{ text: "the whole answer" }]));
    const { events, text, error } = await drain(provider().stream(req));
    expect(error).toBeUndefined();
    expect(text).toBe("the whole answer");
    expect(server.requests).toHaveLength(2);
    const [retry] = retries(events);
    expect(retry).toMatchObject({ attempt: 1, maxAttempts: 10, label: "connection dropped" });
    expect(retry!.reason).toMatch(/dropped mid-response/);
    expect(retry!.reason).not.toMatch(/Could not reach/);
  });

  it("after part of the answer streamed: not retried, and the error says what happened (not 'could not reach')", async () => {
    const whole = turnEvents([{ text: "some words that will be cut" }]);
    server.enqueue({ kind: "drop", events: whole.slice(0, 4) }, sseTurn([{ text: "unused" }]));
    const { events, error } = await drain(provider().stream(req));
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    expect(error?.kind).toBe("network");
    expect(error?.message).toMatch(/dropped mid-response .* after part of the answer had streamed; not retried/);
    expect(error?.message).not.toMatch(/Could not reach/);
    expect(server.requests).toHaveLength(1);
  });
});

describe("anthropic provider: retry events carry a short label and the attempt budget", () => {
  it.each([
    ["429 rate limited", httpError(429, "rate_limit_error", "slow down")],
    ["529 overloaded", httpError(529, "overloaded_error", "Overloaded")],
    ["503 server error", httpError(503, "api_error", "unavailable")],
  ] as const)("%s", async (label, failure) => {
    server.enqueue(failure, sseTurn([{ text: "ok" }]));
    const { events } = await drain(provider().stream(req));
    expect(retries(events)).toEqual([expect.objectContaining({ attempt: 1, maxAttempts: 10, label })]);
  });

  it("a dead server is 'connection refused'", async () => {
    const dead = await startFakeAnthropic();
    await dead.close();
    const p = createAnthropicProvider({ apiKey: "k", baseURL: dead.url, maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 });
    const { events } = await drain(p.stream(req));
    expect(retries(events)[0]).toMatchObject({ label: "connection refused", maxAttempts: 2 });
  });
});
