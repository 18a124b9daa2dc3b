import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { isHistoryValid } from "../../src/session/repair.js";
import type { TaskDetails } from "../../src/subagents/tools/task-tool.js";
import { firstPrompt, harness, isChild, profile, type Harness } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

/** Parent: first call delegates `calls`, then answers "summary". */
function parent(calls: Array<Record<string, unknown>>): (r: ModelRequest) => ScriptedTurn | undefined {
  return (r) => {
    if (isChild(r)) return undefined;
    if (r.messages.length === 1) return { text: "delegating", toolCalls: calls.map((args, i) => ({ id: `task-${i + 1}`, name: "task", arguments: args })) };
    return { text: "summary" };
  };
}

function script(parentTurn: (r: ModelRequest) => ScriptedTurn | undefined, child: (r: ModelRequest) => ScriptedTurn | Promise<ScriptedTurn>) {
  return (r: ModelRequest) => (isChild(r) ? child(r) : parentTurn(r)!);
}

const taskResults = (hh: Harness) => (hh.history.find((m) => m.role === "toolResult") as ToolResultMessage).results;

describe("task tool schema", () => {
  it("bounds timeoutMs to what a timer can hold", async () => {
    const { taskSchema } = await import("../../src/subagents/tools/task-tool.js");
    expect(taskSchema.safeParse({ prompt: "x", timeoutMs: 999 }).success).toBe(false);
    expect(taskSchema.safeParse({ prompt: "x", timeoutMs: 3_000_000_000 }).success).toBe(false);
    expect(taskSchema.safeParse({ prompt: "x", timeoutMs: 60_000 }).success).toBe(true);
  });
});

