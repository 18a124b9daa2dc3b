import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../src/protocol/messages.js";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { CLEAR_SCREEN } from "./App.js";
import { firstPrompt, isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const CTRL_C = "\u0003";
const lastResults = (r: ModelRequest) => (r.messages[r.messages.length - 1] as ToolResultMessage).results;
const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";

/** Main: two parallel task calls (scout + general); children wait for `gate`; then a summary. */
function delegatingScript(gate: Promise<unknown>) {
  return (r: ModelRequest): ScriptedTurn => {
    if (isChild(r)) {
      const p = firstPrompt(r);
      const text = p.includes("tests") ? "TESTS-REPORT: covered by test/login.test.ts" : "IMPL-REPORT: login lives in src/auth/login.ts";
      return { text, waitFor: gate, usage: { input: 1000, output: 200 } };
    }
    if (afterTools(r)) return { text: "Summary: both children reported." };
    return {
      text: "Delegating.",
      toolCalls: [
        { name: "task", arguments: { prompt: "find the login implementation", agent: "scout", description: "find login code" } },
        { name: "task", arguments: { prompt: "find the login tests" } },
      ],
    };
  };
}

describe("App", () => {
  it("shows the header, the user's message and the streamed answer", async () => {
    h = renderApp(() => ({ text: "Hello **there**, the answer is `42`.", usage: { input: 3000, output: 120 } }));
    await waitForFrame(h.app.lastFrame, (f) => f.includes("✦ Ink") && f.includes("scripted/scripted-model"));
    await typeAndSubmit(h.app, "hello");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("Hello there, the answer is 42."), { what: "the streamed answer" });
    expect(frame).toContain("› hello");
    expect(frame).toContain("ctx 2% of 200k · ↑3.0k ↓120 tokens");
    expect(h.session.history.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("draws the input box across the whole width of the terminal", async () => {
    h = renderApp(() => ({ text: "ok" }));
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink"));
    const top = frame.split("\n").find((l) => l.startsWith("╭"))!;
    const widest = Math.max(...frame.split("\n").map((l) => l.length));
    expect(top.length).toBe(widest);
    expect(top.length).toBeGreaterThan(60);
  });

  it("sends the initial prompt on start", async () => {
    h = renderApp(() => ({ text: "Started from the command line." }), { initialPrompt: "first task" });
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("Started from the command line."), { what: "the initial run" });
    expect(frame).toContain("› first task");
    expect(h.provider.requests[0]!.messages).toEqual([{ role: "user", content: "first task" }]);
  });

  it("shows two live panes while children run in parallel, then collapses them to summary lines", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp(delegatingScript(gate));
    await typeAndSubmit(h.app, "where is login?");
    const live = await waitForFrame(h.app.lastFrame, (f) => f.includes("IMPL-REPORT") && f.includes("TESTS-REPORT"), { what: "both panes streaming" });
    expect(live).toMatch(/scout · find login code · running/);
    expect(live).toMatch(/general · find the login t\S* · running/);
    expect(live).toContain("2 agents running");
    expect(live.match(/╭/g)?.length).toBeGreaterThanOrEqual(3); // two panes + the prompt box
    release();
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("Summary: both children reported."), { what: "the final answer" });
    expect(done).toMatch(/✓ scout · find login code · 1 turn · [\d.]+s · 1\.2k tokens — IMPL-REPORT: login lives in s\S*… \[/);
    // At 100 columns the report line is cut to 32 first, then this row's token count gives way (issue #39: tokens before the report).
    expect(done).toMatch(/✓ general · find the login tests · 1 turn · [\d.]+s — TESTS-REPORT/);
    expect(done).not.toContain("· running");
    expect(done).not.toContain("agents running");
    expect(done.indexOf("✓ scout")).toBeLessThan(done.indexOf("Summary: both"));
  });

  it("Esc while children run stops the main agent's turn only: the children go to the background, keep working, and their reports reach the main agent", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const base = delegatingScript(gate);
    h = renderApp((r) => {
      const last = r.messages.at(-1)!;
      if (!isChild(r) && last.role === "user" && typeof last.content === "string" && last.content.includes("<background-report")) return { text: "GOT THE BACKGROUND REPORTS" };
      return base(r);
    });
    await typeAndSubmit(h.app, "where is login?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("IMPL-REPORT") && f.includes("TESTS-REPORT"), { what: "both panes streaming" });
    h.app.stdin.write("\u001b");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("keep working in the background"), { what: "the turn to stop on Esc" });
    expect(frame).toContain("Ctrl-C on an empty prompt stops them");
    expect(frame.replace(/\s+/g, " ")).toMatch(/its 2 children \[[0-9a-f]{6}\], \[[0-9a-f]{6}\] keep working/); // the short ids the panes show
    // The key it names is the pane's real stop key (a typed x is a message for the child).
    expect(frame.replace(/\s+/g, " ")).toContain("(Ctrl-X on a focused pane stops one)");
    // One line says what happened: no second `interrupted` line under it, live or in the session file.
    await new Promise((r) => setTimeout(r, 300)); // the aborted turn's end has come by now (flushMs 10)
    expect(h.app.lastFrame()).not.toContain("interrupted");
    expect(h.app.lastFrame()!.match(/stopped the main agent's turn/g)).toHaveLength(1);
    expect(frame).toMatch(/scout · find login code · running/);
    expect(frame).toMatch(/general · find the login t\S* · running/);
    expect(frame).not.toMatch(/· aborted/);
    // The main agent's calls returned "moved to the background"; the history stays valid.
    const results = h.session.history.find((m): m is ToolResultMessage => m.role === "toolResult")!.results;
    expect(results.map((r) => r.content.startsWith("[task] moved to the background by the user; its report will follow."))).toEqual([true, true]);
    release();
    await waitForFrame(h.app.lastFrame, (f) => f.includes("GOT THE BACKGROUND REPORTS"), { what: "the delivery turn" });
    // Each of the two reports entered the main agent's history exactly once.
    const last = h.provider.requests.filter((r) => !isChild(r)).at(-1)!;
    const carried = last.messages.flatMap((m) => (m.role === "user" && typeof m.content === "string" ? [...m.content.matchAll(/<background-report child="([^"]*)"/g)].map((x) => x[1]) : []));
    expect(carried).toHaveLength(2);
    expect(new Set(carried).size).toBe(2);
    expect(h.exits).toEqual([]);
  });

  it("Ctrl-C on an empty prompt with children running asks first; n keeps them, y stops them and the panes say aborted", async () => {
    h = renderApp(delegatingScript(new Promise(() => {})));
    await typeAndSubmit(h.app, "where is login?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("IMPL-REPORT") && f.includes("TESTS-REPORT"), { what: "both panes streaming" });
    h.app.stdin.write(CTRL_C);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Stop 2 running children? y/n"), { what: "the question" });
    h.app.stdin.write("n");
    const kept = await waitForFrame(h.app.lastFrame, (f) => !f.includes("Stop 2 running children?"), { what: "the question to close" });
    expect(kept).toMatch(/scout · find login code · running/);
    expect(h.session.runningChildren).toHaveLength(2);
    h.app.stdin.write(CTRL_C);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Stop 2 running children? y/n"), { what: "the question again" });
    h.app.stdin.write("y");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("interrupted") && f.includes("stopped 2 children"), { what: "the run to stop" });
    expect(frame).toMatch(/⏹ scout · find login code · aborted/);
    expect(frame).toMatch(/⏹ general · find the login t\S* · aborted/);
    expect(frame).toContain("Ask Ink");
    expect(h.exits).toEqual([]);
    // History stays valid: both task calls got (error) results.
    const results = h.session.history.find((m): m is ToolResultMessage => m.role === "toolResult")!.results;
    expect(results.map((r) => r.isError)).toEqual([true, true]);
  });

  it("idle: the first Ctrl-C asks to press again, a second within the window exits with 0", async () => {
    h = renderApp(() => ({ text: "unused" }), { exitWindowMs: 60 });
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink"));
    h.app.stdin.write(CTRL_C);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Press Ctrl-C again to exit"));
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("Press Ctrl-C again to exit"), { what: "the exit window to pass" });
    h.app.stdin.write(CTRL_C);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Press Ctrl-C again to exit"));
    expect(h.exits).toEqual([]);
    h.app.stdin.write(CTRL_C);
    await waitUntil(() => h!.exits.length > 0, { what: "the app to exit" });
    expect(h.exits).toEqual([0]);
  });

  it("asks before write: 'n' refuses (the model sees why), 'a' allows the tool for the rest of the session", async () => {
    h = renderApp((r) => {
      const n = r.messages.filter((m) => m.role === "assistant").length;
      if (n === 0) return { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "A" } }] };
      if (n === 1) return { text: `saw: ${lastResults(r)[0]!.content}`, toolCalls: [{ name: "write", arguments: { path: "b.txt", content: "B" } }] };
      if (n === 2) return { toolCalls: [{ name: "write", arguments: { path: "c.txt", content: "C" } }] };
      return { text: "All written." };
    });
    await typeAndSubmit(h.app, "write files");
    const modal = await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow write"), { what: "the approval modal" });
    expect(modal).toContain("new a.txt  +1");
    expect(modal).toContain("+A");
    expect(modal).toContain("[y]es / [n]o / [a]lways");
    h.app.stdin.write("n");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow write") && f.includes("b.txt") && f.includes("saw: tool call refused: the user declined this write call"), {
      what: "the refusal to reach the model and the second question",
    });
    h.app.stdin.write("a");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow every write call for the rest of this session? Enter confirms"), { what: "the confirmation" });
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("All written."), { what: "the run to finish without asking again" });
    expect(existsSync(join(h.cwd, "a.txt"))).toBe(false);
    expect(readFileSync(join(h.cwd, "b.txt"), "utf8")).toBe("B");
    expect(readFileSync(join(h.cwd, "c.txt"), "utf8")).toBe("C");
    expect(h.provider.requests[1]!.messages.at(-1)).toMatchObject({ role: "toolResult", results: [{ isError: true }] });
  });

  it("deny with a typed reason: the reason reaches the tool result the model sees", async () => {
    h = renderApp((r) => (afterTools(r) ? { text: `saw: ${lastResults(r)[0]!.content}` } : { toolCalls: [{ name: "bash", arguments: { command: "npm install left-pad" } }] }));
    await typeAndSubmit(h.app, "install it");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("$ npm install left-pad"), { what: "the bash approval" });
    h.app.stdin.write("r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Reason:"), { what: "the reason box" });
    h.app.stdin.write("use pnpm here");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("use pnpm here"), { what: "the typed reason" });
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("saw:"), { what: "the model's next turn" });
    const sent = lastResults(h.provider.requests[1]!)[0]!;
    expect(sent.isError).toBe(true);
    expect(sent.content).toContain("use pnpm here");
  });

  it("a child's approval question names the child that asks", async () => {
    h = renderApp((r) => {
      if (isChild(r)) return afterTools(r) ? { text: "child done" } : { toolCalls: [{ name: "bash", arguments: { command: "ls" } }] };
      return afterTools(r) ? { text: "main done" } : { toolCalls: [{ name: "task", arguments: { prompt: "list files" } }] };
    });
    await typeAndSubmit(h.app, "go");
    const modal = await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow bash"), { what: "the child's question" });
    expect(modal).toMatch(/asked by general · list files [0-9a-f]{6}/);
    // The asking child's pane says what it waits for (not "running", not silent).
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow bash") && f.includes("waiting for approval"), { what: "the pane waiting for approval" });
    h.app.stdin.write("y");
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("Allow bash"), { what: "the question answered" });
    expect(h.app.lastFrame()).not.toContain("waiting for approval");
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("main done"));
    expect(done).toMatch(/✓ general · list files · 2 turns .* — child done/);
    expect(h.provider.requests.find((r) => isChild(r) && afterTools(r))!.messages.at(-1)).toMatchObject({ results: [{ toolName: "bash", isError: false }] });
  });

  it("slash commands: /help lists commands, /agents lists profiles, /foo is an error, /clear starts a new conversation, a prompt typed mid-run is queued and sent after it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp(() => ({ text: "slow answer", waitFor: gate }));
    await typeAndSubmit(h.app, "/help");
    const help = await waitForFrame(h.app.lastFrame, (f) => f.includes("Commands:"));
    for (const c of ["/help", "/agents", "/clear", "/resume", "/compact", "/exit"]) expect(help).toContain(c);
    await typeAndSubmit(h.app, "/agents");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("scout — Read-only investigator (user; tools: read, grep, find, ls)"));
    await typeAndSubmit(h.app, "/foo");
    await waitForFrame(h.app.lastFrame, (f) => f.includes('unknown command "/foo" — type /help to see the commands.'));
    await typeAndSubmit(h.app, "/clear");
    await waitUntil(() => h!.app.frames.some((f) => f.startsWith(CLEAR_SCREEN)), { what: "the screen to be cleared" });
    // A new conversation: the old session is closed and saved, the new screen says so.
    await waitUntil(() => h!.switched.length === 1, { what: "the switch to a new session" });
    await waitForFrame(h.app.lastFrame, (f) => /new conversation\n╭/.test(f), { what: "the new conversation's screen" });
    await typeAndSubmit(h.app, "question one");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("slow answer"));
    await typeAndSubmit(h.app, "question two");
    // Typed ahead: queued, shown above the box, not sent while the run goes on.
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏸ queued: question two"), { what: "the queued prompt" });
    expect(h.provider.requests).toHaveLength(1);
    release();
    // Sent on its own once the run is over.
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink") && f.split("slow answer").length === 3 && !f.includes("queued:"), { what: "the second answer" });
    expect(h.provider.requests).toHaveLength(2);
    expect(h.provider.requests[1]!.messages.at(-1)).toMatchObject({ role: "user", content: "question two" });
    await typeAndSubmit(h.app, "/exit");
    await waitUntil(() => h!.exits.length > 0, { what: "/exit to leave" });
    expect(h.exits).toEqual([0]);
  });
});
