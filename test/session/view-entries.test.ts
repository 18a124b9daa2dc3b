import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession, type AgentSessionOptions } from "../../src/host/agent-session.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { SessionStore } from "../../src/session/store.js";
import { ViewTracker } from "../../src/session/view-entries.js";
import { isChild } from "../helpers/subagent-harness.js";
import type { AgentMessage } from "../../src/protocol/messages.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

function options(over: Partial<AgentSessionOptions> = {}): AgentSessionOptions {
  const provider = createScriptedProvider((r) => ({ text: `answer ${r.messages.length}` }));
  return { cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: provider.defaultModel, interactive: true, approval: { allow: ["bash"] }, ...over };
}

describe("a resumed session keeps what the person saw besides the conversation", () => {
  it("notes, `!` commands, /model and /mode come back in place; a `!` output no message carried yet still goes to the model", async () => {
    const base = options();
    const live = new AgentSession(base);
    live.note("said before any prompt", "dim");
    live.setModel("other-model");
    await live.runShell("echo FIRST-SHELL");
    // Nothing so far creates a session file on its own.
    expect(existsSync(live.store!.path(live.sessionId))).toBe(false);
    await live.prompt("question one");
    live.note("cost output", "info");
    live.setPermissionMode("plan");
    await live.runShell("echo SECOND-SHELL");
    live.close();

    const resumed = new AgentSession({ ...base, resume: live.sessionId });
    try {
      expect(resumed.model).toBe("other-model");
      expect(resumed.permissionMode).toBe("plan");
      expect(resumed.history).toHaveLength(2);
      const view = resumed.view.map((v) => ({ after: v.after, type: v.entry.type, text: v.entry.type === "note" ? v.entry.text : v.entry.command }));
      expect(view).toEqual([
        { after: 0, type: "note", text: "said before any prompt" },
        { after: 0, type: "shell", text: "echo FIRST-SHELL" },
        { after: 2, type: "note", text: "cost output" },
        { after: 2, type: "shell", text: "echo SECOND-SHELL" },
      ]);
      expect(resumed.view[1]!.entry).toMatchObject({ output: expect.stringContaining("FIRST-SHELL"), isError: false, durationMs: expect.any(Number) });
      // The first command went with "question one"; the second waits for the next message.
      expect(resumed.pendingShellCommands.map((n) => n.command)).toEqual(["echo SECOND-SHELL"]);
      await resumed.prompt("question two");
      const sent = (live.provider as ReturnType<typeof createScriptedProvider>).requests.at(-1)!.messages.at(-1)!;
      expect(JSON.stringify(sent)).toContain("SECOND-SHELL");
    } finally {
      resumed.close();
    }
  });

  it("the command line's --model / --permission-mode win over the saved choice; yolo is never switched on again by itself", async () => {
    const base = options();
    const live = new AgentSession(base);
    await live.prompt("q");
    live.setModel("chosen-model");
    live.setPermissionMode("yolo");
    live.close();
    const given = new AgentSession({ ...base, model: "flag-model", modelGiven: true, approval: { mode: "accept-edits" }, resume: live.sessionId });
    expect(given.model).toBe("flag-model");
    expect(given.permissionMode).toBe("accept-edits");
    given.close();
    const plain = new AgentSession({ ...base, resume: live.sessionId });
    expect(plain.model).toBe("chosen-model");
    expect(plain.permissionMode).toBe("default");
    expect(plain.notices.join("\n")).toMatch(/left in permission mode yolo; it goes on in the default mode/);
    plain.close();
  });

  it("a child's task record keeps its model (its cost can be priced again) and the loader gives it its time", async () => {
    const provider = createScriptedProvider((r) => (isChild(r) ? { text: "report" } : r.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "look" } }] } : { text: "done" }));
    const base = options({ provider, model: "claude-sonnet-4-5" });
    const live = new AgentSession(base);
    await live.prompt("go");
    live.close();
    const loaded = new SessionStore(base.inkHome).load(live.sessionId);
    expect(loaded.records[0]).toMatchObject({ model: "claude-sonnet-4-5", endedAt: expect.stringMatching(/^\d{4}-/) });
  });

  it("an old session file without these entries still loads, with nothing extra", () => {
    const base = options();
    const store = new SessionStore(base.inkHome);
    const w = store.create({ kind: "main", cwd: base.cwd, provider: "scripted", model: "m", fingerprint: "f", toolNames: [], prompt: "old" });
    w.append({ type: "message", message: { role: "user", content: "old" } });
    const loaded = store.load(w.id);
    expect(loaded).toMatchObject({ view: [], settings: {}, pendingShell: [], repaired: false });
  });

  it("a damaged note line is skipped with a note; the rest loads", () => {
    const base = options();
    const store = new SessionStore(base.inkHome);
    const w = store.create({ kind: "main", cwd: base.cwd, provider: "scripted", model: "m", fingerprint: "f", toolNames: [], prompt: "q" });
    w.append({ type: "message", message: { role: "user", content: "q" } });
    const path = store.path(w.id);
    writeFileSync(path, `${readFileSync(path, "utf8")}{"type":"note","tone":"info"}\n{"type":"note","text":"kept","tone":"odd"}\n`);
    const loaded = store.load(w.id);
    expect(loaded.notes.join("\n")).toMatch(/skipped line 3 .*text/);
    expect(loaded.view.map((v) => v.entry)).toMatchObject([{ type: "note", text: "kept", tone: "info" }]);
  });
});

describe("ViewTracker", () => {
  const user = (content: string): AgentMessage => ({ role: "user", content });
  const note = (text: string) => ({ type: "note" as const, text, tone: "info" as const, at: "" });

  it("an entry before compacted messages stands before the summary, one after them after it", () => {
    const v = new ViewTracker();
    v.add(note("early"), 1);
    v.add(note("late"), 3);
    v.compacted(2); // messages 0-1 replaced by a summary: [S, m2]
    const rebuilt = [user("S"), user("m2")];
    expect(v.place(rebuilt, rebuilt).map((e) => e.after)).toEqual([0, 2]);
  });

  it("a withdrawn prompt gives back its `!` outputs, and entries after it move up", () => {
    const v = new ViewTracker();
    v.add({ type: "shell", command: "ls", output: "a", isError: false, at: "" }, 0);
    const carrying = user('<user-shell-command command="ls" status="ok">\nThe user ran this shell command themselves; its output:\na\n</user-shell-command>\n\nhi');
    v.message(carrying);
    expect(v.pendingShell).toEqual([]);
    v.add(note("after"), 1);
    v.withdrawn(carrying, 0);
    expect(v.pendingShell).toEqual([{ command: "ls", output: "a", isError: false }]);
    expect(v.place([], []).map((e) => e.after)).toEqual([0, 0]);
  });

  it("places entries after the same message in the repaired history (a placeholder inserted before it)", () => {
    const v = new ViewTracker();
    const a: AgentMessage = { role: "assistant", content: [{ type: "text", text: "x" }], stopReason: "end_turn", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
    v.add(note("after a"), 1);
    expect(v.place([a], [user("placeholder"), a]).map((e) => e.after)).toEqual([2]);
  });
});
