/** The seed's contract rows still short after round two (issue #36): each test names its row. */
import { describe, expect, it, afterEach } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { buildSystemPrompt } from "../../src/core/system-prompt.js";
import { parseCliArgs } from "../../src/cli/args.js";
import { parseThinking, THINKING_BUDGETS, MIN_THINKING_BUDGET } from "../../src/protocol/field-parsers.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { TaskRecord } from "../../src/session/types.js";
import type { AnyTool } from "../../src/protocol/tool.js";
import { buildRequestBody } from "../../src/providers/anthropic-convert.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { parseProfile } from "../../src/subagents/profiles/profile-parse.js";
import { resolveDispatchModel } from "../../src/subagents/runtime/resume-check.js";
import { startedInBackgroundResult } from "../../src/subagents/runtime/child-job.js";
import { describeTask, taskSchema } from "../../src/subagents/tools/task-tool.js";
import { echoTool } from "../helpers/fake-tools.js";
import { harness, type Harness, idOf, isChild, lastResult, parentOnce, profile } from "../helpers/subagent-harness.js";
import { tempDir } from "../helpers/temp-dirs.js";

let h: Harness | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
});

describe("D-12: the resume hint says when a child can be resumed", () => {
  it("a finished child's result says it can be continued now or in a later session, while its instructions, model and directory are unchanged", async () => {
    h = harness((r) => (isChild(r) ? { text: "FOUND" } : parentOnce(() => ({ prompt: "look" }))(r)));
    await h.run("go");
    const hint = lastResult(h).content.split("\n").find((l) => l.startsWith("[task] child session"))!;
    expect(hint).toMatch(/it has ended — continue it with task\(\{resume: "\S+", prompt: "\.\.\."\}\)/);
    expect(hint).toContain("now or in a later session (after --continue or --resume too)");
    expect(hint).toContain("as long as its system prompt, tools, model and working directory are unchanged");
  });
});

describe("I-9: a resume refused for drift names the tool set and the system prompt when both changed", () => {
  it("a new tool and an edited profile are both named; a new tool alone does not blame the system prompt, even though the prompt lists the tools", async () => {
    let args: Record<string, unknown> = { prompt: "look", agent: "scout" };
    const scout = profile("scout");
    // The parent's prompt lists its tools, as the real one does: a new tool changes the tool list in it.
    const tools = (): AnyTool[] => h!.tools;
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)), { profiles: [scout], system: () => buildSystemPrompt({ cwd: "/w", tools: tools() }) });
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "more", resume: id };
    h.tools.splice(1, 0, { ...echoTool, name: "probe", description: "Probe something." } as AnyTool);
    Object.assign(scout, { body: "You are a different scout.", hash: "scout-edited" });
    await h.run("second");
    let content = lastResult(h).content;
    expect(lastResult(h).isError).toBe(true);
    expect(content).toContain("- tool set differs (new now: probe).");
    expect(content).toContain('- system prompt differs from the one the child was created with: the profile "scout" was edited (/profiles/scout.md).');
    // The tool alone: only the tool set is named.
    Object.assign(scout, { body: "You are scout.", hash: "scout" });
    await h.run("third");
    content = lastResult(h).content;
    expect(content).toContain("- tool set differs (new now: probe).");
    expect(content).not.toContain("system prompt differs");
    // Back as it was: the child continues.
    h.tools.splice(1, 1);
    await h.run("fourth");
    expect(lastResult(h).isError).toBe(false);
  });
});

describe("D-9 / H-4: without a session store a child's result and record say its work was not saved", () => {
  it("the task tool without a store: the result says not saved (not resumable), offers no resume, and the record says why there is no transcript", async () => {
    h = harness((r) => (isChild(r) ? { text: "FOUND" } : parentOnce(() => ({ prompt: "look" }))(r)), { store: false });
    await h.run("go");
    const res = lastResult(h);
    expect(res.isError).toBe(false);
    expect(res.content).toContain("FOUND");
    expect(res.content).toMatch(/\[task\] transcript not saved \(not resumable\): this session saves no transcripts/);
    expect(res.content).not.toContain("resume");
    const end = h.events.find((e) => e.type === "tool_end" && e.call.name === "task") as { details?: { taskRecord: { noTranscript?: string } } } | undefined;
    expect(end?.details?.taskRecord.noTranscript).toMatch(/^its transcript was not saved: this session saves no transcripts/);
  });

  it("an AgentSession with persist: false: the model is told, and the task record its events carry (no file to keep it) says so", async () => {
    const provider = createScriptedProvider((r) => (isChild(r) ? { text: "the report" } : r.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "look" } }] } : { text: "done" }));
    const session = new AgentSession({ cwd: tempDir("ink-cwd-"), inkHome: tempDir("ink-home-"), provider, model: "m", interactive: false, approval: {}, persist: false });
    const events: AgentEvent[] = [];
    await session.prompt("go", { onEvent: (e) => events.push(e) });
    session.close();
    expect(session.sessionPath).toBeUndefined();
    const result = provider.requests.at(-1)!.messages.find((m): m is ToolResultMessage => m.role === "toolResult")!.results[0]!;
    expect(result.content).toMatch(/\[task\] transcript not saved \(not resumable\): this session saves no transcripts/);
    expect(result.content).not.toContain("resume");
    const end = events.find((e) => e.type === "tool_end" && e.call.name === "task") as { details?: { taskRecord: TaskRecord } } | undefined;
    expect(end?.details?.taskRecord).toMatchObject({ status: "ok", sessionId: undefined, noTranscript: expect.stringMatching(/^its transcript was not saved: this session saves no transcripts/) });
  });

  it("a background child without a store is not promised a resume once it has ended", () => {
    expect(startedInBackgroundResult("c1", { saved: false }).output).not.toContain("once it has ended, the same call continues it");
    expect(startedInBackgroundResult("c1").output).toContain("once it has ended, the same call continues it");
  });
});

