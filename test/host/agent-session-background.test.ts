import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { userText, type ToolResultMessage, type UserMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { isHistorySendable } from "../../src/session/repair.js";
import { isChild } from "../helpers/subagent-harness.js";
import { waitUntil } from "../../components/testing/wait-for-frame.js";

const dirs: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const sessions: AgentSession[] = [];
afterEach(() => {
  sessions.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const userTexts = (r: ModelRequest) => r.messages.filter((m) => m.role === "user").map((m) => userText(m as UserMessage));
const notesIn = (r: ModelRequest) => userTexts(r).filter((t) => t.includes("<background-report"));
const lastUser = (r: ModelRequest) => {
  const m = r.messages.at(-1)!;
  return m.role === "user" ? userText(m as UserMessage) : "";
};
const until = (check: () => boolean, what: string) => waitUntil(check, { tries: 2000, what });

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

function setup(main: (r: ModelRequest) => ScriptedTurn, child: (r: ModelRequest) => ScriptedTurn, home?: { cwd: string; inkHome: string }) {
  const provider = createScriptedProvider((r) => (isChild(r) ? child(r) : main(r)));
  const cwd = home?.cwd ?? temp("ink-cwd-");
  const inkHome = home?.inkHome ?? temp("ink-home-");
  const session = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: true, approval: {} });
  sessions.push(session);
  const channel: AgentEvent[] = [];
  session.subscribe((e) => channel.push(e));
  const main$ = () => provider.requests.filter((r) => !isChild(r));
  return { provider, session, cwd, inkHome, channel, main: main$ };
}

/** Main: "go" starts a background child, then answers; any later request answers "ok". */
const startsBackground = (r: ModelRequest): ScriptedTurn => {
  const last = r.messages.at(-1)!;
  if (last.role === "user" && userText(last as UserMessage) === "go") return { toolCalls: [{ id: "bg1", name: "task", arguments: { prompt: "dig into src", background: true } }] };
  if (last.role === "toolResult") return { text: "started it; carrying on" };
  return { text: "ok" };
};

describe("background children (task with background: true)", () => {
  it("the call returns at once; the report reaches the next main request exactly once", async () => {
    const g = gate();
    const { session, main, channel } = setup(startsBackground, () => ({ text: "BG-REPORT: found it in src/x.ts", waitFor: g.promise }));
    await session.prompt("go");
    // The parent's turn went on while the child works.
    const toolResult = main()[1]!.messages.at(-1) as ToolResultMessage;
    expect(toolResult.results[0]!.content).toMatch(/^\[task\] child \S+ is running in the background; its report will be delivered when it ends\./);
    expect(session.backgroundRunning).toHaveLength(1);
    const childId = session.backgroundRunning[0]!;
    g.open();
    await until(() => session.hasUndeliveredReports, "the report waiting");
    expect(channel.find((e) => e.type === "background_ready")).toEqual({ type: "background_ready", childIds: [childId], mainIdle: true });

    await session.prompt("next question");
    const delivered = main().at(-1)!;
    expect(notesIn(delivered)).toHaveLength(1);
    expect(notesIn(delivered)[0]).toContain(`child="${childId}"`);
    expect(notesIn(delivered)[0]).toContain("BG-REPORT: found it in src/x.ts");
    expect(isHistorySendable(delivered.messages)).toBe(true);

    await session.prompt("and then?");
    // Exactly once: the note is in the history (sent again as history), but no new note was added.
    expect(notesIn(main().at(-1)!)).toHaveLength(1);
    expect(session.hasUndeliveredReports).toBe(false);
  });

  it("a report that arrives while the main agent works enters at its next turn boundary", async () => {
    const g = gate();
    let childDone!: () => void;
    const done = new Promise<void>((r) => (childDone = r));
    const { session, main, channel } = setup(
      (r) => {
        const last = r.messages.at(-1)!;
        if (last.role === "user" && userText(last as UserMessage) === "go") return { toolCalls: [{ id: "bg1", name: "task", arguments: { prompt: "dig", background: true } }] };
        if (last.role === "toolResult" && (last as ToolResultMessage).results[0]!.toolName === "task") {
          g.open();
          return { toolCalls: [{ id: "ls1", name: "ls", arguments: {} }], waitFor: done };
        }
        return { text: "done" };
      },
      () => ({ text: "BG-REPORT", waitFor: g.promise }),
    );
    session.subscribe((e) => e.type === "background_ready" && childDone());
    const events: AgentEvent[] = [];
    await session.prompt("go", { onEvent: (e) => events.push(e) });
    const third = main()[2]!;
    expect(lastUser(third)).toContain("BG-REPORT");
    expect(third.messages.at(-2)!.role).toBe("toolResult");
    expect(isHistorySendable(third.messages)).toBe(true);
    expect(events.filter((e) => e.type === "background_delivery")).toEqual([{ type: "background_delivery", childIds: [expect.any(String)], startsTurn: false }]);
    expect(channel.find((e) => e.type === "background_ready")).toMatchObject({ mainIdle: false });
    expect(await session.deliverBackground()).toBeUndefined();
  });

  it("when the main agent is idle, the delivery starts a main turn by itself (once)", async () => {
    const g = gate();
    const { session, main } = setup(startsBackground, () => ({ text: "IDLE-REPORT", waitFor: g.promise }));
    await session.prompt("go");
    g.open();
    await until(() => session.hasUndeliveredReports, "the report waiting");
    const before = main().length;
    const events: AgentEvent[] = [];
    const result = await session.deliverBackground({ onEvent: (e) => events.push(e) });
    expect(result?.reason).toBe("done");
    expect(main()).toHaveLength(before + 1);
    expect(lastUser(main().at(-1)!)).toContain("IDLE-REPORT");
    expect(events[0]).toEqual({ type: "background_delivery", childIds: [expect.any(String)], startsTurn: true });
    expect(await session.deliverBackground()).toBeUndefined();
    expect(main()).toHaveLength(before + 1);
  });

  it("a report not delivered when the session ended is delivered on --continue/--resume, once", async () => {
    const g = gate();
    const first = setup(startsBackground, () => ({ text: "SAVED-REPORT", waitFor: g.promise }));
    await first.session.prompt("go");
    g.open();
    await until(() => first.session.hasUndeliveredReports, "the report waiting");
    first.session.close();
    const lines = readFileSync(first.session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.some((l) => l.type === "background_report" && l.report.output.includes("SAVED-REPORT"))).toBe(true);

    const home = { cwd: first.cwd, inkHome: first.inkHome };
    const provider = createScriptedProvider(() => ({ text: "thanks" }));
    const resumed = new AgentSession({ ...home, provider, model: "m", interactive: true, approval: {}, resume: first.session.sessionId });
    sessions.push(resumed);
    expect(resumed.hasUndeliveredReports).toBe(true);
    await resumed.prompt("where were we?");
    expect(notesIn(provider.requests.at(-1)!).join("")).toContain("SAVED-REPORT");
    resumed.close();

    const again = createScriptedProvider(() => ({ text: "fine" }));
    const third = new AgentSession({ ...home, provider: again, model: "m", interactive: true, approval: {}, resume: first.session.sessionId });
    sessions.push(third);
    expect(third.hasUndeliveredReports).toBe(false);
    await third.prompt("more");
    // Only the one note already in the history; nothing delivered twice.
    expect(notesIn(again.requests.at(-1)!)).toHaveLength(1);
  });

  it("moving a running foreground child to the background returns its pending call; its report follows", async () => {
    const g = gate();
    const { session, main } = setup(
      (r) => {
        const last = r.messages.at(-1)!;
        if (last.role === "user" && userText(last as UserMessage) === "go") return { toolCalls: [{ id: "fg1", name: "task", arguments: { prompt: "long job" } }] };
        if (last.role === "toolResult") return { text: "went on" };
        return { text: "ok" };
      },
      () => ({ text: "FG-REPORT", waitFor: g.promise }),
    );
    const run = session.prompt("go");
    await until(() => session.runningChildren.length === 1, "the child running");
    expect(session.moveToBackground()).toEqual(session.runningChildren);
    await run;
    const result = (main()[1]!.messages.at(-1) as ToolResultMessage).results[0]!;
    expect(result.content).toMatch(/^\[task\] moved to the background by the user; its report will follow\./);
    expect(result.isError).toBe(false);
    expect(session.backgroundRunning).toHaveLength(1);
    g.open();
    await until(() => session.hasUndeliveredReports, "the report waiting");
    await session.deliverBackground();
    expect(lastUser(main().at(-1)!)).toContain("FG-REPORT");
  });

  it("stopping the main turn after moving its children to the background keeps them running (Esc)", async () => {
    const g = gate();
    const { session, main } = setup(
      (r) => {
        const last = r.messages.at(-1)!;
        if (last.role === "user" && userText(last as UserMessage) === "go") return { toolCalls: [{ id: "fg1", name: "task", arguments: { prompt: "long job" } }] };
        return { text: "after" };
      },
      () => ({ text: "SURVIVED", waitFor: g.promise }),
    );
    const ac = new AbortController();
    const run = session.prompt("go", { signal: ac.signal });
    await until(() => session.runningChildren.length === 1, "the child running");
    session.moveToBackground();
    ac.abort();
    expect((await run).reason).toBe("aborted");
    expect(session.backgroundRunning).toHaveLength(1);
    g.open();
    await until(() => session.hasUndeliveredReports, "the report waiting");
    await session.deliverBackground();
    expect(lastUser(main().at(-1)!)).toContain("SURVIVED");
    expect(isHistorySendable(main().at(-1)!.messages)).toBe(true);
  });

  it("background children count against the concurrency cap", async () => {
    const g = gate();
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return { text: "r", waitFor: g.promise };
      const last = r.messages.at(-1)!;
      if (last.role === "user") return { toolCalls: [1, 2, 3].map((n) => ({ id: `b${n}`, name: "task", arguments: { prompt: `job ${n}`, background: true } })) };
      return { text: "ok" };
    });
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {}, maxConcurrentChildren: 2 });
    sessions.push(session);
    await session.prompt("go");
    await until(() => session.runningChildren.length === 2, "two children running");
    expect(session.backgroundRunning).toHaveLength(3);
    expect(session.runningChildren).toHaveLength(2);
    g.open();
    await session.whenBackgroundIdle();
    expect(session.childRows.map((r) => r.state)).toEqual(["done", "done", "done"]);
  });
});

