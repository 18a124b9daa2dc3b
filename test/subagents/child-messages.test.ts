import { afterEach, describe, expect, it } from "vitest";
import { runAgentLoop, type SteerMessage } from "../../src/core/loop.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { AgentMessage, ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { isHistorySendable } from "../../src/session/repair.js";
import { messageChild, type RunningChildren } from "../../src/subagents/runtime/running-children.js";
import { echoTool } from "../helpers/fake-tools.js";
import { firstPrompt, harness, isChild, lastResult, profile, type Harness } from "../helpers/subagent-harness.js";
import { waitUntil } from "../../components/testing/wait-for-frame.js";

const base = { model: "m", system: "sys", cwd: process.cwd() };
const userTexts = (r: ModelRequest) => r.messages.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text).join("")));

describe("messages to a running agent (LoopOptions.takeMessages)", () => {
  it("enter at a turn boundary — after the tool results, never between a call and its result — and every request stays sendable", async () => {
    const inbox: SteerMessage[] = [];
    let releaseTool!: () => void;
    const toolGate = new Promise<void>((r) => (releaseTool = r));
    const slowEcho = { ...echoTool, name: "slow", async execute(args: { text: string }) {
      inbox.push({ text: "look in lib/ instead", from: "user", content: "STEER: look in lib/ instead" });
      await toolGate;
      return { output: `slow: ${args.text}`, isError: false };
    } };
    setTimeout(() => releaseTool(), 0);
    const provider = createScriptedProvider([
      { toolCalls: [{ id: "t1", name: "slow", arguments: { text: "a" } }, { id: "t2", name: "echo", arguments: { text: "b" } }] },
      { text: "ok, looking in lib/" },
    ]);
    const history: AgentMessage[] = [];
    const events: AgentEvent[] = [];
    const result = await runAgentLoop({ ...base, provider, tools: [slowEcho as typeof echoTool, echoTool], history, userMessage: "find it", takeMessages: () => inbox.splice(0), onEvent: (e) => events.push(e) });
    expect(result.reason).toBe("done");
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
    expect((history[2] as ToolResultMessage).results.map((r) => r.toolCallId)).toEqual(["t1", "t2"]);
    expect(history[3]).toEqual({ role: "user", content: "STEER: look in lib/ instead" });
    for (const request of provider.requests) expect(isHistorySendable(request.messages)).toBe(true);
    expect(userTexts(provider.requests[1]!)).toEqual(["find it", "STEER: look in lib/ instead"]);
    expect(events.filter((e) => e.type === "steered")).toEqual([{ type: "steered", text: "look in lib/ instead", from: "user" }]);
  });

  it("a message that arrives while the model writes its final answer is read: the run goes on instead of ending", async () => {
    const inbox: SteerMessage[] = [];
    const provider = createScriptedProvider((r) => {
      if (r.messages.length === 1) {
        inbox.push({ text: "also count the tests", from: "parent", content: "also count the tests" });
        return { text: "the answer is A" };
      }
      return { text: "A, and 12 tests" };
    });
    const history: AgentMessage[] = [];
    const result = await runAgentLoop({ ...base, provider, tools: [], history, userMessage: "q", takeMessages: () => inbox.splice(0) });
    expect(result).toMatchObject({ reason: "done", turns: 2 });
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(provider.requests).toHaveLength(2);
  });
});