describe("task tool: new children", () => {
  it("ok: returns the child's final text with a usage line and the session id; child history is its own", async () => {
    h = harness(script(parent([{ prompt: "investigate login" }]), (r) => (r.messages.length === 1 ? { text: "looking", toolCalls: [{ name: "echo", arguments: { text: "x" } }] } : { text: "login is in src/auth/login.ts" })));
    await h.run("please fix login");
    const [res] = taskResults(h);
    expect(res!.isError).toBe(false);
    expect(res!.content).toMatch(/^login is in src\/auth\/login.ts\n\n\[task\] ok · 2 turns/);
    const childReqs = h.provider.requests.filter(isChild);
    // fresh history: the prompt is the first and only message of the first child request
    expect(childReqs[0]!.messages).toEqual([{ role: "user", content: "investigate login" }]);
    // the child's system = parent's + Subagent mode; no task tool
    expect(childReqs[0]!.system.startsWith("PARENT SYSTEM\n\n# Subagent mode")).toBe(true);
    expect(childReqs[0]!.tools.map((t) => t.name)).toEqual(["echo"]);
    const sessionId = /child session (\S+)/.exec(res!.content)![1]!;
    const saved = h.store.load(sessionId);
    expect(saved.header).toMatchObject({ kind: "child", parentId: "parent-1", parentToolCallId: "task-1", prompt: "investigate login" });
    expect(saved.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });

  it("carries the profile section and narrows tools to the profile's list", async () => {
    const scout = profile("scout", { tools: ["echo"], body: "Only read." });
    h = harness(script(parent([{ prompt: "look", agent: "scout" }]), () => ({ text: "found it" })), { profiles: [scout] });
    await h.run("go");
    const child = h.provider.requests.find(isChild)!;
    expect(child.system.endsWith("\n\n# Agent profile\n\nOnly read.")).toBe(true);
    expect(child.tools.map((t) => t.name)).toEqual(["echo"]);
    const parentReq = h.provider.requests[0]!;
    expect(parentReq.tools.find((t) => t.name === "task")!.description).toContain("- scout: scout profile");
  });

  it("unknown agent with no profiles at all: the seed's text naming where profiles go (B-8), no child started", async () => {
    h = harness(script(parent([{ prompt: "look", agent: "scout" }]), () => ({ text: "never" })));
    await h.run("go");
    expect(taskResults(h)[0]).toMatchObject({
      isError: true,
      content: 'unknown agent "scout". No agents are defined (create .ink/agents/*.md or ~/.ink/agents/*.md).',
    });
    expect(h.provider.requests.filter(isChild)).toHaveLength(0);
  });

  it("unknown agent with profiles lists the available names", async () => {
    h = harness(script(parent([{ prompt: "look", agent: "scot" }]), () => ({ text: "never" })), { profiles: [profile("scout"), profile("worker")] });
    await h.run("go");
    expect(taskResults(h)[0]!.content).toBe('unknown agent "scot". Available agents: scout, worker. Omit agent to use the general-purpose subagent.');
  });

  it("a profile with an unknown tool and a cross-provider model both fail before the child starts", async () => {
    const bad = profile("bad", { tools: ["echo", "teleport"] });
    const foreign = profile("foreign", { model: "openai/gpt-x" });
    h = harness(script(parent([{ prompt: "a", agent: "bad" }, { prompt: "b", agent: "foreign" }]), () => ({ text: "never" })), { profiles: [bad, foreign] });
    await h.run("go");
    const [a, b] = taskResults(h);
    expect(a).toMatchObject({ isError: true, content: expect.stringContaining('unknown tool "teleport"') });
    expect(a!.content).toContain("/profiles/bad.md");
    expect(b).toMatchObject({ isError: true, content: expect.stringContaining('provider "openai", but this session uses provider "scripted"') });
    expect(h.provider.requests.filter(isChild)).toHaveLength(0);
  });

  it("crash without text: the reason plus a resume hint, isError", async () => {
    h = harness(script(parent([{ prompt: "x" }]), () => ({ error: new ProviderError("api", "credit balance too low") })));
    await h.run("go");
    const [res] = taskResults(h);
    expect(res!.isError).toBe(true);
    // The only model call never answered: no turn was completed (C-3).
    expect(res!.content).toMatch(/^\[task\] child failed after 0 turns: credit balance too low/);
    expect(res!.content).toMatch(/continue it with task\(\{resume: "/);
  });

  it("crash with text: the partial text, then the pinned failure line, isError false", async () => {
    h = harness(
      script(parent([{ prompt: "x" }]), (r) =>
        r.messages.length === 1 ? { text: "found the entry point in src/a.ts", toolCalls: [{ name: "echo", arguments: { text: "more" } }] } : { error: new ProviderError("api", "quota exhausted") },
      ),
    );
    await h.run("go");
    const [res] = taskResults(h);
    expect(res!.isError).toBe(false);
    expect(res!.content).toContain("found the entry point in src/a.ts\n\n[task] child failed after 1 turn: quota exhausted; partial result above."); // one complete turn, then a call that failed (C-3)
  });

  it("ok but no final text is an error with a clear note", async () => {
    h = harness(script(parent([{ prompt: "x" }]), () => ({})));
    await h.run("go");
    expect(taskResults(h)[0]).toMatchObject({ isError: true, content: expect.stringContaining("without a final report: its last message had no text, even after it was asked once more") });
  });

  it("truncates long reports and says where the full text is", async () => {
    h = harness(script(parent([{ prompt: "x" }]), () => ({ text: "y".repeat(40_000) })));
    await h.run("go");
    const content = taskResults(h)[0]!.content;
    expect(content.length).toBeLessThan(31_000);
    expect(content).toMatch(/report truncated: \d+ of 40000 characters cut here .*; the full text is in the child's session file .*\.jsonl/);
  });

  it("relays child events tagged with the child id, profile and parent tool call, and records a taskRecord", async () => {
    h = harness(script(parent([{ prompt: "x", agent: "scout" }]), () => ({ text: "child says hi" })), { profiles: [profile("scout")] });
    await h.run("go");
    const start = h.events.find((e) => e.type === "subagent_start") as Extract<AgentEvent, { type: "subagent_start" }>;
    expect(start).toMatchObject({ parentToolCallId: "task-1", profile: "scout", prompt: "x", resumed: false });
    const relayed = h.events.filter((e): e is Extract<AgentEvent, { type: "subagent_event" }> => e.type === "subagent_event");
    expect(relayed.every((e) => e.childId === start.childId && e.parentToolCallId === "task-1")).toBe(true);
    expect(relayed.some((e) => e.event.type === "text_delta")).toBe(true);
    const end = h.events.find((e) => e.type === "subagent_end") as Extract<AgentEvent, { type: "subagent_end" }>;
    expect(end.summary).toMatchObject({ status: "ok", turns: 1 });
    const toolEnd = h.events.find((e) => e.type === "tool_end" && e.call.name === "task") as Extract<AgentEvent, { type: "tool_end" }>;
    expect((toolEnd.details as TaskDetails).taskRecord).toMatchObject({ childId: start.childId, profile: "scout", status: "ok", turns: 1, prompt: "x" });
    // never sent to the model
    expect(JSON.stringify(h.provider.requests.at(-1)!.messages)).not.toContain("taskRecord");
  });

  it("passes onToolCall down: the child's calls are judged and the check knows which child asks", async () => {
    const asked: string[] = [];
    h = harness(
      script(parent([{ prompt: "x", agent: "scout" }]), (r) => (r.messages.length === 1 ? { toolCalls: [{ name: "echo", arguments: { text: "hi" } }] } : { text: "done" })),
      {
        profiles: [profile("scout")],
        onToolCall: (call, agent) => {
          asked.push(`${agent.label}@${agent.depth}:${call.name}`);
          return call.name === "echo" ? { allow: false, reason: "no echo for children" } : { allow: true };
        },
      },
    );
    await h.run("go");
    expect(asked).toEqual(["main@0:task", "scout@1:echo"]);
    const childSecond = h.provider.requests.filter(isChild)[1]!;
    expect(JSON.stringify(childSecond.messages.at(-1))).toContain("no echo for children");
  });
});

describe("task tool: parallel children, abort and timeout", () => {
  it("runs several task calls concurrently (overlapping) and respects the cap", async () => {
    const log: string[] = [];
    let running = 0;
    let peak = 0;
    h = harness(
      script(parent([1, 2, 3, 4, 5].map((n) => ({ prompt: `job ${n}` }))), async (r) => {
        const p = firstPrompt(r);
        running++;
        peak = Math.max(peak, running);
        log.push(`start ${p}`);
        await new Promise((res) => setTimeout(res, 30));
        log.push(`end ${p}`);
        running--;
        return { text: `${p} done` };
      }),
      { maxConcurrent: 3 },
    );
    await h.run("go");
    expect(peak).toBe(3);
    // the first three overlap: all started before any ended
    expect(log.slice(0, 3).every((l) => l.startsWith("start"))).toBe(true);
    expect(taskResults(h).map((r) => r.content.split("\n")[0])).toEqual(["job 1 done", "job 2 done", "job 3 done", "job 4 done", "job 5 done"]);
  });

  it("parent abort aborts every child; each child's saved history is valid", async () => {
    const controller = new AbortController();
    let started = 0;
    h = harness(
      script(parent([{ prompt: "a" }, { prompt: "b" }]), (r) => {
        if (r.messages.length === 1) {
          if (++started === 2) setTimeout(() => controller.abort(), 5);
          return { toolCalls: [{ name: "echo", arguments: { text: "x" } }] };
        }
        return { text: "still working", delayMs: 60_000 };
      }),
    );
    const result = await h.run("go", { signal: controller.signal });
    expect(result.reason).toBe("aborted");
    const results = taskResults(h);
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.isError).toBe(true);
      expect(r.content).toContain("the parent run was aborted");
    }
    const ends = h.events.filter((e): e is Extract<AgentEvent, { type: "subagent_end" }> => e.type === "subagent_end");
    expect(ends.map((e) => e.summary.status)).toEqual(["aborted", "aborted"]);
    for (const e of ends) expect(isHistoryValid(h.store.load(e.summary.sessionId!).messages)).toBe(true);
    expect(isHistoryValid(h.history)).toBe(true);
  });

  it("after a parent abort, the task result is the child's own (with its session id) even when its tools take a while to stop", async () => {
    const { z } = await import("zod");
    const slowStop = {
      name: "slowstop",
      description: "ignores aborts for a while",
      schema: z.object({}),
      concurrent: false,
      readOnly: true,
      execute: () => new Promise<{ output: string; isError: boolean }>((r) => setTimeout(() => r({ output: "late", isError: false }), 200)),
    };
    const controller = new AbortController();
    h = harness(script(parent([{ prompt: "x" }]), (r) => (r.messages.length === 1 ? { toolCalls: [{ name: "slowstop", arguments: {} }] } : { text: "never" })), { extraTools: [slowStop] });
    h.events.length = 0;
    // the parent's grace for aborted tools is shorter than the child needs to stop
    const run = h.run("go", { signal: controller.signal, abortGraceMs: 20 });
    setTimeout(() => controller.abort(), 50);
    await run;
    const [res] = taskResults(h);
    expect(res!.content).toContain("the parent run was aborted");
    expect(res!.content).toMatch(/child session \S+/);
    const types = h.events.map((e) => e.type);
    expect(types.indexOf("subagent_end")).toBeLessThan(types.lastIndexOf("agent_end"));
  });

  it("timeoutMs stops only that child; the parent continues and sees the reason", async () => {
    h = harness(script(parent([{ prompt: "slow", timeoutMs: 1000 }, { prompt: "fast" }]), (r) => (firstPrompt(r) === "slow" ? { text: "partial", delayMs: 60_000 } : { text: "fast done" })));
    const result = await h.run("go");
    expect(result.reason).toBe("done");
    const [slow, fast] = taskResults(h);
    expect(slow).toMatchObject({ isError: true, content: expect.stringContaining("timed out after 1000 ms") });
    expect(fast).toMatchObject({ isError: false, content: expect.stringMatching(/^fast done/) });
    expect(h.history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "summary" }] });
  });

  it("removes its abort listeners: no leak on the parent signal after 100 children", async () => {
    const controller = new AbortController();
    h = harness(script(parent(Array.from({ length: 100 }, (_, i) => ({ prompt: `c${i}` }))), () => ({ text: "ok" })), { maxConcurrent: 8 });
    const before = getEventListeners(controller.signal, "abort").length;
    await h.run("go", { signal: controller.signal });
    expect(taskResults(h)).toHaveLength(100);
    expect(getEventListeners(controller.signal, "abort").length).toBe(before);
  });
});
