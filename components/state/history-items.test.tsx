import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { initialStreamState, reduceAll, type StreamAction } from "./agent-stream-reducer.js";
import type { ToolItem } from "./transcript-types.js";
import { childReport } from "./child-reducer.js";
import { tempDir as temp } from "../../test/helpers/temp-dirs.js";

const isChild = (r: { system: string }) => r.system.includes("# Subagent mode");

describe("resume shows what the live run showed", () => {
  it("children come back as summaries with status, turns and tokens, and totals equal the live ones", async () => {
    const provider = createScriptedProvider((r) => {
      const last = r.messages.at(-1)!;
      if (isChild(r)) return r.messages.length > 1 ? { text: "RESUMED-REPORT: more", usage: { input: 70, output: 7 } } : { text: `REPORT for ${userText(r.messages[0] as UserMessage)}`, usage: { input: 300, output: 30 } };
      if (last.role === "toolResult") return { text: "main done", usage: { input: 900, output: 90 } };
      if (userText(last as UserMessage).endsWith("go")) return { toolCalls: [{ name: "task", arguments: { prompt: "impl" } }, { name: "task", arguments: { prompt: "tests" } }], usage: { input: 500, output: 50 } };
      return { text: "thanks", usage: { input: 40, output: 4 } };
    });
    const cwd = temp("ink-cwd-");
    const inkHome = temp("ink-home-");
    const live = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: {} });
    const actions: StreamAction[] = [];
    const onEvent = (event: AgentEvent) => actions.push({ type: "event", event, at: 0 });
    await live.prompt("go", { onEvent });
    const childId = live.store!.list({ kind: "child" }).find((s) => s.prompt === "impl")!.id;
    await live.resumeChild(childId, "more?", { onEvent, toolCallId: "ui-resume-1" });
    await live.prompt("next", { onEvent });
    const liveState = reduceAll(initialStreamState(), [...actions, { type: "spend", rows: live.ledger.rows() }, { type: "run_end", at: 1 }]);
    live.close();

    const resumed = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: {}, resume: live.sessionId });
    const restored = initialStreamState({ cwd, model: "m", provider: "scripted", notices: [] }, resumed.history, resumed.taskRecords, undefined, [], resumed.ledger.rows());
    resumed.close();

    expect(restored.usage).toEqual(liveState.usage);
    expect(restored.usage.input).toBe(500 + 300 + 300 + 900 + 70 + 40);
    const children = restored.finished.filter((i): i is ToolItem => i.kind === "tool" && i.child !== undefined);
    expect(children.map((c) => [c.child!.prompt, c.child!.status, c.child!.turns, c.child!.usage.input + c.child!.usage.output])).toEqual([
      ["impl", "ok", 1, 330],
      ["tests", "ok", 1, 330],
      ["more?", "ok", 1, 77],
    ]);
    expect(childReport(children[0]!.child!, children[0]!.result)).toBe("REPORT for impl");
    expect(children[2]!.child).toMatchObject({ resumed: true, childId });
    expect(childReport(children[2]!.child!, children[2]!.result)).toBe("RESUMED-REPORT: more");
    const liveChildren = liveState.finished.filter((i): i is ToolItem => i.kind === "tool" && i.child !== undefined);
    expect(children.map((c) => childReport(c.child!, c.result))).toEqual(liveChildren.map((c) => childReport(c.child!, c.result)));
    // The resumed child's report is shown where it reached the main agent, and the person's text stays clean.
    const texts = restored.finished.map((i) => (i.kind === "info" || i.kind === "user" ? `${i.kind}:${i.text}` : i.kind));
    const at = texts.findIndex((t) => t.startsWith("info:↪ general"));
    expect(texts.slice(at - 1, at + 2)).toEqual(["tool", expect.stringMatching(/went to the main agent with this message$/), "user:next"]);
  });
});

describe("resumed children's times", () => {
  it("a restored child started when its record says (its end less its duration), so the sidebar's age is not counted from 1970", async () => {
    const { historyItems } = await import("./history-items.js");
    const { transcriptChildren } = await import("./sidebar-rows.js");
    const call = { type: "toolCall" as const, id: "t1", name: "task", arguments: { prompt: "look" } };
    const messages = [
      { role: "user" as const, content: "go" },
      { role: "assistant" as const, content: [call], stopReason: "tool_use" as const, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
      { role: "toolResult" as const, results: [{ toolCallId: "t1", toolName: "task", content: "report", isError: false }] },
    ];
    const record = { childId: "c1", toolCallId: "t1", status: "ok", turns: 1, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, durationMs: 4000, prompt: "look", endedAt: "2026-03-01T10:00:04.000Z" };
    const items = historyItems(messages, [record]);
    const child = items.flatMap((i) => (i.kind === "tool" && i.child ? [i.child] : []))[0]!;
    expect(child.startedAt).toBe(Date.parse("2026-03-01T10:00:00.000Z"));
    expect(transcriptChildren(items)[0]!.at).toBe(Date.parse("2026-03-01T10:00:04.000Z"));
  });
});

describe("resumed totals after a compaction", () => {
  it("the turns a compaction took out of the history still count in the tokens and the cost, as they did live", async () => {
    const { SUMMARISER_SYSTEM_PROMPT } = await import("../../src/core/compaction.js");
    const provider = createScriptedProvider((r) => (r.system === SUMMARISER_SYSTEM_PROMPT ? { text: "SUMMARY" } : { text: `answer ${r.messages.length}`, usage: { input: 1000 * r.messages.length, output: 100 } }));
    const cwd = temp("ink-cwd-");
    const inkHome = temp("ink-home-");
    const live = new AgentSession({ cwd, inkHome, provider, model: "claude-sonnet-4-5", interactive: true, approval: {} });
    const actions: StreamAction[] = [];
    const onEvent = (event: AgentEvent) => actions.push({ type: "event", event, at: 0 });
    await live.prompt("one", { onEvent });
    await live.prompt("two", { onEvent });
    expect(await live.compact(undefined, onEvent)).toBe(true);
    await live.prompt("three", { onEvent });
    const liveState = reduceAll(initialStreamState(), [...actions, { type: "spend", rows: live.ledger.rows() }, { type: "run_end", at: 1 }]);
    live.close();
    const resumed = new AgentSession({ cwd, inkHome, provider, model: "claude-sonnet-4-5", interactive: true, approval: {}, resume: live.sessionId });
    try {
      expect(resumed.history.length).toBeLessThan(6); // the first turns were compacted away
      const back = initialStreamState(undefined, resumed.history, resumed.taskRecords, undefined, resumed.view, resumed.ledger.rows());
      expect(back.usage).toEqual(liveState.usage);
      expect(back.cost).toEqual(liveState.cost);
    } finally {
      resumed.close();
    }
  });
});