describe("task tool: a running child takes messages", () => {
  let h: Harness | undefined;
  afterEach(() => h?.cleanup());

  it("task with resume on a running child queues the prompt for it (returns at once); the child reads it at its next turn; the first call gets the report", async () => {
    let releaseChild!: () => void;
    const childGate = new Promise<void>((r) => (releaseChild = r));
    const running: RunningChildren = new Map();
    h = harness((r): ScriptedTurn => {
      if (isChild(r)) {
        if (r.messages.length === 1) return { text: "reading src/", toolCalls: [{ name: "echo", arguments: { text: "x" } }], waitFor: childGate };
        return { text: `REPORT; saw: ${userTexts(r).slice(1).join(" | ")}` };
      }
      if (r.messages.length === 1) return { toolCalls: [{ id: "start", name: "task", arguments: { prompt: "map src/" } }] };
      return { text: "final" };
    }, { running });
    const run = h.run("go");
    await waitUntil(() => running.size === 1, { what: "the child running" });
    const [childId] = [...running.keys()];
    // What the parent's second `task` call does: the same tool, `resume` naming the running child.
    const task = h.tools.find((t) => t.name === "task")!;
    const steered = await task.execute({ prompt: "skip the tests folder", resume: childId! } as never, { cwd: process.cwd(), signal: new AbortController().signal, toolCallId: "steer-call" });
    expect(steered).toMatchObject({ isError: false });
    expect(steered.output).toContain(`child ${childId} is still running: your message was queued`);
    releaseChild();
    await run;
    const childRequests = h.provider.requests.filter(isChild);
    expect(childRequests).toHaveLength(2);
    expect(firstPrompt(childRequests[0]!)).toBe("map src/");
    const lastUser = userTexts(childRequests[1]!).at(-1)!;
    expect(lastUser).toContain("Message from the agent that delegated this task to you");
    expect(lastUser).toContain("skip the tests folder");
    for (const request of h.provider.requests) expect(isHistorySendable(request.messages)).toBe(true);
    const results = (h.history.find((m) => m.role === "toolResult") as ToolResultMessage).results;
    expect(results[0]!.content).toMatch(/^REPORT; saw: [\s\S]*skip the tests folder/);
    expect(h.events.filter((e) => e.type === "subagent_event" && e.event.type === "steered")).toHaveLength(1);
    expect(running.size).toBe(0);
  });

  it("a message the child never reads (it reached its turn limit with its answer) is named in the task result, not dropped", async () => {
    const running: RunningChildren = new Map();
    h = harness((r): ScriptedTurn => {
      if (isChild(r)) {
        // Sent while the child writes its last allowed answer: it has no turn left to read it.
        messageChild(running, [...running.keys()][0]!, "also list the tests", "parent");
        return { text: "REPORT: src/ has 3 modules" };
      }
      if (r.messages.length === 1) return { toolCalls: [{ id: "start", name: "task", arguments: { prompt: "map src/", agent: "short" } }] };
      return { text: "final" };
    }, { running, profiles: [profile("short", { maxTurns: 1 })] });
    await h.run("go");
    expect(h.provider.requests.filter(isChild)).toHaveLength(1);
    const result = lastResult(h).content;
    expect(result).toContain("REPORT: src/ has 3 modules");
    expect(result).toMatch(/1 message sent to the child while it ran was not read[^\n]*: "also list the tests"/); // without the fix: no word of it
  });

  it("messageChild refuses a child that is not running (or is stopping)", () => {
    const running: RunningChildren = new Map();
    expect(messageChild(running, "nope", "hi", "user")).toBe(false);
    const stop = new AbortController();
    running.set("c1", { stop, inbox: [] });
    expect(messageChild(running, "c1", "hi", "user")).toBe(true);
    expect(running.get("c1")!.inbox[0]!.content).toContain("Message from the person watching you work");
    stop.abort();
    expect(messageChild(running, "c1", "again", "user")).toBe(false);
    expect(running.get("c1")!.inbox).toHaveLength(1);
  });
});

describe("runSubagent: a message sent while the SubagentStop hook runs", () => {
  it("is read: the child goes on with it instead of ending with the message unread", async () => {
    const { runSubagent } = await import("../../src/subagents/runtime/run-subagent.js");
    const inbox: SteerMessage[] = [];
    const provider = createScriptedProvider((r) => (r.messages.length === 1 ? { text: "REPORT one" } : { text: `REPORT two; saw: ${userTexts(r).slice(1).join(" | ")}` }));
    const hooks = {
      start: async () => [],
      // The person (or the parent) sends a message while the hook runs; the hook lets the report through.
      stop: async () => {
        if (provider.requests.length === 1) inbox.push({ text: "also list the tests", from: "user", content: "also list the tests" });
        return undefined;
      },
    };
    const outcome = await runSubagent({ ...base, provider, tools: [], prompt: "map src/", agent: { id: "c1", label: "general", depth: 1 }, hooks, takeMessages: () => inbox.splice(0) });
    expect(inbox).toEqual([]); // without the fix: the message is still here, never read
    expect(provider.requests).toHaveLength(2);
    expect(outcome).toMatchObject({ status: "ok", text: "REPORT two; saw: also list the tests" });
  });
});
