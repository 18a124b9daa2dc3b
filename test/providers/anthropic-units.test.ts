import { describe, expect, it } from "vitest";
import { buildRequestBody, toApiMessages } from "../../src/providers/anthropic-convert.js";
import { mapStopReason, parseToolInput } from "../../src/providers/anthropic-turn.js";
import { isContextOverflowMessage, retryAfterFrom } from "../../src/providers/classify-error.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import { abortableSleep, backoffDelay, isRetryable } from "../../src/providers/retry.js";

describe("anthropic helpers", () => {
  it("reads retry-after-ms, retry-after seconds and retry-after dates", () => {
    expect(retryAfterFrom(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(retryAfterFrom(new Headers({ "retry-after": "3" }))).toBe(3000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterFrom(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterFrom(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterFrom(new Headers())).toBeUndefined();
  });

  it("recognises context-overflow messages and nothing else", () => {
    expect(isContextOverflowMessage("prompt is too long: 210000 tokens > 200000 maximum")).toBe(true);
    expect(isContextOverflowMessage("input length and `max_tokens` exceed context limit: 1 + 2 > 3")).toBe(true);
    expect(isContextOverflowMessage("max_tokens: must be less than or equal to 64000")).toBe(false);
    expect(isContextOverflowMessage("messages.0.content: text content blocks must be non-empty")).toBe(false);
  });

  it("computes exponential backoff with jitter, capped, and honours retry-after", () => {
    const policy = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryWindowMs: 60_000 };
    expect(backoffDelay(1, { ...policy, random: () => 1 })).toBe(1000);
    expect(backoffDelay(3, { ...policy, random: () => 1 })).toBe(4000);
    expect(backoffDelay(3, { ...policy, random: () => 0 })).toBe(2000);
    expect(backoffDelay(10, { ...policy, random: () => 1 })).toBe(30_000);
    expect(backoffDelay(1, policy, 7000)).toBe(7000);
  });

  it("retries only transient failures", () => {
    expect(isRetryable(new ProviderError("overloaded", "x"))).toBe(true);
    expect(isRetryable(new ProviderError("rate_limited", "x"))).toBe(true);
    expect(isRetryable(new ProviderError("network", "x"))).toBe(true);
    expect(isRetryable(new ProviderError("api", "x", { status: 503 }))).toBe(true);
    expect(isRetryable(new ProviderError("api", "x", { status: 400 }))).toBe(false);
    expect(isRetryable(new ProviderError("context_overflow", "x", { status: 400 }))).toBe(false);
    expect(isRetryable(new ProviderError("auth", "x", { status: 401 }))).toBe(false);
  });

  it("abortableSleep rejects with kind 'aborted' when the signal fires", async () => {
    const controller = new AbortController();
    const pending = abortableSleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: "aborted" });
  });

  it("maps stop reasons and parses tool input", () => {
    expect(mapStopReason("tool_use")).toBe("tool_use");
    expect(mapStopReason("model_context_window_exceeded")).toBe("max_tokens");
    expect(mapStopReason(null)).toBe("end_turn");
    expect(parseToolInput("")).toEqual({});
    expect(parseToolInput('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolInput("[1,2]")).toEqual({});
    expect(parseToolInput("{broken")).toEqual({});
  });

  it("drops empty messages and merges same-role neighbours so roles alternate", () => {
    const out = toApiMessages([
      { role: "user", content: "   " },
      { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "" }] },
      { role: "toolResult", results: [{ toolCallId: "t", toolName: "x", content: "", isError: false }] },
      { role: "user", content: "b" },
    ]);
    expect(out).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "tool_result", tool_use_id: "t", content: "(no output)" },
          { type: "text", text: "b" },
        ],
      },
    ]);
  });

  it("raises max_tokens above the thinking budget and omits an empty system prompt", () => {
    const body = buildRequestBody(
      { system: "", messages: [{ role: "user", content: "q" }], tools: [], model: "m", maxTokens: 1000, thinking: { type: "on", budgetTokens: 8000 } },
      "m",
    );
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 8000 });
    expect(body.max_tokens).toBeGreaterThan(8000);
    expect(body.system).toBeUndefined();
    expect(body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "q", cache_control: { type: "ephemeral" } }] }]);
  });
});

describe("anthropic ownsModel", () => {
  it("serves claude-* models on Anthropic's API and any model behind ANTHROPIC_BASE_URL", async () => {
    const { createAnthropicProvider } = await import("../../src/providers/anthropic.js");
    const direct = createAnthropicProvider({ apiKey: "k", baseURL: "" });
    expect(direct.ownsModel!("claude-haiku-4-5")).toBe(true);
    expect(direct.ownsModel!("gpt-4o")).toBe(false);
    const proxied = createAnthropicProvider({ apiKey: "k", baseURL: "http://127.0.0.1:1" });
    expect(proxied.ownsModel!("qwen-coder")).toBe(true);
  });
});
