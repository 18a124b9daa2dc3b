/**
 * Cost figures agree and survive `--resume` (issue #39 item 2): the status bar's total, each
 * `/cost` row, each child's summary and the tree budget's spend are all read from the session's
 * usage ledger, which is saved with the session — so a child stopped mid-stream is priced live as
 * after a reload, and `+` marks only a row that really ran on a model without a price.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { formatCost } from "../../src/core/pricing.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { initialStreamState, reduceAll, type StreamAction } from "../../components/state/agent-stream-reducer.js";
import { costLines } from "../../components/state/cost-lines.js";
import type { StreamState, ToolItem } from "../../components/state/transcript-types.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const MAIN = "claude-sonnet-4-5";
const CHILD = "claude-haiku-4-5";
const UNPRICED = "local-llm";

/** Main: three children (one on another priced model, one held mid-stream unless `hold` is false, one on a model without a price), then answers. */
function script(r: ModelRequest, hold = true): ScriptedTurn {
  if (isChild(r)) {
    const prompt = firstPrompt(r);
    if (prompt === "slow" && hold) return { text: "a partial report that streams before the stop cuts it off", waitFor: new Promise(() => undefined) };
    return { text: `REPORT for ${prompt}`, usage: prompt === "local" ? { input: 4000, output: 400 } : { input: 20_000, output: 2000 } };
  }
  if (r.messages.at(-1)!.role === "toolResult") return { text: "all done", usage: { input: 30_000, output: 800 } };
  return {
    toolCalls: [
      { id: "t-quick", name: "task", arguments: { prompt: "quick", model: CHILD } },
      { id: "t-slow", name: "task", arguments: { prompt: "slow", model: CHILD } },
      { id: "t-local", name: "task", arguments: { prompt: "local", model: UNPRICED } },
    ],
    usage: { input: 10_000, output: 500, cacheRead: 2000 },
  };
}

/** Every figure a person reads: status bar, /cost, each child's summary cost, the tree budget's spend. */
function figures(state: StreamState, session: AgentSession) {
  const children = [...state.finished, ...state.live].filter((i): i is ToolItem => i.kind === "tool" && i.child !== undefined);
  return {
    statusBar: { cost: formatCost(state.cost), usage: state.usage },
    cost: costLines(state),
    children: children.map((c) => [c.child!.prompt, c.child!.cost ? formatCost(c.child!.cost) : ""]),
    budget: { cost: session.treeBudget.spent("cost"), tokens: session.treeBudget.spent("tokens"), view: session.treeBudget.view() },
  };
}

describe("cost across --resume", () => {
  it("every figure is the ledger's, identical live and after a reload; + only where a model had no price", async () => {
    const inkHome = temp("ink-home-");
    const cwd = temp("ink-cwd-");
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ maxTokens: "1M" }));
    const provider = createScriptedProvider((r) => script(r), { models: [MAIN, CHILD, UNPRICED] });
    const live = new AgentSession({ cwd, inkHome, provider, model: MAIN, interactive: true, approval: { yolo: true } });
    // As the TUI's stream hook does: events, and the ledger's rows whenever it changes.
    const actions: StreamAction[] = [];
    live.ledger.subscribe(() => actions.push({ type: "spend", rows: live.ledger.rows() }));
    let slowId = "";
    const started = new Set<string>();
    await live.prompt("go", {
      onEvent: (e: AgentEvent) => {
        actions.push({ type: "event", event: e, at: 0 });
        if (e.type === "subagent_start") {
          started.add(e.prompt);
          if (e.prompt === "slow") slowId = e.childId;
        }
        // The slow child is stopped once its text streamed (its cut-off call counts at the live estimate).
        if (e.type === "subagent_event" && e.childId === slowId && e.event.type === "text_delta" && started.size === 3) queueMicrotask(() => live.stopChild(slowId));
      },
    });
    const liveState = reduceAll(initialStreamState(), [...actions, { type: "run_end", at: 1 }]);
    const before = figures(liveState, live);
    live.close();

    // The stopped child's cut-off call is priced live (its model's output price on the estimate).
    const slow = before.children.find(([p]) => p === "slow")!;
    expect(slow[1]).toMatch(/^\$0\.\d{4}$/);
    // The main agent and the children on priced models have no "+"; the child on a model without a price says so.
    expect(before.cost.find((l) => l.startsWith("  main"))).toMatch(/^ {2}main +\$0\.\d+ +/);
    expect(before.cost.find((l) => l.includes(UNPRICED))).toMatch(/ no price /);
    expect(before.cost.filter((l) => /\$[\d.]+\+/.test(l))).toEqual([expect.stringMatching(/^Session: \$[\d.]+\+ · /)]);
    expect(before.statusBar.cost).toMatch(/^\$[\d.]+\+$/);
    // The budget's spend is the status bar's figure.
    expect(before.budget.cost).toBe(before.statusBar.cost);
    expect(before.budget.view?.text).toMatch(/ \/ 1M tokens$/);

    // Reloaded as --resume does.
    const resumed = new AgentSession({ cwd, inkHome, provider, model: MAIN, interactive: true, approval: { yolo: true }, resume: live.sessionId });
    try {
      const restored = initialStreamState({ cwd, model: MAIN, provider: "scripted", notices: [] }, resumed.history, resumed.taskRecords, undefined, resumed.view, resumed.ledger.rows());
      expect(figures(restored, resumed)).toEqual(before);
    } finally {
      resumed.close();
    }
  });

  it("a session file written before the ledger was saved prices its turns and records as it did, and the budget counts them", async () => {
    const inkHome = temp("ink-home-");
    const cwd = temp("ink-cwd-");
    const provider = createScriptedProvider((r) => script(r, false), { models: [MAIN, CHILD, UNPRICED] });
    const live = new AgentSession({ cwd, inkHome, provider, model: MAIN, interactive: true, approval: { yolo: true } });
    await live.prompt("one", { onEvent: () => undefined });
    live.close();
    // An older version wrote no ledger rows: drop them from the file.
    const { readFileSync } = await import("node:fs");
    const path = live.sessionPath!;
    const kept = readFileSync(path, "utf8").split("\n").filter((l) => !(l.includes('"type":"usage"') && l.includes('"agent"')));
    writeFileSync(path, kept.join("\n"));
    const resumed = new AgentSession({ cwd, inkHome, provider, model: MAIN, interactive: true, approval: { yolo: true }, resume: live.sessionId });
    try {
      const rows = resumed.ledger.rows();
      expect(rows.filter((r) => r.agent === "main").every((r) => r.model === MAIN)).toBe(true);
      expect(rows.find((r) => r.model === UNPRICED)).toMatchObject({ run: "t-local" });
      expect(resumed.ledger.usage()).toEqual(live.ledger.usage());
      expect(resumed.ledger.cost()).toEqual(live.ledger.cost());
    } finally {
      resumed.close();
    }
  });
});
