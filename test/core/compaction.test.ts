import { describe, expect, it } from "vitest";
import { chooseCut, createCompactor, SUMMARISER_SYSTEM_PROMPT, type CompactionEntry, type CompactionEvent } from "../../src/core/compaction.js";
import { runAgentLoop } from "../../src/core/loop.js";
import { emptyUsage, userText, type AgentMessage, type AssistantMessage, type ToolResultMessage, type Usage } from "../../src/protocol/messages.js";
import { estimateMessageTokens, estimateTokens } from "../../src/core/token-estimate.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { WarningEvent } from "../../src/protocol/events.js";
import { isHistoryValid } from "../../src/session/repair.js";
import { COMPACTION_SUMMARY_PREFIX, compactionSummaryMessage } from "../../src/session/types.js";
import { echoTool } from "../helpers/fake-tools.js";

const WINDOW = 2_000;
const base = { model: "m", system: "sys", cwd: process.cwd(), tools: [echoTool] };

const filler = (tag: string, chars: number) => `${tag} ${"x".repeat(Math.max(0, chars - tag.length - 1))}`;
const assistant = (content: AssistantMessage["content"], usage: Usage = emptyUsage()): AssistantMessage => ({
  role: "assistant",
  content,
  stopReason: content.some((b) => b.type === "toolCall") ? "tool_use" : "end_turn",
  usage,
});

/** One finished exchange: question, a tool call, its result, an answer (~400 estimated tokens with the defaults). */
function round(i: number, sizes = { question: 400, args: 200, result: 600, answer: 200 }): AgentMessage[] {
  return [
    { role: "user", content: filler(`question ${i}`, sizes.question) },
    assistant([{ type: "toolCall", id: `c${i}`, name: "echo", arguments: { text: filler(`args ${i}`, sizes.args) } }]),
    { role: "toolResult", results: [{ toolCallId: `c${i}`, toolName: "echo", content: filler(`result ${i}`, sizes.result), isError: false }] },
    assistant([{ type: "text", text: filler(`answer ${i}`, sizes.answer) }]),
  ];
}
const rounds = (count: number) => Array.from({ length: count }, (_, i) => round(i)).flat();

const isSummariser = (r: ModelRequest) => r.system === SUMMARISER_SYSTEM_PROMPT;
/** Summariser calls answer `summary`; main calls follow `main` (indexed by main call). */
function script(main: (mainCall: number) => ScriptedTurn, summary: () => ScriptedTurn = () => ({ text: "SUMMARY: goals, files, next steps" })) {
  let mainCalls = 0;
  return (request: ModelRequest): ScriptedTurn => (isSummariser(request) ? summary() : main(mainCalls++));
}

function compactorFor(provider: ReturnType<typeof createScriptedProvider>, extra: { threshold?: number; keepRecentTokens?: number } = {}) {
  const entries: CompactionEntry[] = [];
  const events: Array<CompactionEvent | WarningEvent> = [];
  const compactor = createCompactor({
    provider,
    model: "m",
    system: () => base.system,
    contextWindow: WINDOW,
    ...extra,
    onCompaction: (e) => entries.push(e),
    onEvent: (e) => events.push(e),
  });
  const hooks = { onBeforeTurn: compactor.onBeforeTurn, onContextOverflow: compactor.onContextOverflow };
  return { compactor, entries, events, hooks };
}

describe("estimateTokens", () => {
  it("estimates from characters when no assistant message carries usage", () => {
    const messages = rounds(2);
    const chars = estimateTokens("s".repeat(400), messages);
    expect(chars).toBe(100 + messages.reduce((n, m) => n + estimateMessageTokens(m), 0));
    expect(chars).toBeGreaterThan(messages.map((m) => JSON.stringify(m)).join("").length / 5);
    expect(estimateTokens("s", messages, [{ name: "t", description: "d".repeat(400), inputSchema: {} }])).toBeGreaterThan(estimateTokens("s", messages) + 90);
  });

  it("prefers the last real usage plus an estimate of the messages after it", () => {
    const usage = { input: 1_000, output: 50, cacheRead: 500, cacheWrite: 20 };
    const after: ToolResultMessage = { role: "toolResult", results: [{ toolCallId: "k", toolName: "echo", content: "z".repeat(800), isError: false }] };
    const messages: AgentMessage[] = [
      ...rounds(1),
      { role: "user", content: "next" },
      assistant([{ type: "toolCall", id: "k", name: "echo", arguments: { text: "hi" } }], usage),
      after,
    ];
    expect(estimateTokens("sys", messages)).toBe(1_570 + estimateMessageTokens(after));
    // zero usage falls back to the character estimate
    const zeroed = messages.map((m) => (m.role === "assistant" ? { ...m, usage: emptyUsage() } : m));
    expect(estimateTokens("sys", zeroed)).toBe(estimateTokens("sys", zeroed.slice(0)));
    expect(estimateTokens("sys", zeroed)).not.toBe(1_570 + estimateMessageTokens(after));
    expect(estimateTokens("sys", messages, undefined, { usageUsable: () => false })).toBe(estimateTokens("sys", zeroed));
  });
});

