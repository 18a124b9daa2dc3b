import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/protocol/events.js";
import { emptyUsage, type AssistantMessage, type Usage } from "../src/protocol/messages.js";
import { addCost, emptyCost } from "../src/core/pricing.js";
import { initialStreamState, reduceAll, type StreamAction } from "./state/agent-stream-reducer.js";
import { endChild, startChild } from "./state/child-reducer.js";
import type { ToolItem } from "./state/transcript-types.js";
import { StatusBar } from "./views/StatusBar.js";
import { SubagentSummary } from "./views/SubagentSummary.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const usage = (input: number, output: number): Usage => ({ ...emptyUsage(), input, output });
const turn = (model: string | undefined, u: Usage): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text: "ok" }], stopReason: "end_turn", usage: u, ...(model ? { model } : {}) });
const ev = (event: AgentEvent): StreamAction => ({ type: "event", event, at: 0 });

describe("cost", () => {
  const base = { model: "claude-sonnet-4-5", provider: "anthropic", contextTokens: 1000, contextWindow: 200_000, usage: usage(100_000, 10_000), runningChildren: 2, running: true, now: 0 };

  it("the status bar shows the session cost after the tokens, children right after the model, in two rows", () => {
    const cost = addCost(emptyCost(), "claude-sonnet-4-5", usage(100_000, 10_000)); // $0.30 + $0.15
    const frame = stripAnsi(render(<StatusBar {...base} cost={cost} />).lastFrame()!);
    expect(frame).toMatch(/claude-sonnet-4-5 · 2 agents running · ctx/);
    expect(frame).toContain("↑100k ↓10k tokens · $0.45 · anthropic");
    expect(frame.split("\n")).toHaveLength(2);
  });

  it("the status bar shows no cost for a model without a price", () => {
    const cost = addCost(emptyCost(), "scripted-model", usage(100_000, 10_000));
    const frame = stripAnsi(render(<StatusBar {...base} model="scripted-model" cost={cost} />).lastFrame()!);
    expect(frame).toContain("tokens · anthropic");
    expect(frame).not.toContain("$");
  });

  it("sums the ledger's rows, each at its own model's price, and gives each child run its own rows", () => {
    const s = reduceAll(initialStreamState(), [
      { type: "run_start", text: "go", at: 0 },
      ev({ type: "tool_start", call: { type: "toolCall", id: "t1", name: "task", arguments: { prompt: "x" } } }),
      ev({ type: "subagent_start", childId: "c-1", parentToolCallId: "t1", prompt: "x", resumed: false }),
      {
        type: "spend",
        rows: [
          { agent: "main", model: "claude-sonnet-4-5", usage: usage(100_000, 10_000) }, // $0.45
          { agent: "c-1", run: "t1", model: "claude-haiku-4-5", usage: usage(100_000, 10_000) }, // $0.15
        ],
      },
    ]);
    expect(s.cost.usd).toBeCloseTo(0.6, 6);
    expect(s.cost.partial).toBe(false);
    expect(s.usage).toEqual(usage(200_000, 20_000));
    const childView = [...s.finished, ...s.live].find((i): i is ToolItem => i.kind === "tool" && i.id === "t1")!.child!;
    expect(childView.cost?.usd).toBeCloseTo(0.15, 6);
  });

  it("a spend keeps the live items of the children it did not change (the same objects: their rows and panes are not drawn again)", () => {
    const start = (n: number): StreamAction[] => [
      ev({ type: "tool_start", call: { type: "toolCall", id: `t${n}`, name: "task", arguments: { prompt: "x" } } }),
      ev({ type: "subagent_start", childId: `c-${n}`, parentToolCallId: `t${n}`, prompt: "x", resumed: false }),
    ];
    const row = (n: number, out: number) => ({ agent: `c-${n}`, run: `t${n}`, model: "claude-haiku-4-5", usage: usage(1000, out) });
    const before = reduceAll(initialStreamState(), [{ type: "run_start", text: "go", at: 0 }, ...start(1), ...start(2), ...start(3), { type: "spend", rows: [row(1, 10), row(2, 10)] }]);
    const item = (s: typeof before, id: string) => s.live.find((i): i is ToolItem => i.kind === "tool" && i.id === id)!;
    // Child 1 spends again; children 2 (priced, unchanged) and 3 (nothing spent) keep their items.
    const after = reduceAll(before, [{ type: "spend", rows: [row(1, 20), row(2, 10)] }]);
    expect(item(after, "t1")).not.toBe(item(before, "t1"));
    expect(item(after, "t1").child!.cost!.usd).toBeGreaterThan(item(before, "t1").child!.cost!.usd);
    expect(item(after, "t2")).toBe(item(before, "t2"));
    expect(item(after, "t3")).toBe(item(before, "t3"));
    // The main agent's spend changes no child's cost: the live list itself is kept.
    const main = reduceAll(after, [{ type: "spend", rows: [row(1, 20), row(2, 10), { agent: "main", model: "claude-sonnet-4-5", usage: usage(5, 5) }] }]);
    expect(main.live).toBe(after.live);
    expect(main.usage.input).toBe(2005);
  });

  it("a child's summary line shows its cost when its model is known, and none otherwise", () => {
    const make = (model: string) => {
      const c = { ...startChild({ childId: "20261202-142301-ab12cd", profile: "scout", prompt: "p", resumed: false, at: 0 }), cost: addCost(emptyCost(), model, usage(10_000, 2000)) };
      return endChild(c, { status: "ok", turns: 1, usage: usage(10_000, 2000), durationMs: 2100 });
    };
    // 10k × $1/M + 2k × $5/M = $0.02
    expect(stripAnsi(render(<SubagentSummary child={make("claude-haiku-4-5-20251001")} result="done" />).lastFrame()!)).toContain("· 12k tokens · $0.02 — done");
    const unknown = stripAnsi(render(<SubagentSummary child={make("local-llm")} result="done" />).lastFrame()!);
    expect(unknown).toContain("· 12k tokens — done");
    expect(unknown).not.toContain("$");
  });
});
