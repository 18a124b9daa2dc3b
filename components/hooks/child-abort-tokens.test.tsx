/**
 * Issue #23 item 8: an aborted child's summary keeps the tokens its pane showed. The provider
 * reports a call's usage only when it ends, so a call cut off by Ctrl-C has no real count: the
 * core counts the live estimate of what it streamed (the figure the pane showed), and every total
 * (pane, summary line, task record, /cost) is built from the same usage events (/cost from the
 * session's usage ledger, which counts them as they come).
 */
import { render } from "ink-testing-library";
import { afterEach, expect, it } from "vitest";
import { harness, isChild, type Harness } from "../../test/helpers/subagent-harness.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { initialStreamState, reduceAll, type StreamAction } from "../state/agent-stream-reducer.js";
import { liveTokens } from "../state/child-status.js";
import { formatTokens, totalTokens } from "../state/format.js";
import { SubagentSummary } from "../views/SubagentSummary.js";
import { SubagentPane } from "../views/SubagentPane.js";
import { costLines } from "../state/cost-lines.js";
import { stripAnsi } from "../testing/wait-for-frame.js";
import type { ChildView, StreamState } from "../state/transcript-types.js";
import { TreeBudget } from "../../src/subagents/runtime/tree-budget.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

const never = new Promise<never>(() => undefined);

/** The tree's spend (the session's ledger): every agent's usage events as they come. */
const tree = () => new TreeBudget({});
let budget = tree();

function stateOf(events: readonly AgentEvent[]): StreamState {
  return reduceAll(initialStreamState(), [...events.map((event, i): StreamAction => ({ type: "event", event, at: 1000 + i })), { type: "spend", rows: budget.ledger.rows() }]);
}

function childOf(state: StreamState): ChildView {
  const item = [...state.finished, ...state.live].find((i) => i.kind === "tool" && i.child);
  if (!item || item.kind !== "tool" || !item.child) throw new Error("no child in the transcript");
  return item.child;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

it("Ctrl-C mid-stream: the summary line, the task's summary and /cost show the tokens the pane showed", async () => {
  budget = tree();
  h = harness((request) => {
    const turns = request.messages.filter((m) => m.role === "assistant").length;
    if (!isChild(request)) return turns === 0 ? { toolCalls: [{ name: "task", arguments: { prompt: "map the auth module" } }] } : { text: "done" };
    // First child call finishes (real usage); the second streams 444 characters and hangs until the abort.
    return turns === 0 ? { text: "first look", toolCalls: [{ name: "echo", arguments: { text: "hi" } }], usage: { input: 100, output: 20 } } : { text: "b".repeat(444), waitFor: never };
  }, { treeBudget: budget });
  const controller = new AbortController();
  const run = h.run("go", { signal: controller.signal });
  const streamed = () => h!.events.filter((e) => e.type === "subagent_event" && e.event.type === "text_delta" && e.event.text.startsWith("b")).reduce((n, e) => n + (e.type === "subagent_event" && e.event.type === "text_delta" ? e.event.text.length : 0), 0);
  await until(() => streamed() === 444);

  const before = childOf(stateOf(h.events));
  const paneTokens = liveTokens(before);
  expect(paneTokens).toBe(100 + 20 + Math.ceil(444 / 4));
  const pane = stripAnsi(render(<SubagentPane child={before} now={2000} />).lastFrame()!);
  expect(pane).toContain(`${formatTokens(paneTokens)} tokens`);

  controller.abort();
  await run;
  const end = h.events.find((e): e is Extract<AgentEvent, { type: "subagent_end" }> => e.type === "subagent_end");
  expect(end?.summary.status).toBe("aborted");
  expect(totalTokens(end!.summary.usage)).toBe(paneTokens);

  const state = stateOf(h.events);
  const after = childOf(state);
  expect(after.status).toBe("aborted");
  expect(totalTokens(after.usage)).toBe(paneTokens);
  const line = stripAnsi(render(<SubagentSummary child={after} width={160} />).lastFrame()!); // wide enough that no part gives way
  expect(line).toContain(`${formatTokens(paneTokens)} tokens`);
  // The session totals count the same figure once, and /cost's child row agrees.
  expect(costLines(state).some((l) => l.includes(`[`) && l.includes(`${formatTokens(paneTokens)} tokens`))).toBe(true);
});
