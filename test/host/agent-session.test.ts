import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { inkHomeDir } from "../../src/settings/paths.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

describe("AgentSession", () => {
  it("INK_HOME overrides ~/.ink", () => {
    expect(inkHomeDir({ INK_HOME: "/x/y" })).toBe("/x/y");
    expect(inkHomeDir({})).toMatch(/\.ink$/);
  });

  it("records the main session: header, messages and a task record per child (never sent to the model)", async () => {
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return { text: `report for ${firstPrompt(r)}` };
      return r.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "a" } }, { id: "t2", name: "task", arguments: { prompt: "b" } }] } : { text: "merged" };
    });
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    await session.prompt("investigate");
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "header", kind: "main", id: session.sessionId, prompt: "investigate", toolNames: expect.arrayContaining(["task", "read"]) });
    expect(lines.filter((l) => l.type === "message")).toHaveLength(4);
    const records = lines.filter((l) => l.type === "task_record").map((l) => l.record);
    expect(records.map((r) => r.prompt).sort()).toEqual(["a", "b"]);
    expect(records.every((r) => r.status === "ok")).toBe(true);
    // children point back at the main session
    const childHeader = JSON.parse(readFileSync(join(session.store!.dir, `${records[0].sessionId}.jsonl`), "utf8").split("\n")[0]);
    expect(childHeader).toMatchObject({ kind: "child", parentId: session.sessionId });
    expect(JSON.stringify(provider.requests.at(-1)!.messages)).not.toContain("task_record");
  });

  it("stopChild stops one running child; its sibling finishes and the main agent goes on", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return firstPrompt(r) === "slow" ? { text: "partial", waitFor: new Promise(() => undefined) } : { text: "quick report", waitFor: held };
      return r.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "slow" } }, { name: "task", arguments: { prompt: "quick" } }] } : { text: "went on" };
    });
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    const events: AgentEvent[] = [];
    let slowId = "";
    const run = session.prompt("go", {
      onEvent: (e) => {
        events.push(e);
        if (e.type === "subagent_start" && e.prompt === "slow") slowId = e.childId;
        if (e.type === "subagent_start" && e.prompt === "quick") queueMicrotask(() => {
          expect(session.runningChildren).toHaveLength(2);
          expect(session.stopChild(slowId)).toBe(true);
          release();
        });
      },
    });
    const result = await run;
    expect(result.reason).toBe("done");
    const results = (session.history.find((m) => m.role === "toolResult") as ToolResultMessage).results;
    expect(results[0]).toMatchObject({ isError: true, content: expect.stringContaining("stopped by the user") });
    expect(results[1]).toMatchObject({ isError: false, content: expect.stringMatching(/^quick report/) });
    expect(session.runningChildren).toEqual([]);
    expect(session.stopChild(slowId)).toBe(false);
    expect(session.history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "went on" }] });
  });

  it("reports malformed and untrusted profiles as notices and still starts", () => {
    const cwd = temp("ink-cwd-");
    const home = temp("ink-home-");
    mkdirSync(join(home, "agents"), { recursive: true });
    writeFileSync(join(home, "agents", "broken.md"), "---\nname: [unclosed\n---\nbody\n");
    writeFileSync(join(home, "agents", "helper.md"), "---\nname: helper\ndescription: helps\n---\nHelp.\n");
    mkdirSync(join(cwd, ".ink", "agents"), { recursive: true });
    writeFileSync(join(cwd, ".ink", "agents", "local.md"), "---\nname: local\ndescription: local one\n---\n");
    const session = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([]), model: "m", interactive: false, approval: {} });
    expect(session.profiles.profiles.map((p) => p.name)).toEqual(["helper"]);
    expect(session.notices.join("\n")).toMatch(/broken\.md skipped: /);
    expect(session.notices.join("\n")).toMatch(/not trusted/);
    expect(session.system).toContain("- helper: helps");
    expect(session.tools.find((t) => t.name === "task")!.description).toContain("- helper: helps");
  });
});

