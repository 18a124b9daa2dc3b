/** Budgets of children (issue #25 item 2): reached → paused → extended or stopped; headless stop; resume; the tree's budget. */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import type { BudgetQuestion } from "../../src/subagents/runtime/budget.js";
import { TreeBudget } from "../../src/subagents/runtime/tree-budget.js";
import { harness, type Harness, isChild, lastResult, profile } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
});

/** Every child turn spends 600 tokens (500 in, 100 out) and calls echo, until its 4th turn answers. */
function childTurn(r: ModelRequest): ScriptedTurn {
  const turn = r.messages.filter((m) => m.role === "assistant").length + 1;
  const usage = { input: 500, output: 100 };
  const last = r.messages.at(-1)!;
  // A resumed child (its prompt is the last message) answers at once.
  if (last.role === "user" && r.messages.length > 1) return { text: "RESUMED REPORT", usage };
  return turn >= 4 ? { text: "THE REPORT", usage } : { toolCalls: [{ name: "echo", arguments: { text: `step ${turn}` } }], usage };
}
const parentWith = (args: Record<string, unknown>) => (r: ModelRequest): ScriptedTurn =>
  isChild(r) ? childTurn(r) : r.messages.at(-1)!.role === "user" ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "look around", ...args } }] } : { text: "main done" };
const childEvents = (hh: Harness) => hh.events.flatMap((e) => (e.type === "subagent_event" ? [e.event] : []));
const paused = (hh: Harness) => childEvents(hh).filter((e): e is Extract<AgentEvent, { type: "budget_paused" }> => e.type === "budget_paused");
const childRequests = (hh: Harness) => hh.provider.requests.filter(isChild);

