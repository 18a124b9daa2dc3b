import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resolveProvider } from "../../src/providers/registry.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { modelCachePath } from "../../src/providers/model-cache.js";
import { resolveModelAlias, unservedModelWarning } from "../../src/protocol/model-catalog.js";
import { parseThinking } from "../../src/protocol/field-parsers.js";
import type { ModelRequest, ProviderStream, ThinkingConfig } from "../../src/protocol/provider.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

/** A ModelInfo as the Messages API lists it. */
function info(id: string, line: string | null, createdAt: string, opts: { effort?: boolean; adaptive?: boolean; budget?: boolean; retired?: boolean } = {}) {
  const yes = (b: boolean | undefined) => ({ supported: b === true });
  return {
    type: "model",
    id,
    display_name: id,
    created_at: createdAt,
    line,
    lifecycle: opts.retired ? "retired" : "active",
    deprecated_at: null,
    retires_at: null,
    max_input_tokens: 200000,
    max_tokens: 64000,
    capabilities: {
      effort: { supported: opts.effort === true, low: yes(opts.effort), medium: yes(opts.effort), high: yes(opts.effort), max: yes(opts.effort), xhigh: null },
      thinking: { supported: true, types: { adaptive: yes(opts.adaptive), enabled: yes(opts.budget), disabled: yes(true), between_tools: yes(false) } },
    },
  };
}

const SERVED = [
  info("claude-opus-9-1", "opus", "2026-11-01T00:00:00Z", { effort: true, adaptive: true }),
  info("claude-sonnet-9-0", "sonnet", "2026-10-01T00:00:00Z", { effort: true, adaptive: true }),
  info("claude-opus-9-0", "opus", "2026-09-01T00:00:00Z", { effort: true, adaptive: true }),
  info("claude-haiku-9-9", "haiku", "2026-12-01T00:00:00Z", { retired: true }),
  info("claude-haiku-8-0", "haiku", "2026-08-01T00:00:00Z", { budget: true }),
  info("claude-fable-9-0", "fable", "2026-07-01T00:00:00Z", { effort: true, budget: true }),
];

let server: FakeAnthropic;
let home: string;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => server.close());
afterEach(() => {
  server.reset();
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
});

function provider(opts: { maxAge?: number; defaultEffort?: string } = {}) {
  home = mkdtempSync(join(tmpdir(), "ink-models-"));
  return createAnthropicProvider({ apiKey: "k", baseURL: server.url, inkHome: home, maxRetries: 0, ...(opts.maxAge !== undefined ? { modelCacheMaxAgeMs: opts.maxAge } : {}), ...(opts.defaultEffort ? { defaultEffort: opts.defaultEffort } : {}) });
}

function request(model: string, thinking?: ThinkingConfig): ModelRequest {
  return { system: "", messages: [{ role: "user", content: "hi" }], tools: [], model, maxTokens: 1000, ...(thinking ? { thinking } : {}) };
}

async function drain(stream: ProviderStream): Promise<void> {
  for await (const _ of stream) void _;
  await stream.result();
}