describe("AgentSession compaction", () => {
  it("compacts the main history past the threshold, saves it, and a reload equals the live history", async () => {
    const big = "x".repeat(3000);
    const provider = createScriptedProvider(
      (r) => {
        if (r.system.includes("summar")) return { text: "SUMMARY: user asked three things" };
        return { text: `answer ${r.messages.length} ${big}` };
      },
      { contextWindow: 4000 },
    );
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    const events: AgentEvent[] = [];
    for (const q of ["one", "two", "three", "four"]) await session.prompt(q, { onEvent: (e) => events.push(e) });
    const done = events.filter((e) => e.type === "compaction_end");
    expect(done.length).toBeGreaterThan(0);
    expect(done.every((e) => e.type === "compaction_end" && e.ok)).toBe(true);
    expect(JSON.stringify(session.history[0])).toContain("SUMMARY: user asked three things");
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.some((l) => l.type === "compaction")).toBe(true);
    session.close();
    expect(session.store!.load(session.sessionId).messages).toEqual(session.history);
  });

  it("a child compacts with the same check and records it in its own session file", async () => {
    const big = "y".repeat(3000);
    let childCalls = 0;
    const provider = createScriptedProvider(
      (r) => {
        if (r.system.includes("summar")) return { text: "CHILD SUMMARY" };
        if (isChild(r)) return ++childCalls < 4 ? { text: big, toolCalls: [{ name: "ls", arguments: {} }] } : { text: "child report" };
        return r.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "dig" } }] } : { text: "done" };
      },
      { contextWindow: 4000 },
    );
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    const events: AgentEvent[] = [];
    await session.prompt("go", { onEvent: (e) => events.push(e) });
    const relayed = events.filter((e) => e.type === "subagent_event" && e.event.type === "compaction_end");
    expect(relayed.length).toBeGreaterThan(0);
    const record = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l)).find((l) => l.type === "task_record").record;
    const child = readFileSync(join(session.store!.dir, `${record.sessionId}.jsonl`), "utf8");
    expect(child).toContain('"type":"compaction"');
    expect(child).toContain("CHILD SUMMARY");
    expect(record.status).toBe("ok");
  });
});

describe("AgentSession.resumeChild", () => {
  it("resumes a saved child through the task tool, streams it as a task call and records it; main history untouched", async () => {
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return { text: `child saw ${r.messages.length} messages` };
      return r.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "dig" } }] } : { text: "done" };
    });
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    await session.prompt("go");
    const childId = session.store!.list({ kind: "child" })[0]!.id;
    const before = session.history.length;
    const events: AgentEvent[] = [];
    const result = await session.resumeChild(childId, "and more?", { onEvent: (e) => events.push(e), toolCallId: "ui-1" });
    expect(result).toMatchObject({ toolCallId: "ui-1", isError: false, content: expect.stringMatching(/^child saw 3 messages/) });
    expect(events[0]).toMatchObject({ type: "tool_start", call: { id: "ui-1", name: "task", arguments: { prompt: "and more?", resume: childId } } });
    expect(events.some((e) => e.type === "subagent_start" && e.resumed && e.childId === childId)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "tool_end", result: { toolCallId: "ui-1" } });
    expect(session.history).toHaveLength(before);
    const records = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.type === "task_record");
    expect(records.map((r) => r.record.prompt)).toEqual(["dig", "and more?"]);
    const refused = await session.resumeChild("20200101-000000-abcdef", "x");
    expect(refused).toMatchObject({ isError: true, content: expect.stringContaining("cannot resume child 20200101-000000-abcdef:\n- there is no child session with this id") });
    session.close();
  });
});