describe("a child's budget", () => {
  it("headless: stops with a clear result at its budget, and stays resumable with a fresh allowance", async () => {
    h = harness(parentWith({ maxTokens: 1000 }));
    await h.run("go");
    const res = lastResult(h);
    // 600 tokens after turn 1 (under), 1200 after turn 2: the third request is never sent.
    expect(childRequests(h)).toHaveLength(2);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("[task] stopped: budget of 1k tokens reached after 2 turns.");
    expect(res.content).toMatch(/continue it with task\(\{resume: "/);
    expect(paused(h)).toEqual([{ type: "budget_paused", scope: "child", budget: "budget of 1k tokens", spent: "1.2k tokens", asking: false }]);
    const child = h.store.list({ kind: "child" })[0]!;
    expect(h.store.load(child.id).header.budget).toEqual({ maxTokens: 1000 });
    // The saved transcript ends with the last tool result: valid to resume, nothing lost.
    expect(h.store.load(child.id).messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "toolResult"]);

    // Resume: the same budget again, counted from zero for this run.
    h.provider.requests.length = 0;
    h.history.length = 0;
    const resumed = harnessResume(h, child.id);
    await resumed;
    const again = lastResult(h);
    expect(again.isError).toBe(false);
    expect(again.content).toContain("RESUMED REPORT");
  });

  it("asks the person when someone can answer: an extension lets it go on to its report", async () => {
    const questions: BudgetQuestion[] = [];
    h = harness(parentWith({ maxTokens: 1000 }), {
      askBudget: async (q) => {
        questions.push(q);
        return { add: 2000 };
      },
    });
    await h.run("go");
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ scope: "child", turns: 2, reached: { kind: "tokens", limit: 1000, spent: 1200, text: "budget of 1k tokens" } });
    expect(paused(h)[0]).toMatchObject({ asking: true });
    // After the answer the child went on (a resumed event), and its fourth turn answered.
    expect(childEvents(h).some((e) => e.type === "resumed")).toBe(true);
    expect(childRequests(h)).toHaveLength(4);
    const res = lastResult(h);
    expect(res.isError).toBe(false);
    expect(res.content).toContain("THE REPORT");
  });

  it("asks the person: stop ends it with the budget's result, resumable", async () => {
    h = harness(parentWith({ maxTokens: 1000 }), { askBudget: async () => "stop" });
    await h.run("go");
    const res = lastResult(h);
    expect(childRequests(h)).toHaveLength(2);
    expect(res.content).toContain("[task] stopped: budget of 1k tokens reached after 2 turns.");
    expect(res.content).toMatch(/continue it with task\(\{resume: "/);
  });

  it("a profile's budget applies, and the call's argument wins over it", async () => {
    h = harness(parentWith({ agent: "scout" }), { profiles: [profile("scout", { maxTokens: 700 })] });
    await h.run("go");
    expect(lastResult(h).content).toContain("budget of 700 tokens reached after 2 turns");
    h.cleanup();
    h = harness(parentWith({ agent: "scout", maxTokens: 1300 }), { profiles: [profile("scout", { maxTokens: 700 })] });
    await h.run("go");
    expect(lastResult(h).content).toContain("budget of 1.3k tokens reached after 3 turns");
  });

  it("a cost budget counts the price table's cost of its model", async () => {
    // claude-sonnet-4-5: 600 tokens a turn cost (500·3 + 100·15)/1e6 = $0.003; $0.005 is reached after 2 turns.
    h = harness(parentWith({ maxCostUsd: 0.005 }), { providerModel: "claude-sonnet-4-5" });
    await h.run("go");
    expect(lastResult(h).content).toContain("[task] stopped: budget of $0.0050 reached after 2 turns.");
  });

  it("a cost budget on a model without a price is refused before the child starts", async () => {
    h = harness(parentWith({ maxCostUsd: 1 }));
    await h.run("go");
    const res = lastResult(h);
    expect(res.isError).toBe(true);
    expect(res.content).toContain('maxCostUsd needs a model with a known price, and "scripted-model" has none');
    expect(childRequests(h)).toHaveLength(0);
  });

  it.each([
    [{ maxTokens: -5 }, "maxTokens: must be more than 0"],
    [{ maxTokens: "lots" }, "maxTokens: must be a number"],
    [{ maxTokens: 1.5 }, "maxTokens: must be a whole number"],
    [{ maxCostUsd: 0 }, "maxCostUsd: must be more than 0"],
    [{ maxCostUsd: "cheap" }, "maxCostUsd: must be a number"],
  ])("refuses bad task arguments %j with a clear error", async (args, message) => {
    h = harness(parentWith(args));
    await h.run("go");
    const res = lastResult(h);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("invalid arguments for task");
    expect(res.content).toContain(message);
    expect(childRequests(h)).toHaveLength(0);
  });
});

describe("the session tree's budget", () => {
  it("counts every child's usage and stops a child's new requests when reached (headless)", async () => {
    const tree = new TreeBudget({ maxTokens: 1500 });
    h = harness(parentWith({}), { treeBudget: tree });
    await h.run("go");
    // 1.2k spent: the next request (600 tokens anchored on the last reply, plus its tool call's result) would cross 1.5k, so it is not sent.
    expect(tree.meter.tokens).toBe(1200);
    expect(childRequests(h)).toHaveLength(2);
    expect(lastResult(h).content).toContain("[task] stopped: the session's budget of 1.5k tokens would be crossed by the next request (about 725 tokens; 1.2k tokens spent) after 2 turns.");
    expect(tree.view()).toEqual({ text: "1.2k / 1.5k tokens", reached: false });
  });

  it("one question for every agent waiting on it; an extension lets them go on", async () => {
    const tree = new TreeBudget({ maxTokens: 1500 });
    let asked = 0;
    tree.ask = async () => {
      asked++;
      return { add: 5000 };
    };
    h = harness(parentWith({}), { treeBudget: tree });
    await h.run("go");
    expect(asked).toBe(1);
    expect(lastResult(h).content).toContain("THE REPORT");
    expect(tree.meter.limits.maxTokens).toBe(1500 + 5000); // asked at 1.2k spent, before the request that would cross 1.5k
  });
});

describe("the tree's budget with children in parallel", () => {
  it("two children at the tree's budget wait on one question; the answer releases both", async () => {
    const tree = new TreeBudget({ maxTokens: 1500 });
    let answer!: (a: { add: number }) => void;
    let asked = 0;
    tree.ask = () => {
      asked++;
      return new Promise((resolve) => (answer = resolve));
    };
    h = harness(
      (r) =>
        isChild(r)
          ? childTurn(r)
          : r.messages.at(-1)!.role === "user"
            ? { toolCalls: [{ id: "a", name: "task", arguments: { prompt: "one" } }, { id: "b", name: "task", arguments: { prompt: "two" } }] }
            : { text: "main done" },
      { treeBudget: tree },
    );
    const run = h.run("go");
    for (let i = 0; i < 2000 && paused(h).length < 2; i++) await new Promise((r) => setImmediate(r));
    expect(paused(h).map((p) => p.scope)).toEqual(["tree", "tree"]);
    expect(asked).toBe(1);
    answer({ add: 100_000 });
    await run;
    const results = (h.history.filter((m) => m.role === "toolResult").at(-1) as ToolResultMessage).results;
    expect(results.map((r) => r.content.includes("THE REPORT"))).toEqual([true, true]);
    expect(asked).toBe(1);
  });
});

describe("the tree's budget with four children in parallel", () => {
  it("a request that would cross what is left is not sent: the spend stays within the budget when every request is the size of the one before", async () => {
    const tree = new TreeBudget({ maxTokens: 5000 });
    const calls = ["one", "two", "three", "four"].map((prompt, i) => ({ id: `c${i}`, name: "task", arguments: { prompt } }));
    h = harness((r) => (isChild(r) ? childTurn(r) : r.messages.at(-1)!.role === "user" ? { toolCalls: calls } : { text: "main done" }), { treeBudget: tree });
    await h.run("go");
    // Four children of four 600-token requests each (9.6k in all): without the estimate the three rounds
    // sent while under 5k came to 7.2k; now no request is sent that would cross 5k.
    expect(childRequests(h).length).toBeGreaterThanOrEqual(4);
    expect(tree.meter.tokens).toBeLessThanOrEqual(5000);
    expect(tree.meter.tokens).toBeGreaterThan(5000 - 4 * 600); // it did not stop long before the budget either
    const results = (h.history.filter((m) => m.role === "toolResult").at(-1) as ToolResultMessage).results;
    expect(results.some((r) => r.content.includes("would be crossed by the next request"))).toBe(true);
  });
});

/** Runs the harness's parent once more, resuming child `id`. */
function harnessResume(hh: Harness, id: string) {
  const task = hh.tools.find((t) => t.name === "task")!;
  return (async () => {
    const out = await task.execute(task.schema.parse({ prompt: "go on", resume: id }), { signal: new AbortController().signal, cwd: process.cwd(), toolCallId: "r1", emit: (e) => hh.events.push(e) });
    hh.history.push({ role: "toolResult", results: [{ toolCallId: "r1", toolName: "task", content: out.output, isError: out.isError }] });
  })();
}

describe("the tree's budget with four children whose requests grow (issue #39 item 1)", () => {
  /**
   * Like a real model server: a request's input is the whole request (system, history, tools at
   * ~4 characters a token) and its output what the reply wrote, so each child request is bigger
   * than the one before by what its last tool call wrote and brought back (a 6,000-character echo:
   * ~1.5k tokens of arguments, ~1.5k of result).
   */
  const BIG = "x".repeat(6000);
  const sized = (r: ModelRequest, turn: ScriptedTurn): ScriptedTurn => ({
    ...turn,
    usage: {
      input: Math.ceil((r.system.length + JSON.stringify(r.messages).length + JSON.stringify(r.tools).length) / 4),
      output: Math.ceil(((turn.text ?? "").length + JSON.stringify(turn.toolCalls ?? []).length) / 4),
    },
  });
  const growing = (r: ModelRequest): ScriptedTurn => {
    if (!isChild(r)) return r.messages.at(-1)!.role === "user" ? { toolCalls: ["one", "two", "three", "four"].map((prompt, i) => ({ id: `c${i}`, name: "task", arguments: { prompt } })) } : { text: "main done" };
    const turn = r.messages.filter((m) => m.role === "assistant").length + 1;
    return sized(r, turn >= 8 ? { text: "THE REPORT" } : { toolCalls: [{ name: "echo", arguments: { text: `${turn} ${BIG}` } }] });
  };

  it.each([10_000, 30_000])("the spend when every child waits on the question stays within the %i-token budget (each request estimated from what it sends)", async (limit) => {
    const tree = new TreeBudget({ maxTokens: limit });
    let spentAtQuestion = -1;
    let questions = 0;
    h = harness(growing, { treeBudget: tree });
    const hh = h;
    tree.ask = async () => {
      questions++;
      // Every child finishes the request it has in flight (and its tools) and stops at its next gate.
      for (let i = 0; i < 5000 && paused(hh).length + hh.events.filter((e) => e.type === "subagent_end").length < 4; i++) await new Promise((r) => setImmediate(r));
      spentAtQuestion = tree.meter.tokens;
      return "stop";
    };
    await h.run("go");
    expect(questions).toBe(1);
    expect(paused(h)).toHaveLength(4);
    // Before: each request was estimated as the size of the child's previous one, so four children
    // growing by ~3k tokens a request overshot 10k by ~8k and 30k by ~10k. Now the estimate is the
    // request about to be sent (its history and tools) plus the last reply's output: the spend
    // stays within the budget, give or take the estimate's error (per-message framing, a few tokens).
    expect(spentAtQuestion).toBeLessThanOrEqual(limit * 1.01);
    expect(spentAtQuestion).toBeGreaterThan(limit * 0.6); // not stopped long before it either
  });
});