describe("chooseCut", () => {
  it("keeps the most recent exchanges that fit, starting at a user message", () => {
    const history = [...round(0, { question: 40, args: 40, result: 4_000, answer: 40 }), ...round(1, { question: 40, args: 40, result: 40, answer: 40 }), { role: "user", content: "now" } as AgentMessage];
    const tailFrom4 = history.slice(4).reduce((n, m) => n + estimateMessageTokens(m), 0);
    expect(chooseCut(history, tailFrom4)).toBe(4);
    expect(chooseCut(history, tailFrom4 - 1)).toBe(8);
    // nothing worth replacing: fewer than 2 messages before the only possible cut
    expect(chooseCut([{ role: "user", content: "a" }, { role: "user", content: "b" }], 0)).toBeUndefined();
  });

  it("with a single prompt and many tool rounds, cuts before an assistant message, never between a call and its result", () => {
    const history: AgentMessage[] = [{ role: "user", content: "do the long task" }];
    for (let i = 0; i < 8; i++) history.push(...round(i).slice(1, 3));
    history.push(assistant([{ type: "text", text: "done" }]));
    const cuts = new Set<number>();
    for (let keep = 0; keep <= 3_000; keep += 10) {
      const cut = chooseCut(history, keep)!;
      cuts.add(cut);
      expect(cut).toBeGreaterThanOrEqual(2);
      expect(history[cut]!.role).toBe("assistant");
      expect(isHistoryValid([compactionSummaryMessage("s"), ...history.slice(cut)])).toBe(true);
    }
    expect(cuts.size).toBeGreaterThan(4); // the budget moves the cut
  });

  it("never splits a tool call from its result, whatever the history and budget", () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let trial = 0; trial < 200; trial++) {
      const history: AgentMessage[] = [];
      const exchanges = 1 + rand(5);
      for (let e = 0; e < exchanges; e++) {
        history.push({ role: "user", content: filler(`u${e}`, 10 + rand(400)) });
        const calls = rand(4);
        for (let c = 0; c < calls; c++) history.push(...round(e * 10 + c, { question: 1, args: 10 + rand(300), result: 10 + rand(900), answer: 1 }).slice(1, 3));
        history.push(assistant([{ type: "text", text: filler(`a${e}`, 10 + rand(300)) }]));
      }
      const cut = chooseCut(history, rand(1_500));
      if (cut === undefined) continue;
      expect(cut).toBeGreaterThanOrEqual(2);
      expect(cut).toBeLessThan(history.length);
      expect(history[cut]!.role).not.toBe("toolResult");
      expect(isHistoryValid([compactionSummaryMessage("s"), ...history.slice(cut)])).toBe(true);
    }
  });
});

