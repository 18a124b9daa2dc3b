import { describe, expect, it } from "vitest";
import { runAgentLoop, streamAgentLoop } from "../../src/core/loop.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { EventStream } from "../../src/protocol/event-stream.js";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../../src/protocol/messages.js";
import type { ProviderEvent } from "../../src/protocol/provider.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { isHistoryValid } from "../../src/session/repair.js";
import { echoTool, sleeper, type Timeline } from "../helpers/fake-tools.js";

const base = { model: "m", system: "sys", cwd: process.cwd() };

describe("runAgentLoop", () => {
  it("runs multi-turn tool use and stops when the model answers without tools", async () => {
    const provider = createScriptedProvider([
      { text: "let me echo", toolCalls: [{ id: "t1", name: "echo", arguments: { text: "hi" } }], usage: { input: 10, output: 5 } },
      { text: "all done", usage: { input: 10, output: 5 } },
    ]);
    const history: AgentMessage[] = [];
    const events: AgentEvent[] = [];
    const result = await runAgentLoop({ ...base, provider, tools: [echoTool], history, userMessage: "go", onEvent: (e) => events.push(e) });
    expect(result.reason).toBe("done");
    expect(result.turns).toBe(2);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect((history[2] as ToolResultMessage).results).toEqual([{ toolCallId: "t1", toolName: "echo", content: "echo: hi", isError: false }]);
    // the second request carried the tool result back to the model, and tool specs as JSON schema
    expect(provider.requests[1]!.messages).toHaveLength(3);
    expect(provider.requests[0]!.tools[0]!.inputSchema).toMatchObject({ type: "object", properties: { text: { type: "string" } } });
    const types = events.map((e) => e.type);
    expect(types).toContain("text_delta");
    expect(types.indexOf("tool_start")).toBeLessThan(types.indexOf("tool_end"));
    expect(types.filter((t) => t === "turn_start")).toHaveLength(2);
    expect(types.at(-1)).toBe("agent_end");
    expect(result.usage.input).toBe(20);
  });

  it("runs overlap-safe calls concurrently and the rest one at a time, in order", async () => {
    const timeline: Timeline = { log: [] };
    const tools = [sleeper("look", timeline, { concurrent: true }), sleeper("change", timeline, { concurrent: false })];
    const provider = createScriptedProvider([
      {
        toolCalls: [
          { name: "look", arguments: { label: "r1" } },
          { name: "look", arguments: { label: "r2" } },
          { name: "change", arguments: { label: "w1" } },
          { name: "change", arguments: { label: "w2" } },
          { name: "look", arguments: { label: "r3" } },
        ],
      },
      { text: "ok" },
    ]);
    const history: AgentMessage[] = [];
    await runAgentLoop({ ...base, provider, tools, history, userMessage: "go" });
    // r1 and r2 overlap; w1, w2 and r3 each run alone, in order
    expect(timeline.log).toEqual(["start r1", "start r2", "end r1", "end r2", "start w1", "end w1", "start w2", "end w2", "start r3", "end r3"]);
    const results = (history[2] as ToolResultMessage).results.map((r) => r.content);
    expect(results).toEqual(["r1 done", "r2 done", "w1 done", "w2 done", "r3 done"]);
  });

  it("turns refused, unknown and invalid calls into error results the model sees", async () => {
    const provider = createScriptedProvider([
      {
        toolCalls: [
          { id: "a", name: "echo", arguments: { text: "secret" } },
          { id: "b", name: "nope", arguments: {} },
          { id: "c", name: "echo", arguments: { text: 42 } },
          { id: "d", name: "echo", arguments: { text: "fine" } },
        ],
      },
      { text: "adapted" },
    ]);
    const history: AgentMessage[] = [];
    const result = await runAgentLoop({
      ...base,
      provider,
      tools: [echoTool],
      history,
      userMessage: "go",
      onToolCall: (call) => (call.arguments.text === "secret" ? { allow: false, reason: "secrets are off limits" } : { allow: true }),
    });
    expect(result.reason).toBe("done");
    const [a, b, c, d] = (history[2] as ToolResultMessage).results;
    expect(a).toMatchObject({ isError: true, content: expect.stringContaining("secrets are off limits") });
    expect(b).toMatchObject({ isError: true, content: expect.stringMatching(/unknown tool "nope".*echo/) });
    expect(c).toMatchObject({ isError: true, content: expect.stringMatching(/invalid arguments for echo: text:/) });
    expect(d).toMatchObject({ isError: false, content: "echo: fine" });
    expect(provider.requests[1]!.messages.at(-1)).toEqual(history[2]);
  });

  it("abort mid-stream keeps streamed text and stops", async () => {
    const controller = new AbortController();
    const provider = createScriptedProvider([{ text: "thinking about it", delayMs: 10_000 }]);
    const history: AgentMessage[] = [];
    const done = runAgentLoop({
      ...base,
      provider,
      tools: [echoTool],
      history,
      userMessage: "go",
      signal: controller.signal,
      onEvent: (e) => e.type === "text_delta" && controller.abort(),
    });
    const result = await done;
    expect(result.reason).toBe("aborted");
    expect(history.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", content: [{ type: "text", text: "thinking about it" }] });
    expect(isHistoryValid(history)).toBe(true);
  });

  it("abort mid-stream drops tool calls of the unfinished message (they never ran; thinking would be missing)", async () => {
    const controller = new AbortController();
    const provider = {
      name: "custom",
      defaultModel: "m",
      contextWindow: () => 1000,
      stream: (req: { signal?: AbortSignal }) => {
        const s = new EventStream<ProviderEvent, AssistantMessage>();
        s.push({ type: "thinking_delta", text: "hmm" });
        s.push({ type: "text_delta", text: "I will look" });
        s.push({ type: "toolcall_end", call: { type: "toolCall", id: "x", name: "echo", arguments: { text: "a" } } });
        req.signal?.addEventListener("abort", () => s.fail(new ProviderError("aborted", "aborted")));
        setImmediate(() => controller.abort());
        return s;
      },
    };
    const history: AgentMessage[] = [];
    const result = await runAgentLoop({ ...base, provider, tools: [echoTool], history, userMessage: "go", signal: controller.signal });
    expect(result.reason).toBe("aborted");
    expect(history.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: "I will look" }], stopReason: "aborted", usage: expect.any(Object), abortedUsage: { input: 0, output: expect.any(Number), cacheRead: 0, cacheWrite: 0 } });
    expect(isHistoryValid(history)).toBe(true);
  });

  it("a failing onMessage (e.g. a full disk) never leaves history invalid; it becomes an error event", async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ id: "t", name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
    const history: AgentMessage[] = [];
    const events: AgentEvent[] = [];
    let calls = 0;
    const result = await runAgentLoop({
      ...base,
      provider,
      tools: [echoTool],
      history,
      userMessage: "go",
      onEvent: (e) => events.push(e),
      onMessage: () => {
        if (++calls === 2) throw new Error("ENOSPC: no space left on device");
      },
    });
    expect(result.reason).toBe("done");
    expect(isHistoryValid(history)).toBe(true);
    expect(events.some((e) => e.type === "error" && e.message.includes("ENOSPC"))).toBe(true);
  });

  it("abort mid-tool leaves every tool call with exactly one result", async () => {
    const timeline: Timeline = { log: [] };
    const controller = new AbortController();
    const tools = [sleeper("look", timeline, { concurrent: true, ms: 10_000 }), sleeper("change", timeline, { concurrent: false, ms: 10_000 })];
    const provider = createScriptedProvider([
      {
        toolCalls: [
          { id: "x1", name: "look", arguments: { label: "r1" } },
          { id: "x2", name: "change", arguments: { label: "w1" } },
          { id: "x3", name: "change", arguments: { label: "w2" } },
        ],
      },
      { text: "never reached" },
    ]);
    const history: AgentMessage[] = [];
    const result = await runAgentLoop({
      ...base,
      provider,
      tools,
      history,
      userMessage: "go",
      signal: controller.signal,
      // abort once the first tool is running
      onEvent: (e) => e.type === "tool_start" && queueMicrotask(() => controller.abort()),
    });
    expect(result.reason).toBe("aborted");
    expect(provider.requests).toHaveLength(1);
    const results = (history.at(-1) as ToolResultMessage).results;
    expect(results.map((r) => r.toolCallId)).toEqual(["x1", "x2", "x3"]);
    expect(results.every((r) => r.isError)).toBe(true);
    expect(timeline.log).toEqual(["start r1", "end r1"]); // w1, w2 never started
    expect(isHistoryValid(history)).toBe(true);
  });

  it("stops after maxIterations model calls", async () => {
    const provider = createScriptedProvider(() => ({ toolCalls: [{ name: "echo", arguments: { text: "again" } }] }));
    const history: AgentMessage[] = [];
    const result = await runAgentLoop({ ...base, provider, tools: [echoTool], history, userMessage: "go", maxIterations: 3 });
    expect(result).toMatchObject({ reason: "max_iterations", turns: 3 });
    expect(provider.requests).toHaveLength(3);
    expect(isHistoryValid(history)).toBe(true);
  });

  it("rethrows a provider error after leaving history valid", async () => {
    const provider = createScriptedProvider([
      { toolCalls: [{ name: "echo", arguments: { text: "x" } }] },
      { error: new ProviderError("api", "credit balance too low", { status: 400 }) },
    ]);
    const history: AgentMessage[] = [];
    await expect(runAgentLoop({ ...base, provider, tools: [echoTool], history, userMessage: "go" })).rejects.toThrow("credit balance too low");
    expect(isHistoryValid(history)).toBe(true);
  });

  it("compacts once and retries when the context is too long; a second overflow is fatal", async () => {
    const overflow = () => new ProviderError("context_overflow", "prompt is too long");
    const provider = createScriptedProvider([{ error: overflow() }, { text: "fits now" }]);
    const history: AgentMessage[] = [{ role: "user", content: "old stuff" }];
    let compactions = 0;
    const onContextOverflow = async (h: AgentMessage[]) => {
      compactions++;
      h.splice(0, 1);
      return true;
    };
    const result = await runAgentLoop({ ...base, provider, tools: [], history, userMessage: "go", onContextOverflow });
    expect(result.reason).toBe("done");
    expect(compactions).toBe(1);
    // a later overflow in the same run may compact again (after a successful call)
    const later = createScriptedProvider([{ error: overflow() }, { toolCalls: [{ name: "echo", arguments: { text: "a" } }] }, { error: overflow() }, { text: "fits again" }]);
    compactions = 0;
    const again = await runAgentLoop({ ...base, provider: later, tools: [echoTool], history: [{ role: "user", content: "x" }], userMessage: "go", onContextOverflow });
    expect(again.reason).toBe("done");
    expect(compactions).toBe(2);
    const twice = createScriptedProvider([{ error: overflow() }, { error: overflow() }]);
    await expect(runAgentLoop({ ...base, provider: twice, tools: [], history: [], userMessage: "go", onContextOverflow })).rejects.toThrow("prompt is too long");
  });

  it("calls onBeforeTurn before every model call", async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
    const seen: number[] = [];
    await runAgentLoop({ ...base, provider, tools: [echoTool], history: [], userMessage: "go", onBeforeTurn: (h) => void seen.push(h.length) });
    expect(seen).toEqual([1, 3]);
  });

  it("streamAgentLoop yields the same events and the result", async () => {
    const provider = createScriptedProvider([{ text: "hello there" }]);
    const stream = streamAgentLoop({ ...base, provider, tools: [], history: [], userMessage: "hi" });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    expect(types[0]).toBe("agent_start");
    expect(types).toContain("text_delta");
    expect((await stream.result()).reason).toBe("done");
  });
});

describe("toToolSpec", () => {
  it("converts a tool once and hands back the same spec after that", async () => {
    const { toToolSpec } = await import("../../src/tools/spec.js");
    const first = toToolSpec(echoTool);
    expect(first).toMatchObject({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } });
    expect(toToolSpec(echoTool)).toBe(first);
  });
});
