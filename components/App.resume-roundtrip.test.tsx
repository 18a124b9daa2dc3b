import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession, type AgentSessionOptions } from "../src/host/agent-session.js";
import { tuiSession } from "../src/host/tui-session.js";
import type { ModelRequest } from "../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../src/providers/scripted.js";
import { App } from "./App.js";
import { ApprovalBroker } from "./state/approval-broker.js";
import { firstPrompt, isChild } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

const lastUser = (r: ModelRequest) => {
  const m = r.messages.at(-1);
  return m?.role === "user" ? (typeof m.content === "string" ? m.content : m.content.map((b) => b.text).join("")) : "";
};

/** The conversation: a question answered with a child's help, then an answer the person interrupts. */
function script(r: ModelRequest): ScriptedTurn {
  if (isChild(r)) return { text: `CHILD REPORT on ${firstPrompt(r)}`, usage: { input: 1200, output: 150 } };
  if (lastUser(r).includes("second question")) return { text: "PARTIAL ANSWER", waitFor: new Promise(() => undefined) };
  if (r.messages.length === 1) return { toolCalls: [{ id: "task-1", name: "task", arguments: { prompt: "look around" } }], usage: { input: 1500, output: 60 } };
  return { text: "ANSWER ONE", usage: { input: 2100, output: 240, cacheRead: 400 } };
}

/** One Ink over `options`: the app rendered, and the session closed when the test ends. */
function open(options: AgentSessionOptions, approvals: ApprovalBroker) {
  const session = new AgentSession(options);
  const app = render(<App session={tuiSession(session)} approvals={approvals} flushMs={10} newSession={() => tuiSession(new AgentSession({ ...options, resume: undefined }))} />);
  cleanup.push(() => {
    app.unmount();
    session.close();
  });
  return { session, app };
}

/** The frame with times (which differ by milliseconds between a live run and its record) made equal. */
const timeless = (frame: string) => frame.replace(/\b\d+(\.\d+)?(ms|s)\b/g, "T");

/** The status bar row (model, mode, context, tokens, cost). */
const statusRow = (frame: string) => frame.split("\n").find((l) => /tokens/.test(l) && /ctx/.test(l))!.trim();

describe("a resumed session shows what the person saw when they left", () => {
  it("the same transcript, status bar, model, mode and cost after closing and reopening", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ink-rt-cwd-"));
    const inkHome = mkdtempSync(join(tmpdir(), "ink-rt-home-"));
    mkdirSync(join(inkHome, "agents"), { recursive: true });
    cleanup.push(() => {
      rmSync(cwd, { recursive: true, force: true });
      rmSync(inkHome, { recursive: true, force: true });
    });
    writeFileSync(join(cwd, "notes.txt"), "one\ntwo\nthree\n");
    const provider = createScriptedProvider(script);
    const approvals = new ApprovalBroker({ cwd });
    const base: AgentSessionOptions = { cwd, inkHome, provider, model: "claude-sonnet-4-5", interactive: true, persist: true, approval: { ask: approvals.ask, allow: ["bash"] } };

    const live = open(base, approvals);
    const idle = (f: string) => f.includes("Enter send");
    await typeAndSubmit(live.app, "first question");
    await waitForFrame(live.app.lastFrame, (f) => f.includes("ANSWER ONE") && idle(f), { tries: 500, what: "the first answer" });
    await typeAndSubmit(live.app, "!echo SENT-SHELL");
    await waitForFrame(live.app.lastFrame, (f) => f.includes("its output goes to the model") && idle(f), { tries: 500, what: "the ! command" });
    await typeAndSubmit(live.app, "@notes.txt second question");
    await waitForFrame(live.app.lastFrame, (f) => f.includes("PARTIAL ANSWER"), { tries: 500, what: "the second answer streaming" });
    live.app.stdin.write("\u0003");
    await waitForFrame(live.app.lastFrame, (f) => f.includes("⏹ interrupted") && idle(f), { tries: 500, what: "the interruption" });
    await typeAndSubmit(live.app, "/model claude-opus-4-5");
    await waitForFrame(live.app.lastFrame, (f) => f.includes("model switched to claude-opus-4-5"), { what: "the model switch" });
    await typeAndSubmit(live.app, "!echo PENDING-SHELL");
    await waitForFrame(live.app.lastFrame, (f) => f.includes("PENDING-SHELL") && f.split("its output goes to the model").length === 3 && idle(f), { tries: 500, what: "the second ! command" });
    await typeAndSubmit(live.app, "/mode plan");
    await waitForFrame(live.app.lastFrame, (f) => f.includes("permission mode: plan"), { what: "the mode switch" });
    await typeAndSubmit(live.app, "/cost");
    const left = await waitForFrame(live.app.lastFrame, (f) => f.includes("Session: $"), { what: "the /cost output" });
    // What the person saw: each of these is in the live frame.
    for (const seen of ["📎 attached notes.txt (3 lines)", "⏹ interrupted", "SENT-SHELL", "PENDING-SHELL", "model switched to claude-opus-4-5", "permission mode: plan", "Session: $", "CHILD REPORT"]) expect(left).toContain(seen);
    live.app.unmount();
    live.session.close();

    const back = open({ ...base, resume: live.session.sessionId }, approvals);
    const shown = await waitForFrame(back.app.lastFrame, (f) => f.includes("Session: $") && idle(f), { tries: 500, what: "the resumed session" });
    expect(back.session.model).toBe("claude-opus-4-5");
    expect(back.session.permissionMode).toBe("plan");
    expect(statusRow(shown)).toBe(statusRow(left));
    expect(statusRow(shown)).toMatch(/^claude-opus-4-5 · ⏵ plan · ctx 1% .* · \$0\.02 · scripted$/); // children priced too: no "+"
    // Everything below the start-up header (which names the model this run started with) is as it was.
    const belowHeader = (frame: string) => timeless(frame).split("\n").slice(1).join("\n");
    expect(shown.split("\n")[0]).toMatch(/scripted\/claude-opus-4-5$/);
    expect(belowHeader(shown)).toBe(belowHeader(left));
    // The command the person ran that no message carried yet still goes to the model with the next one.
    expect(back.session.pendingShellCommands.map((n) => n.command)).toEqual(["echo PENDING-SHELL"]);
  });
});