describe("AgentSession persistence failures", () => {
  it("a session file that can no longer be written is reported once (naming it) and the conversation goes on", async () => {
    const { rmSync: rm, mkdirSync: mkdir } = await import("node:fs");
    const provider = createScriptedProvider((r) => (r.messages.length % 4 === 1 ? { toolCalls: [{ name: "ls", arguments: {} }] } : { text: "fine" }));
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    await session.prompt("one");
    const path = session.sessionPath!;
    rm(path);
    mkdir(path); // appends now fail with EISDIR
    const events: AgentEvent[] = [];
    const result = await session.prompt("two", { onEvent: (e) => events.push(e) });
    expect(result.reason).toBe("done");
    const warnings = events.filter((e) => e.type === "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ source: "session", message: expect.stringContaining(`session file ${path} cannot be written (EISDIR`) });
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining("goes on in memory") });
    expect(session.history.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant", "toolResult", "assistant"]);
    session.close();
  });

  it("a session kept in memory saves everything when it closes once the location is writable again", async () => {
    const provider = createScriptedProvider(() => ({ text: "fine" }));
    const home = temp("ink-home-");
    writeFileSync(join(home, "sessions"), "a file where the sessions directory should be");
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: home, provider, model: "m", interactive: true, approval: {} });
    const events: AgentEvent[] = [];
    await session.prompt("one", { onEvent: (e) => events.push(e) });
    await session.prompt("two", { onEvent: (e) => events.push(e) });
    rmSync(join(home, "sessions"));
    session.close();
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "header", id: session.sessionId });
    expect(lines.filter((l) => l.type === "message").map((l) => l.message.content)).toEqual(["one", expect.anything(), "two", expect.anything()]);
    expect(events.filter((e) => e.type === "warning").map((e) => (e as { message: string }).message)).toEqual([expect.stringMatching(/cannot be created .*goes on in memory/), expect.stringMatching(/is saved again \(\d+ entries written from memory\)/)]);
  });

  it("a session saved again mid-run (a later retry) takes its lock then, and releases it on close", async () => {
    const provider = createScriptedProvider(() => ({ text: "fine" }));
    const home = temp("ink-home-");
    writeFileSync(join(home, "sessions"), "a file where the sessions directory should be");
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: home, provider, model: "m", interactive: true, approval: {} });
    const events: AgentEvent[] = [];
    await session.prompt("one", { onEvent: (e) => events.push(e) });
    rmSync(join(home, "sessions"));
    const later = Date.now() + 6_000; // past the writer's retry interval
    vi.useFakeTimers({ toFake: ["Date"], now: later });
    try {
      await session.prompt("two", { onEvent: (e) => events.push(e) });
    } finally {
      vi.useRealTimers();
    }
    expect(events.filter((e) => e.type === "warning").map((e) => (e as { message: string }).message)).toEqual([expect.stringMatching(/goes on in memory/), expect.stringMatching(/is saved again/)]);
    expect(session.unsaved).toBe(false);
    const lockPath = `${session.sessionPath!}.lock`;
    expect(JSON.parse(readFileSync(lockPath, "utf8"))).toMatchObject({ pid: process.pid, owner: "main session" });
    session.close();
    expect(() => readFileSync(lockPath)).toThrow(/ENOENT/);
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === "message").map((l) => l.message.content)).toEqual(["one", expect.anything(), "two", expect.anything()]);
  });

  it("resuming a main session another live process holds is refused before anything is read", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-cwd-");
    const provider = createScriptedProvider(() => ({ text: "hi" }));
    const first = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: {} });
    await first.prompt("hello");
    expect(() => new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: {}, resume: first.sessionId })).toThrow(/in use by process/);
    first.close();
    const again = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: {}, resume: first.sessionId });
    expect(again.history).toHaveLength(2);
    again.close();
  });
});

describe("AgentSession.resumeChild stop", () => {
  it("stopping a child resumed by the person reports 'stopped by the user'", async () => {
    let calls = 0;
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return ++calls === 1 ? { text: "first" } : { text: "slow", waitFor: new Promise(() => undefined) };
      return r.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "dig" } }] } : { text: "done" };
    });
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    await session.prompt("go");
    const childId = session.store!.list({ kind: "child" })[0]!.id;
    const controller = new AbortController();
    const result = session.resumeChild(childId, "more", {
      signal: controller.signal,
      onEvent: (e) => e.type === "subagent_start" && queueMicrotask(() => controller.abort()),
    });
    expect(await result).toMatchObject({ isError: true, content: expect.stringContaining("stopped by the user") });
    session.close();
  });
});

describe("AgentSession task_result", () => {
  it("after a restart (resume of the main session) the main agent reads back a child's full report by id", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-cwd-");
    let childId = "";
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return { text: "FULL CHILD REPORT: the parser lives in src/parse.ts" };
      const last = r.messages.at(-1)!;
      if (last.role === "toolResult") return { text: "noted" };
      return firstPrompt(r) === "delegate" && r.messages.length === 1
        ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "find the parser" } }] }
        : { toolCalls: [{ id: "t2", name: "task_result", arguments: { id: childId } }] };
    });
    const first = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: {} });
    await first.prompt("delegate");
    childId = first.store!.list({ kind: "child" })[0]!.id;
    first.close();
    const again = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: {}, resume: first.sessionId });
    expect(again.tools.map((t) => t.name)).toContain("task_result");
    await again.prompt("what did the child say?");
    const read = (again.history.at(-2) as ToolResultMessage).results[0]!;
    expect(read).toMatchObject({ toolName: "task_result", isError: false });
    expect(read.content).toContain(`child ${childId} · general · ok · model m`);
    expect(read.content).toContain("FULL CHILD REPORT: the parser lives in src/parse.ts");
    again.close();
  });
});
