/** Seed rows H-2 / H-4: a refused `task` call leaves a task record in the parent's session, saying why there is no transcript. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import type { Provider } from "../../src/protocol/provider.js";
import { isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

describe("H-2 / H-4: refused task calls are recorded", () => {
  it("bad arguments, an unknown agent and a refused resume each leave a refused record with the reason; a run child keeps its own record", async () => {
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) return { text: "the report" };
      return r.messages.length === 1
        ? {
            toolCalls: [
              { id: "bad", name: "task", arguments: { agent: "scout" } },
              { id: "unknown", name: "task", arguments: { prompt: "look", agent: "scout" } },
              { id: "resume", name: "task", arguments: { prompt: "more", resume: "20990101-000000-abcdef" } },
              { id: "ran", name: "task", arguments: { prompt: "look around" } },
            ],
          }
        : { text: "done" };
    });
    const inkHome = temp("ink-home-");
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome, provider, model: "m", interactive: true, approval: {} });
    await session.prompt("go");
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const records = new Map(lines.filter((l) => l.type === "task_record").map((l) => [l.record.toolCallId, l.record]));
    expect(records.get("bad")).toMatchObject({ status: "refused", turns: 0, prompt: "", profile: "scout", noTranscript: expect.stringMatching(/^the call was refused before a child started: .*prompt/) });
    expect(records.get("unknown")).toMatchObject({ status: "refused", prompt: "look", noTranscript: 'the call was refused before a child started: unknown agent "scout". No agents are defined (create .ink/agents/*.md or ~/.ink/agents/*.md).' });
    expect(records.get("resume")).toMatchObject({ status: "refused", childId: "20990101-000000-abcdef", noTranscript: expect.stringContaining("cannot resume child 20990101-000000-abcdef: - there is no child session with this id") });
    expect(records.get("ran")).toMatchObject({ status: "ok", prompt: "look around" });
    expect(records.get("ran").noTranscript).toBeUndefined();
    // A refused call is no child: a resumed session lists only the child that ran.
    session.close();
    const resumed = new AgentSession({ cwd: session.cwd, inkHome, provider, model: "m", interactive: true, approval: {}, resume: session.sessionId });
    expect(resumed.taskRecords.map((r) => r.prompt)).toEqual(["look around"]);
    resumed.close();
  });

  it("a call stopped while it waited for a slot is recorded as stopped before its child started, not refused, and is no child on resume", async () => {
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    let firstChildStarted!: () => void;
    const started = new Promise<void>((r) => (firstChildStarted = r));
    const provider = createScriptedProvider((r) => {
      if (isChild(r)) {
        firstChildStarted();
        return { text: "first report", waitFor: blocked };
      }
      return r.messages.length === 1
        ? {
            toolCalls: [
              { id: "first", name: "task", arguments: { prompt: "first" } },
              { id: "queued", name: "task", arguments: { prompt: "second" } },
            ],
          }
        : { text: "done" };
    });
    const inkHome = temp("ink-home-");
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome, provider, model: "m", interactive: true, approval: {}, maxConcurrentChildren: 1 });
    const stop = new AbortController();
    const run = session.prompt("go", { signal: stop.signal });
    await started;
    stop.abort();
    release();
    await run;
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const records = new Map(lines.filter((l) => l.type === "task_record").map((l) => [l.record.toolCallId, l.record]));
    expect(records.get("queued")).toMatchObject({ status: "cancelled", turns: 0, prompt: "second", noTranscript: "the call was stopped before its child started: [task] stopped: the parent run was aborted before the child started." });
    session.close();
    const resumed = new AgentSession({ cwd: session.cwd, inkHome, provider, model: "m", interactive: true, approval: {}, resume: session.sessionId });
    expect(resumed.taskRecords.map((r) => r.prompt)).toEqual(["first"]);
    resumed.close();
  });

  it("a child that fails after it started keeps its id and transcript in its record", async () => {
    const scripted = createScriptedProvider((r) => (isChild(r) ? { text: "never" } : r.messages.length === 1 ? { toolCalls: [{ id: "broken", name: "task", arguments: { prompt: "look", model: "odd-model" } }] } : { text: "done" }));
    // The child's compactor asks the context window of its model: for this one the provider throws.
    const provider: Provider = Object.assign(Object.create(scripted) as Provider, {
      contextWindow: (model: string) => {
        if (model === "odd-model") throw new Error("no window for odd-model");
        return scripted.contextWindow(model);
      },
    });
    const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {} });
    await session.prompt("go");
    const lines = readFileSync(session.sessionPath!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const record = lines.find((l) => l.type === "task_record")?.record;
    expect(record).toMatchObject({ status: "crash", toolCallId: "broken", prompt: "look" });
    expect(record.childId).not.toBe("");
    expect(record.noTranscript).toBeUndefined();
    const child = readFileSync(join(dirname(session.sessionPath!), `${record.sessionId}.jsonl`), "utf8");
    expect(child).toContain('"status":"crash"');
    expect(child).toContain("no window for odd-model");
    session.close();
  });
});
