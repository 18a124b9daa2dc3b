/** tuiSession: the TUI's hold on a session — ops through submit, the facts as one object that changes only when they do, and the `note` op. */
import { describe, expect, it } from "vitest";
import { AgentSession, type AgentSessionOptions } from "../../src/host/agent-session.js";
import { tuiSession } from "../../src/host/tui-session.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const options = (): AgentSessionOptions => ({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider: createScriptedProvider(() => ({ text: "hello back" })), model: "m", interactive: true, approval: {} });

describe("tuiSession", () => {
  it("gives the same facts object while nothing changed, and a new one (with listeners told) after an op changed one", () => {
    const s = new AgentSession(options());
    const client = tuiSession(s);
    const first = client.facts();
    expect(first).toMatchObject({ sessionId: s.sessionId, cwd: s.cwd, model: "m", permissionMode: "default", unsaved: false, historyLength: 0, runningChildren: [] });
    expect(client.facts()).toBe(first);
    let told = 0;
    const off = client.onFacts(() => told++);
    client.submit({ type: "set_model", model: "other" });
    client.submit({ type: "set_mode", mode: "plan" });
    expect(told).toBeGreaterThanOrEqual(2);
    const after = client.facts();
    expect(after).not.toBe(first);
    expect(after).toMatchObject({ model: "other", permissionMode: "plan" });
    expect(client.facts()).toBe(after);
    off();
    s.close();
  });

  it("a prompt run through it tells the listeners: the conversation, its file and the spend are in the facts when it ends", async () => {
    const s = new AgentSession(options());
    const client = tuiSession(s);
    let told = 0;
    client.onFacts(() => told++);
    await client.submit({ type: "prompt", text: "hi" });
    expect(told).toBeGreaterThan(0);
    const facts = client.facts();
    expect(facts.historyLength).toBe(2);
    expect(facts.sessionPath).toBe(s.sessionPath);
    expect(facts.resultsFile).toBe(s.sessionPath);
    expect(facts.spend.length).toBeGreaterThan(0);
    expect(client.submit({ type: "get_history" })).toEqual(s.history);
    s.close();
  });

  it("the note op saves a line the resumed session shows, never sent to the model", async () => {
    const opts = options();
    const s = new AgentSession(opts);
    await s.submit({ type: "prompt", text: "hi" });
    s.submit({ type: "note", text: "model switched to x", tone: "info" });
    s.close();
    const back = new AgentSession({ ...opts, resume: s.sessionId });
    expect(back.view.map((v) => v.entry)).toContainEqual(expect.objectContaining({ type: "note", text: "model switched to x", tone: "info" }));
    expect(JSON.stringify(back.history)).not.toContain("model switched to x");
    back.close();
  });
});