describe("compaction in the agent loop", () => {
  it("below the threshold nothing happens and no summary is requested", async () => {
    const provider = createScriptedProvider(script(() => ({ text: "ok" })));
    const { entries, events, hooks } = compactorFor(provider);
    const history = rounds(2); // ~800 tokens of a 2000 window
    const before = structuredClone(history);
    await runAgentLoop({ ...base, provider, history, userMessage: "go on", ...hooks });
    expect(provider.requests.filter(isSummariser)).toHaveLength(0);
    expect(entries).toEqual([]);
    expect(events).toEqual([]);
    expect(history.slice(0, before.length)).toEqual(before);
    expect(provider.requests[0]!.messages).toHaveLength(before.length + 1);
  });

  it("above the threshold replaces older history by one summary message and keeps a valid recent tail", async () => {
    const provider = createScriptedProvider(script(() => ({ text: "continuing" })));
    const { entries, events, hooks } = compactorFor(provider);
    const history = rounds(6); // ~2400 tokens > 0.8 × 2000
    history.push({ role: "user", content: "c1: see child session 20260101-000000-abc123; continue it with task" });
    history.push(assistant([{ type: "toolCall", id: "t9", name: "task", arguments: { prompt: "more", resume: "20260101-000000-def456" } }]));
    history.push({ role: "toolResult", results: [{ toolCallId: "t9", toolName: "task", content: `report\n\n[task] child session 20260101-000000-def456; continue it with task({resume: "20260101-000000-def456", prompt: "..."})`, isError: false }] });
    history.push(assistant([{ type: "text", text: "child reported" }]));
    const original = [...history, { role: "user", content: "now finish" } as AgentMessage];

    await runAgentLoop({ ...base, provider, history, userMessage: "now finish", ...hooks });

    expect(entries).toHaveLength(1);
    const { summary, replacedCount } = entries[0]!;
    expect(summary).toBe("SUMMARY: goals, files, next steps");
    // the kept part starts at a user message: the earliest one whose tail fits ~20% of the window
    expect(original[replacedCount]!.role).toBe("user");
    const tail = (from: number) => original.slice(from).reduce((n, m) => n + estimateMessageTokens(m), 0);
    expect(tail(replacedCount)).toBeLessThanOrEqual(400);
    let earlierUser = replacedCount - 1;
    while (original[earlierUser]!.role !== "user") earlierUser--;
    expect(tail(earlierUser)).toBeGreaterThan(400);
    // the model saw exactly what a reloaded session would hold
    const expected = [compactionSummaryMessage(summary), ...original.slice(replacedCount)];
    const mainCall = provider.requests.find((r) => !isSummariser(r))!;
    expect(mainCall.messages).toEqual(expected);
    expect(history.slice(0, expected.length)).toEqual(expected);
    expect(userText(history[0] as never)).toContain(COMPACTION_SUMMARY_PREFIX);
    expect(isHistoryValid(history)).toBe(true);
    // the summariser got the old transcript, compactly rendered, with the child ids called out
    const request = provider.requests.find(isSummariser)!;
    expect(request.tools).toEqual([]);
    expect(request.maxTokens).toBeLessThanOrEqual(4_000);
    expect(request.messages).toHaveLength(1);
    const prompt = userText(request.messages[0] as never);
    expect(prompt).toContain("question 0");
    expect(prompt).toMatch(/echo\(\{"text":"args 0 x+"\}\)/);
    expect(prompt).toContain("characters omitted"); // 600-char tool results are clipped
    expect(prompt).not.toContain("now finish");
    expect(events.map((e) => e.type)).toEqual(["compaction_start", "compaction_end"]);
    expect(events[1]).toMatchObject({ ok: true, replacedCount });
  });

  it("lists child session ids from replaced task calls and results for the summariser", async () => {
    const provider = createScriptedProvider(script(() => ({ text: "x" })));
    const { compactor } = compactorFor(provider, { keepRecentTokens: 50 });
    const history: AgentMessage[] = [
      { role: "user", content: "delegate" },
      assistant([{ type: "toolCall", id: "t1", name: "task", arguments: { prompt: "look", resume: "20260101-000000-aaa111" } }]),
      { role: "toolResult", results: [{ toolCallId: "t1", toolName: "task", content: `${"r".repeat(5_000)}\n[task] child session 20260101-000000-bbb222; continue it with task({resume: "20260101-000000-bbb222", prompt: "..."})`, isError: false }] },
      assistant([{ type: "text", text: "ok" }]),
      { role: "user", content: "next" },
    ];
    expect(await compactor.compactNow(history)).toBe(true);
    const prompt = userText(provider.requests[0]!.messages[0] as never);
    expect(prompt).toMatch(/Child session ids[^\n]*20260101-000000-aaa111, 20260101-000000-bbb222/);
    expect(prompt).toContain('task({resume: "20260101-000000-bbb222"'); // the tail of a long task result survives clipping
    expect(history).toEqual([compactionSummaryMessage("SUMMARY: goals, files, next steps"), { role: "user", content: "next" }]);
  });

  it("a context overflow on the first call triggers one compaction and the retry succeeds", async () => {
    const provider = createScriptedProvider(script((n) => (n === 0 ? { error: new ProviderError("context_overflow", "prompt is too long") } : { text: "fits now" })));
    const { entries, hooks } = compactorFor(provider);
    const history = rounds(3); // ~1200 tokens: under the threshold, so only the overflow compacts
    const result = await runAgentLoop({ ...base, provider, history, userMessage: "go", ...hooks });
    expect(result.reason).toBe("done");
    expect(provider.requests.map(isSummariser)).toEqual([false, true, false]);
    expect(entries).toHaveLength(1);
    expect(provider.requests[2]!.messages.length).toBeLessThan(provider.requests[0]!.messages.length);
    expect(history[0]).toEqual(compactionSummaryMessage(entries[0]!.summary));
    expect(history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "fits now" }] });
    expect(isHistoryValid(history)).toBe(true);
  });

  it("a second overflow makes the run fail with that reason", async () => {
    const provider = createScriptedProvider(script(() => ({ error: new ProviderError("context_overflow", "prompt is too long: 250000 tokens") })));
    const { entries, hooks } = compactorFor(provider);
    const history = rounds(3);
    await expect(runAgentLoop({ ...base, provider, history, userMessage: "go", ...hooks })).rejects.toThrow("prompt is too long: 250000 tokens");
    expect(provider.requests.filter(isSummariser)).toHaveLength(1);
    expect(entries).toHaveLength(1);
    expect(isHistoryValid(history)).toBe(true);
  });

  it("a failing summariser leaves history unchanged: the turn goes ahead, an overflow is surfaced, compactNow throws", async () => {
    const boom = () => ({ error: new ProviderError("api", "summariser exploded") });
    const provider = createScriptedProvider(script(() => ({ text: "went ahead" }), boom));
    const { compactor, entries, events, hooks } = compactorFor(provider);
    const history = rounds(6);
    const before = structuredClone(history);
    await runAgentLoop({ ...base, provider, history, userMessage: "go", ...hooks });
    expect(provider.requests.map(isSummariser)).toEqual([true, false]);
    expect(history.slice(0, before.length)).toEqual(before);
    expect(provider.requests[1]!.messages).toHaveLength(before.length + 1);
    expect(entries).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "compaction_end", ok: false, error: expect.stringMatching(/compaction failed.*summariser exploded/) });

    const snapshot = structuredClone(history);
    await expect(compactor.compactNow(history)).rejects.toThrow(/compaction failed.*summariser exploded/);
    expect(history).toEqual(snapshot);

    const overflowing = createScriptedProvider(script(() => ({ error: new ProviderError("context_overflow", "prompt is too long") }), boom));
    const second = compactorFor(overflowing);
    const small = rounds(3);
    await expect(runAgentLoop({ ...base, provider: overflowing, history: small, userMessage: "go", ...second.hooks })).rejects.toThrow("prompt is too long");
    expect(overflowing.requests.map(isSummariser)).toEqual([false, true]);
  });

  it("an empty summary is a failure too", async () => {
    const provider = createScriptedProvider(script(() => ({ text: "x" }), () => ({ text: "  " })));
    const { compactor, entries } = compactorFor(provider);
    const history = rounds(4);
    const before = structuredClone(history);
    await expect(compactor.compactNow(history)).rejects.toThrow(/compaction failed.*empty summary/);
    expect(history).toEqual(before);
    expect(entries).toEqual([]);
  });

  it("ignores usage recorded before a compaction, live or reloaded", async () => {
    const provider = createScriptedProvider(script(() => ({ text: "x" })));
    const { compactor } = compactorFor(provider, { keepRecentTokens: 200 });
    const big = { input: 50_000, output: 10, cacheRead: 0, cacheWrite: 0 };
    const history: AgentMessage[] = [...rounds(3), { role: "user", content: "q" }, assistant([{ type: "text", text: "a" }], big), { role: "user", content: "more" }];
    expect(compactor.estimate(history)).toBeGreaterThan(50_000);
    expect(await compactor.compactNow(history)).toBe(true);
    expect(compactor.estimate(history)).toBeLessThan(WINDOW * 0.8);

    // a history reloaded from a session file: starts with a summary, carries old usage
    const fresh = compactorFor(provider);
    const reloaded: AgentMessage[] = [compactionSummaryMessage("earlier"), { role: "user", content: "q" }, assistant([{ type: "text", text: "a" }], big), { role: "user", content: "more" }];
    const calls = provider.requests.length;
    await fresh.compactor.onBeforeTurn(reloaded, { signal: new AbortController().signal, turn: 1 });
    expect(provider.requests.length).toBe(calls);
    expect(reloaded).toHaveLength(4);
  });
});