describe("task_wait in a session", () => {
  it("the main agent waits for two background children and gets both reports in completion order; neither is delivered again", async () => {
    const gates = { A: gate(), B: gate() };
    const { session, main } = setup(
      (r) => {
        const last = r.messages.at(-1)!;
        if (last.role === "user" && userText(last as UserMessage) === "go")
          return { toolCalls: [{ id: "ta", name: "task", arguments: { prompt: "job A", background: true } }, { id: "tb", name: "task", arguments: { prompt: "job B", background: true } }] };
        if (last.role === "toolResult" && (last as ToolResultMessage).results[0]!.toolName === "task") {
          setTimeout(() => gates.B.open(), 0); // A is let go only once B's report is in (below)
          return { toolCalls: [{ id: "w", name: "task_wait", arguments: {} }] };
        }
        return { text: "both in" };
      },
      (r) => {
        const prompt = userText(r.messages[0] as UserMessage);
        return prompt.includes("job A") ? { text: "REPORT-A", waitFor: gates.A.promise } : { text: "REPORT-B", waitFor: gates.B.promise };
      },
    );
    session.subscribe((e) => e.type === "background_ready" && gates.A.open());
    await session.prompt("go");
    const waited = (main()[2]!.messages.at(-1) as ToolResultMessage).results[0]!;
    expect(waited.toolName).toBe("task_wait");
    expect(waited.content.indexOf("REPORT-B")).toBeGreaterThanOrEqual(0);
    expect(waited.content.indexOf("REPORT-A")).toBeGreaterThan(waited.content.indexOf("REPORT-B"));
    expect(session.hasUndeliveredReports).toBe(false);
    await session.prompt("anything else?");
    expect(notesIn(main().at(-1)!)).toHaveLength(0);
  });
});