function level(text: string): ThinkingConfig {
  const parsed = parseThinking(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe("anthropic provider: the model list", () => {
  it("asks GET /v1/models through the SDK (every page), leaves retired models out, and caches the list in INK_HOME with its time", async () => {
    server.setModels(SERVED);
    const p = provider();
    const catalog = await p.refreshModels!();
    expect(server.modelRequests.length).toBeGreaterThanOrEqual(1);
    expect(catalog!.models.map((m) => m.id)).toEqual(["claude-opus-9-1", "claude-sonnet-9-0", "claude-opus-9-0", "claude-haiku-8-0", "claude-fable-9-0"]);
    const cached = JSON.parse(readFileSync(modelCachePath(home), "utf8"));
    expect(cached[server.url].models).toHaveLength(5);
    expect(typeof cached[server.url].fetchedAt).toBe("number");
    // a second provider on the same home reads the cache and does not ask again while it is fresh
    const again = createAnthropicProvider({ apiKey: "k", baseURL: server.url, inkHome: home });
    expect(again.modelCatalog!()!.models).toHaveLength(5);
    const before = server.modelRequests.length;
    await again.refreshModels!();
    expect(server.modelRequests.length).toBe(before);
  });

  it("fetches again when the cached list is older than its age limit", async () => {
    server.setModels(SERVED);
    const p = provider({ maxAge: 0 });
    await p.refreshModels!();
    const first = server.modelRequests.length;
    await p.refreshModels!();
    expect(server.modelRequests.length).toBeGreaterThan(first);
  });

  it("a server without a model list leaves no catalog (the offline table serves) and never fails", async () => {
    const p = provider();
    await expect(p.refreshModels!()).resolves.toBeUndefined();
    expect(p.modelCatalog!()).toBeUndefined();
  });

  it("an alias sent as the model goes out as the newest id of its line the provider serves", async () => {
    server.setModels(SERVED);
    const p = provider();
    await p.refreshModels!();
    server.enqueue(sseTurn([{ text: "ok" }]));
    await drain(p.stream(request("opus")));
    expect(server.requests[0]!.body.model).toBe("claude-opus-9-1");
  });
});

describe("anthropic provider: background work stops", () => {
  it("stopBackground drops a model list still being fetched (its request is closed, nothing cached); a later refresh fetches again", async () => {
    server.setModels(SERVED, { delayMs: 30_000 });
    const p = provider();
    const refreshing = p.refreshModels!();
    for (let i = 0; i < 200 && server.modelRequests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    p.stopBackground!();
    expect(await refreshing).toBeUndefined();
    expect(await server.modelRequests[0]!.finished).toBe("client_closed");
    expect(() => readFileSync(modelCachePath(home))).toThrow();
    server.setModels(SERVED);
    expect((await p.refreshModels!())?.models.map((m) => m.id)).toContain("claude-opus-9-1");
  });
});

describe("anthropic provider: an alias is resolved once per model change", () => {
  it("a list refreshed mid-session does not move an alias to another model; a new model name is resolved against the new list", async () => {
    server.setModels(SERVED.filter((m) => m.id !== "claude-opus-9-1"));
    const p = provider();
    await p.refreshModels!();
    server.setModels(SERVED);
    server.enqueue(sseTurn([{ text: "ok" }]), sseTurn([{ text: "ok" }]), sseTurn([{ text: "ok" }]), sseTurn([{ text: "ok" }]));
    await drain(p.stream(request("opus")));
    await p.refreshModels!(true);
    await drain(p.stream(request("opus")));
    await drain(p.stream(request("sonnet")));
    await drain(p.stream(request("opus")));
    expect(server.requests.map((r) => r.body.model)).toEqual(["claude-opus-9-0", "claude-opus-9-0", "claude-sonnet-9-0", "claude-opus-9-1"]);
  });
});

describe("anthropic provider: thinking as the effort setting", () => {
  it("a model that takes effort gets output_config.effort and adaptive thinking, no budget", async () => {
    server.setModels(SERVED);
    const p = provider();
    await p.refreshModels!();
    server.enqueue(sseTurn([{ text: "ok" }]));
    await drain(p.stream(request("claude-opus-9-1", level("high"))));
    const body = server.requests[0]!.body;
    expect(body.output_config).toEqual({ effort: "high" });
    expect(body.thinking).toEqual({ type: "adaptive" });
    expect(body.max_tokens).toBe(1000);
  });

  it("a model that takes effort but not adaptive thinking keeps the budget beside the effort", async () => {
    server.setModels(SERVED);
    const p = provider();
    await p.refreshModels!();
    server.enqueue(sseTurn([{ text: "ok" }]));
    await drain(p.stream(request("claude-fable-9-0", level("low"))));
    const body = server.requests[0]!.body;
    expect(body.output_config).toEqual({ effort: "low" });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 4000 });
  });

  it("a model without effort gets the token budget as before", async () => {
    server.setModels(SERVED);
    const p = provider();
    await p.refreshModels!();
    server.enqueue(sseTurn([{ text: "ok" }]));
    await drain(p.stream(request("claude-haiku-8-0", level("medium"))));
    const body = server.requests[0]!.body;
    expect(body.output_config).toBeUndefined();
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 10000 });
  });

  it("with no list, the offline table decides: a 4.6-or-later model gets effort, an older one the budget", async () => {
    const p = provider();
    server.enqueue(sseTurn([{ text: "ok" }]), sseTurn([{ text: "ok" }]));
    await drain(p.stream(request("claude-opus-4-7", level("max"))));
    await drain(p.stream(request("claude-sonnet-4-5", level("max"))));
    expect(server.requests[0]!.body.output_config).toEqual({ effort: "max" });
    expect(server.requests[0]!.body.thinking).toEqual({ type: "adaptive" });
    expect(server.requests[1]!.body.output_config).toBeUndefined();
    expect(server.requests[1]!.body.thinking.type).toBe("enabled");
  });
});

