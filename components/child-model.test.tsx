/** The model a child runs on shows on its pane, its compact row and in /cost (issue #25 item 3). */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/protocol/events.js";
import { ChildRow } from "./views/ChildRow.js";
import { costLines } from "./state/cost-lines.js";
import { initialStreamState, reduceAll, type StreamAction } from "./state/agent-stream-reducer.js";
import { SubagentPane } from "./views/SubagentPane.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const ev = (event: AgentEvent): StreamAction => ({ type: "event", event, at: 1000 });
function stateWithChild() {
  const state = initialStreamState({ cwd: "/x", model: "claude-sonnet-4-5", provider: "anthropic", notices: [] }, [], []);
  return reduceAll(state, [
    ev({ type: "tool_start", call: { type: "toolCall", id: "t1", name: "task", arguments: { prompt: "find it", model: "claude-haiku-4-5" } } }),
    ev({ type: "subagent_start", childId: "20261204-120000-ab12cd", parentToolCallId: "t1", prompt: "find it", model: "claude-haiku-4-5", resumed: false }),
    ev({ type: "subagent_event", childId: "20261204-120000-ab12cd", parentToolCallId: "t1", event: { type: "usage", usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0 } } }),
  ]);
}
const childOf = (state: ReturnType<typeof stateWithChild>) => {
  const item = [...state.finished, ...state.live].find((i) => i.kind === "tool" && i.child);
  return (item as { child: NonNullable<Extract<typeof item, { kind: "tool" }>["child"]> }).child;
};

describe("a child's model on screen", () => {
  it("the pane, the compact row and /cost name the model the child runs on", () => {
    const state = stateWithChild();
    const child = childOf(state);
    expect(child.model).toBe("claude-haiku-4-5");
    const pane = stripAnsi(render(<SubagentPane child={child} now={2000} width={80} lines={3} />).lastFrame()!);
    expect(pane).toMatch(/ab12cd · claude-haiku-4-5 · /);
    const row = stripAnsi(render(<ChildRow child={child} now={2000} width={100} />).lastFrame()!);
    expect(row).toMatch(/general · find it \[ab12cd\] .*claude-haiku-4-5/);
    expect(costLines(state).find((l) => l.includes("ab12cd"))).toMatch(/general · find it \[ab12cd\] claude-haiku-4-5/);
  });
});