describe("a profile's background default", () => {
  it("`background: true` in front matter runs its children in the background unless the call says otherwise; a non-boolean is refused naming the fix", async () => {
    const { parseProfile } = await import("../../src/subagents/profiles/profile-parse.js");
    const origin = { path: "/x/a.md", source: "user" as const, hash: "h" };
    const ok = parseProfile("---\nname: bg\ndescription: d\nbackground: true\n---\nbody\n", origin);
    expect(ok).toMatchObject({ ok: true, profile: { background: true } });
    const bad = parseProfile("---\nname: bg\ndescription: d\nbackground: sometimes\n---\nbody\n", origin);
    expect(bad).toMatchObject({ ok: false, reason: expect.stringMatching(/background.*true or false/) });

    const g = gate();
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return { text: "R", waitFor: g.promise };
      const last = r.messages.at(-1)!;
      if (last.role === "user" && userText(last as UserMessage) === "go") return { toolCalls: [{ id: "p1", name: "task", arguments: { prompt: "x", agent: "bg" } }, { id: "p2", name: "task", arguments: { prompt: "y", agent: "bg", background: false } }] };
      return { text: "ok" };
    });
    const inkHome = temp("ink-home-");
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(inkHome, "agents"), { recursive: true });
    writeFileSync(join(inkHome, "agents", "bg.md"), "---\nname: bg\ndescription: d\nbackground: true\n---\nbody\n");
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome, provider, model: "m", interactive: true, approval: {} });
    sessions.push(session);
    const run = session.prompt("go");
    await until(() => session.runningChildren.length === 2, "both children running");
    expect(session.backgroundRunning).toHaveLength(1);
    g.open();
    await run;
    const results = (provider.requests.filter((r) => !isChild(r))[1]!.messages.find((m) => m.role === "toolResult") as ToolResultMessage).results;
    expect(results[0]!.content).toMatch(/running in the background/);
    expect(results[1]!.content).toMatch(/^R/);
  });
});
