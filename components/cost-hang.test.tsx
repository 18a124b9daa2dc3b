/** /cost at 80 columns: a row's wrapped usage goes on under its usage column, not at column 0 or 2 (issue #39 item 7). */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/protocol/events.js";
import { costLines } from "./state/cost-lines.js";
import { initialStreamState, reduceAll, type StreamAction } from "./state/agent-stream-reducer.js";
import { TranscriptItemView } from "./views/TranscriptItemView.js";
import { itemLines } from "./layout/item-lines.js";
import type { TranscriptItem } from "./state/transcript-types.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const ev = (event: AgentEvent): StreamAction => ({ type: "event", event, at: 1000 });

describe("/cost at 80 columns", () => {
  it("hangs each row's wrapped usage under its usage column, and the row count matches the drawing", () => {
    const state = reduceAll(initialStreamState({ cwd: "/x", model: "demo", provider: "demo", notices: [] }, [], []), [
      ev({ type: "tool_start", call: { type: "toolCall", id: "t1", name: "task", arguments: { prompt: "p", description: "implementation of sessions" } } }),
      ev({ type: "subagent_start", childId: "20261206-024310-a96c68", parentToolCallId: "t1", prompt: "p", description: "implementation of sessions", model: "demo", resumed: false }),
      // Every figure reads the session's usage ledger (the `spend` action carries its rows).
      {
        type: "spend",
        rows: [
          { agent: "main", model: "demo", usage: { input: 23_000, output: 482, cacheRead: 0, cacheWrite: 0 } },
          { agent: "20261206-024310-a96c68", run: "t1", model: "demo", usage: { input: 30_000, output: 717, cacheRead: 0, cacheWrite: 0 } },
        ],
      },
    ]);
    const text = costLines(state).join("\n");
    const item: TranscriptItem = { kind: "info", id: "c", done: true, tone: "info", text };
    const rows = stripAnsi(render(<TranscriptItemView item={item} now={0} width={80} />).lastFrame()!).split("\n");
    expect(rows.length).toBe(itemLines(item, 80).length);
    const child = rows.findIndex((r) => r.includes("[a96c68]"));
    expect(child).toBeGreaterThan(0);
    const usageCol = rows[child]!.search(/\d+(\.\d+)?k tokens/);
    // The row wraps, and its second row starts right under the usage, not at the row's indent.
    expect(rows[child + 1]!.trim()).toMatch(/^\S/);
    expect(rows[child + 1]!.length - rows[child + 1]!.trimStart().length).toBe(usageCol);
  });
});