describe("E-4: thinking levels minimal and max", () => {
  it("parseThinking accepts minimal (the smallest budget) and max (above high)", () => {
    expect(parseThinking("minimal")).toEqual({ ok: true, value: { type: "on", budgetTokens: MIN_THINKING_BUDGET, level: "minimal" } });
    const max = parseThinking("max");
    expect(max.ok && max.value.type === "on" && max.value.budgetTokens).toBe(THINKING_BUDGETS.max);
    expect(THINKING_BUDGETS.max).toBeGreaterThan(THINKING_BUDGETS.high);
    const bad = parseThinking("extreme");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/minimal .*max/);
  });

  it("--thinking, a profile's thinking and the task tool's thinking take them", () => {
    expect(parseCliArgs(["--thinking", "max"]).thinking).toEqual({ type: "on", budgetTokens: THINKING_BUDGETS.max, level: "max" });
    expect(parseCliArgs(["--thinking", "minimal"]).thinking).toEqual({ type: "on", budgetTokens: MIN_THINKING_BUDGET, level: "minimal" });
    const parsed = parseProfile("---\nname: a\ndescription: b\nthinking: minimal\n---\nbody\n", { path: "/x/a.md", source: "user", hash: "h" });
    expect(parsed.ok && parsed.profile.thinking).toEqual({ type: "on", budgetTokens: MIN_THINKING_BUDGET, level: "minimal" });
    expect(taskSchema.safeParse({ prompt: "p", thinking: "max" }).success).toBe(true);
    expect(taskSchema.safeParse({ prompt: "p", thinking: "minimal" }).success).toBe(true);
  });

  it("the Anthropic request for max fits a 64k output limit with room for the answer", () => {
    const body = buildRequestBody({ system: "", messages: [{ role: "user", content: "q" }], tools: [], model: "m", maxTokens: 16_000, thinking: { type: "on", budgetTokens: THINKING_BUDGETS.max } }, "m");
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: THINKING_BUDGETS.max });
    expect(body.max_tokens).toBeLessThanOrEqual(64_000);
    expect(body.max_tokens).toBeGreaterThan(THINKING_BUDGETS.max);
  });
});

describe("B-4: a model path with slashes is a model, not a provider prefix", () => {
  it("vendor/models/x is passed whole to the provider; provider/model still strips the provider's own name", () => {
    const provider = createScriptedProvider([], { name: "anthropic", models: ["vendor/models/x", "claude-haiku-4-5"] });
    expect(resolveDispatchModel(provider, "vendor/models/x", "m")).toBe("vendor/models/x");
    expect(resolveDispatchModel(provider, "anthropic/claude-haiku-4-5", "m")).toBe("claude-haiku-4-5");
    expect(() => resolveDispatchModel(provider, "demo/claude-haiku-4-5", "m")).toThrow(/from provider "demo"/);
    // One slash before an unknown name is still read as another provider, unless the provider serves the whole id.
    expect(() => resolveDispatchModel(provider, "openai/gpt-5", "m")).toThrow(/from provider "openai"/);
    const proxy = createScriptedProvider([], { name: "anthropic", models: ["meta/llama-3"] });
    expect(resolveDispatchModel(proxy, "meta/llama-3", "m")).toBe("meta/llama-3");
  });

  it("a task call naming vendor/models/x runs the child on it", async () => {
    h = harness((r) => (isChild(r) ? { text: `model ${r.model}` } : parentOnce(() => ({ prompt: "look", model: "vendor/models/x" }))(r)), { models: ["scripted-model", "vendor/models/x"] });
    await h.run("go");
    expect(lastResult(h).isError).toBe(false);
    expect(lastResult(h).content).toContain("model vendor/models/x");
  });
});

describe("F-4: no agent roster when no agents are defined", () => {
  it("neither the system prompt nor the task description has an agents block", () => {
    const task = { ...echoTool, name: "task", description: describeTask([]) } as AnyTool;
    const system = buildSystemPrompt({ cwd: "/w", tools: [echoTool, task] });
    expect(system).toContain("# Delegation");
    expect(system).not.toContain("# Available agents");
    expect(describeTask([])).not.toMatch(/Available agents/);
    expect(describeTask([]).endsWith("\n")).toBe(false);
    expect(describeTask([profile("scout")])).toContain("- scout: scout profile");
    expect(buildSystemPrompt({ cwd: "/w", tools: [echoTool, task], agentList: "- scout: finds" })).toContain("# Available agents\n- scout: finds");
  });
});