describe("anthropic provider: the default effort (Claude Code's effortLevel)", () => {
  it("goes alone as output_config.effort to a model that takes effort when no thinking is set; never to another model, nor over a thinking setting", async () => {
    server.setModels(SERVED);
    const p = provider({ defaultEffort: "medium" });
    await p.refreshModels!();
    for (let i = 0; i < 5; i++) server.enqueue(sseTurn([{ text: "ok" }]));
    await drain(p.stream(request("claude-opus-9-1")));
    await drain(p.stream(request("claude-haiku-8-0")));
    await drain(p.stream(request("claude-opus-9-1", { type: "off" })));
    await drain(p.stream(request("claude-opus-9-1", level("high"))));
    await drain(p.stream(request("claude-opus-4-6"))); // not in the list: the offline table says it takes effort
    const sent = server.requests.map((r) => ({ effort: r.body.output_config?.effort, thinking: r.body.thinking?.type }));
    expect(sent).toEqual([
      { effort: "medium", thinking: undefined },
      { effort: undefined, thinking: undefined },
      { effort: undefined, thinking: undefined },
      { effort: "high", thinking: "adaptive" },
      { effort: "medium", thinking: undefined },
    ]);
  });
});

describe("model aliases and the served list", () => {
  it("resolve to the newest of the line, else the offline table; opusplan is opus", () => {
    const served = [
      { id: "claude-opus-9-0", line: "opus", createdAt: "2026-01-01T00:00:00Z" },
      { id: "claude-opus-9-1", line: "opus", createdAt: "2026-02-01T00:00:00Z" },
    ];
    expect(resolveModelAlias("opus", served)).toBe("claude-opus-9-1");
    expect(resolveModelAlias("opusplan", served)).toBe("claude-opus-9-1");
    expect(resolveModelAlias("sonnet", served)).toBe("claude-sonnet-4-5");
    expect(resolveModelAlias("fable")).toMatch(/^claude-fable-/);
    expect(resolveModelAlias("claude-x")).toBe("claude-x");
  });

  it("an id the list lacks is a warning naming it and some that are served; none without a list", () => {
    const catalog = { source: "http://h", fetchedAt: 0, models: [{ id: "claude-a" }, { id: "claude-b" }] };
    expect(unservedModelWarning("gpt-9", catalog, "anthropic")).toMatch(/does not have "gpt-9".*claude-a, claude-b/);
    expect(unservedModelWarning("claude-a", catalog, "anthropic")).toBeUndefined();
    expect(unservedModelWarning("gpt-9", undefined, "anthropic")).toBeUndefined();
  });

  it("an unreadable cache file is no list, not a crash", () => {
    home = mkdtempSync(join(tmpdir(), "ink-models-"));
    mkdirSync(join(home, "cache"), { recursive: true });
    writeFileSync(modelCachePath(home), "{not json");
    const p = createAnthropicProvider({ apiKey: "k", baseURL: server.url, inkHome: home });
    expect(p.modelCatalog!()).toBeUndefined();
  });
});

describe("the model a run starts on", () => {
  it("--model opus (or settings' model: opus) is the newest opus the provider lists, and the list is cached for the next run", async () => {
    server.setModels(SERVED);
    home = mkdtempSync(join(tmpdir(), "ink-models-"));
    vi.stubEnv("ANTHROPIC_API_KEY", "k");
    vi.stubEnv("ANTHROPIC_BASE_URL", server.url);
    const run = await resolveProvider("anthropic", "opus", { inkHome: home });
    expect(run.model).toBe("claude-opus-9-1");
    server.setModels(undefined); // the next run reads the cache
    const next = await resolveProvider("anthropic", "sonnet", { inkHome: home });
    expect(next.model).toBe("claude-sonnet-9-0");
  });

  it("a stale cached list serves an alias at once (no wait for the provider's list) and is fetched again in the background", async () => {
    home = mkdtempSync(join(tmpdir(), "ink-models-"));
    vi.stubEnv("ANTHROPIC_API_KEY", "k");
    vi.stubEnv("ANTHROPIC_BASE_URL", server.url);
    mkdirSync(join(home, "cache"), { recursive: true });
    writeFileSync(modelCachePath(home), JSON.stringify({ [server.url]: { source: server.url, fetchedAt: 0, models: [{ id: "claude-opus-9-0", line: "opus", createdAt: "2026-09-01T00:00:00Z" }] } }));
    server.setModels(SERVED);
    const run = await resolveProvider("anthropic", "opus", { inkHome: home });
    expect(run.model).toBe("claude-opus-9-0");
    // The refresh started in the background; waiting for it leaves the new list cached for the next run.
    await run.provider.refreshModels!();
    expect(server.modelRequests.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(readFileSync(modelCachePath(home), "utf8"))[server.url].models.map((m: { id: string }) => m.id)).toContain("claude-opus-9-1");
    expect((await resolveProvider("anthropic", "opus", { inkHome: home })).model).toBe("claude-opus-9-1");
  });
});
