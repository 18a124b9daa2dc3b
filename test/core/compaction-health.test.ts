import { describe, expect, it } from "vitest";
import { createCompactor } from "../../src/core/compaction.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AgentMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";

function longHistory(): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let i = 0; i < 10; i++) {
    out.push({ role: "user", content: `question ${i} ${"word ".repeat(200)}` });
    out.push({ role: "assistant", content: [{ type: "text", text: `answer ${i} ${"word ".repeat(200)}` }], stopReason: "end_turn", usage: emptyUsage() });
  }
  return out;
}

describe("a failing summariser", () => {
  it("is switched off after 3 failures in a row with one notice; the overflow path then fails with a clear reason", async () => {
    const provider = createScriptedProvider(() => ({ error: new Error("summary service down") }));
    const events: AgentEvent[] = [];
    const compactor = createCompactor({ provider, model: "m", system: () => "S", contextWindow: 2_000, onEvent: (e) => events.push(e) });
    const history = longHistory();
    const signal = new AbortController().signal;
    for (let i = 0; i < 5; i++) await compactor.onBeforeTurn(history, { signal });
    expect(provider.requests).toHaveLength(3); // not called again after the third failure
    expect(events.filter((e) => e.type === "compaction_end")).toHaveLength(3);
    const notices = events.filter((e) => e.type === "warning");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ source: "compaction", message: expect.stringMatching(/switched off for this agent: the summariser failed 3 times in a row \(last: .*summary service down/) });
    await expect(compactor.onContextOverflow(history, { signal })).rejects.toThrow(/no longer fits the model's context window, and compaction is switched off for this agent after 3 failed summaries/);
    expect(provider.requests).toHaveLength(3);
  });

  it("a success in between resets the count", async () => {
    let n = 0;
    const provider = createScriptedProvider(() => (++n === 3 ? { text: "SUMMARY" } : { error: new Error("down") }));
    const events: AgentEvent[] = [];
    const compactor = createCompactor({ provider, model: "m", system: () => "S", contextWindow: 2_000, onEvent: (e) => events.push(e) });
    const signal = new AbortController().signal;
    for (let i = 0; i < 4; i++) await compactor.onBeforeTurn(longHistory(), { signal });
    expect(events.filter((e) => e.type === "warning")).toHaveLength(0);
  });
});
