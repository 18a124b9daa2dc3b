/**
 * Choosing a model against a provider that lists its models (issue #38 item 2): the real SDK
 * against the loopback server. `/model` warns on an id the list lacks and resolves an alias to the
 * newest of its line; `/model` with no argument lists what is served; a child dispatched on a model
 * the list lacks runs with a warning instead of silently.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { modelListing } from "../../src/host/model-listing.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const model = (id: string, line: string, created: string) => ({ type: "model", id, display_name: id, created_at: created, line, lifecycle: "active", capabilities: null });
const SERVED = [model("claude-opus-9-1", "opus", "2026-11-01T00:00:00Z"), model("claude-sonnet-9-0", "sonnet", "2026-10-01T00:00:00Z"), model("claude-opus-9-0", "opus", "2026-09-01T00:00:00Z")];

let server: FakeAnthropic;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => server.close());
afterEach(() => server.reset());

async function listedSession(): Promise<AgentSession> {
  server.setModels(SERVED);
  const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, inkHome: temp("ink-home-"), maxRetries: 0 });
  await provider.refreshModels!();
  return new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "claude-sonnet-9-0", interactive: true, approval: {} });
}

describe("/model against the provider's list", () => {
  it("an id the provider does not list is set with a warning naming it; an alias becomes the newest of its line", async () => {
    const s = await listedSession();
    const warning = s.submit({ type: "set_model", model: "gpt-9" });
    expect(s.model).toBe("gpt-9");
    expect(warning).toMatch(/does not have "gpt-9".*claude-opus-9-1/);
    expect(s.submit({ type: "set_model", model: "opus" })).toBeUndefined();
    expect(s.model).toBe("claude-opus-9-1");
    s.close();
  });

  it("with no argument lists the served models, the current one marked, aliases beside their ids", async () => {
    const s = await listedSession();
    const lines = await modelListing(s.provider, s.model, Date.now());
    expect(lines[0]).toContain("model: claude-sonnet-9-0 (anthropic)");
    expect(lines[1]).toMatch(/3 models served by http:\/\/127\.0\.0\.1:\d+ \(list 0 min old\)/);
    expect(lines).toContain("  claude-opus-9-1  (opus, opusplan)");
    expect(lines).toContain("▸ claude-sonnet-9-0  (sonnet)");
    expect(lines).toContain("  claude-opus-9-0");
    s.close();
  });

  it("a provider with no list says so and shows the offline aliases", async () => {
    const lines = await modelListing(createScriptedProvider(() => ({ text: "x" })), "m");
    expect(lines[1]).toMatch(/scripted provider has no model list; aliases from Ink's offline table: sonnet → claude-sonnet-4-5/);
  });
});

describe("a child dispatched on a model the provider does not list", () => {
  it("runs with a warning that names the model (it was accepted silently before)", async () => {
    const s = await listedSession();
    server.setRouter((body) => {
      if (body.model === "gpt-4o") return sseTurn([{ text: "child report" }]);
      const last = body.messages.at(-1);
      const fromTool = Array.isArray(last.content) && last.content.some((b: { type: string }) => b.type === "tool_result");
      return fromTool ? sseTurn([{ text: "done" }]) : sseTurn([{ toolUse: { id: "t1", name: "task", input: { prompt: "look around", model: "gpt-4o" } } }]);
    });
    const events: AgentEvent[] = [];
    await s.submit({ type: "prompt", text: "go" }, { onEvent: (e) => events.push(e) });
    const childRequests = server.requests.filter((r) => r.body?.model === "gpt-4o");
    expect(childRequests.length).toBe(1);
    const warnings = JSON.stringify(events.filter((e) => JSON.stringify(e).includes('"source":"model"')));
    expect(warnings).toMatch(/task model: the anthropic provider's model list .* does not have \\"gpt-4o\\"/);
    s.close();
  });
});

describe("a profile's model alias at dispatch", () => {
  it("is the newest of its line the provider lists, not the offline table's id", async () => {
    const { resolveChildModel } = await import("../../src/subagents/runtime/resume-check.js");
    server.setModels(SERVED);
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, inkHome: temp("ink-home-") });
    expect(resolveChildModel(provider, "parent", { name: "a", model: "claude-opus-4-6", modelAlias: "opus", path: "a.md" })).toBe("claude-opus-4-6");
    await provider.refreshModels!();
    expect(resolveChildModel(provider, "parent", { name: "a", model: "claude-opus-4-6", modelAlias: "opus", path: "a.md" })).toBe("claude-opus-9-1");
  });
});
