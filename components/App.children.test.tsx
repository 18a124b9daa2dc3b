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

const TAB = "\t";
const ESC = "\u001b";
const DOWN = "\u001b[B";
const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";
const mainRequests = () => h!.provider.requests.filter((r) => !isChild(r));
const clears = () => h!.app.frames.filter((f) => f.startsWith(CLEAR_SCREEN)).length;

describe("App: stopping one child", () => {
  it("Tab focuses a running pane, Ctrl-X stops that child alone; its sibling finishes and the main agent answers", async () => {
    let releaseTests!: () => void;
    const testsGate = new Promise<void>((r) => (releaseTests = r));
    h = renderApp((r): ScriptedTurn => {
      if (isChild(r)) {
        const tests = firstPrompt(r).includes("tests");
        return tests ? { text: "TESTS-REPORT: test/login.test.ts", waitFor: testsGate } : { text: "IMPL-WORKING", waitFor: new Promise(() => {}) };
      }
      if (afterTools(r)) return { text: "Answer: one child was stopped, the other reported." };
      return {
        text: "Delegating.",
        toolCalls: [
          { name: "task", arguments: { prompt: "find the login implementation", agent: "scout", description: "find login code" } },
          { name: "task", arguments: { prompt: "find the login tests" } },
        ],
      };
    });
    await typeAndSubmit(h.app, "where is login?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("IMPL-WORKING") && f.includes("TESTS-REPORT"), { what: "both panes streaming" });
    h.app.stdin.write(TAB);
    const focused = await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the first pane to take focus" });
    expect(focused.split("\n").find((l) => l.includes("^X stop"))).toContain("scout");
    expect(focused).toContain("Ctrl-X stop it");
    expect(focused).toMatch(/╔/); // the focused pane's double border
    h.app.stdin.write("\x18") // Ctrl-X;
    const stopped = await waitForFrame(h.app.lastFrame, (f) => f.includes("⏹ scout · find login code · aborted"), { what: "the stopped child's summary" });
    expect(stopped).toContain("stopped by the user");
    // The person is told the child's work is kept and how to resume it.
    expect(stopped.replace(/\s*\n\s*/g, " ")).toMatch(/⏹ stopped scout · find login code \[[0-9a-f]{6}\]: its work so far is saved and it stays resumable — Tab to the sidebar, Enter on it, then r/);
    expect(stopped).toMatch(/general · find the login tests · running/);
    expect(stopped).toContain("1 agent running");
    // Focus went back to the prompt with the stopped pane.
    expect(stopped).not.toContain("^X stop");
    releaseTests();
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("Answer: one child was stopped"), { what: "the main agent's answer" });
    expect(done).toMatch(/✓ general · find the login tests · 1 turn .* — TESTS-REPORT/);
    const results = (mainRequests().at(-1)!.messages.at(-1) as ToolResultMessage).results;
    expect(results.map((r) => r.isError)).toEqual([true, false]);
    expect(results[0]!.content).toContain("stopped by the user");
  });

  it("Enter on a focused pane opens that child's full transcript, following it live", async () => {
    h = renderApp((r): ScriptedTurn => (isChild(r) ? { text: "LIVE-CHILD-TEXT so far", waitFor: new Promise(() => {}) } : { toolCalls: [{ name: "task", arguments: { prompt: "map the auth module", agent: "scout" } }] }));
    await typeAndSubmit(h.app, "go");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("LIVE-CHILD-TEXT"), { what: "the pane streaming" });
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focused" });
    h.app.stdin.write("\r");
    const overlay = await waitForFrame(h.app.lastFrame, (f) => f.includes("LIVE-CHILD-TEXT") && f.includes("Esc close"), { what: "the child's transcript" });
    expect(overlay).toContain("› map the auth module");
    expect(overlay).toMatch(/scout · map the auth module \[[0-9a-f]{6}\]/);
    // A running child is not offered a resume it would refuse: r writes it a message, which works.
    expect(overlay).toContain("r write it a message · Esc close");
    expect(overlay).not.toContain("r resume");
    h.app.stdin.write("r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("✉ message"), { what: "the message box" });
    expect(h.app.lastFrame()).not.toContain("a run is in progress");
    h.app.stdin.write("look at login too");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("look at login too"), { what: "the typed message" });
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("✉ to scout") && f.includes("r write it a message · Esc close"), { what: "the message sent, back on the transcript" });
  });

  it("shows queued task calls apart from running children", async () => {
    const hold = new Promise<void>(() => {});
    h = renderApp(
      (r): ScriptedTurn => {
        if (isChild(r)) return { text: "WORKING", waitFor: hold };
        return { toolCalls: [{ name: "task", arguments: { prompt: "one" } }, { name: "task", arguments: { prompt: "Look through lib/ for the session writer and report it", description: "find the session writer" } }] };
      },
      { session: { maxConcurrentChildren: 1 } },
    );
    await typeAndSubmit(h.app, "go");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("1 agent running · 1 queued"), { what: "the queued count" });
    expect(frame).toContain("WORKING");
    // The waiting call says so and does not spin like the running child.
    // It is named as its row will name it: its description, not its prompt.
    const line = frame.split("\n").find((l) => l.includes("task general · find the session writer"))!;
    expect(frame).not.toContain("Look through lib/");
    expect(line).toContain("queued — waits for a free child slot");
    expect(line).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  });
});

describe("App: child-session sidebar", () => {
  const script = (r: ModelRequest): ScriptedTurn => {
    if (isChild(r)) return r.messages.length > 1 ? { text: "CHILD-REPORT-2: the cache is flushed in src/cache.ts" } : { text: "CHILD-REPORT-1: the cache lives in src/cache.ts" };
    return afterTools(r) ? { text: "Main done." } : { toolCalls: [{ name: "task", arguments: { prompt: "investigate the cache\nand report" } }] };
  };

  it("lists a finished child, Enter shows its transcript, r + a new prompt resumes it live", async () => {
    h = renderApp(script);
    await typeAndSubmit(h.app, "check the cache");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Main done."), { what: "the first answer" });
    h.app.stdin.write(TAB);
    const side = await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions"), { what: "the sidebar" });
    expect(side).toMatch(/›✓ \[[0-9a-f]{6}\] +investigate the cache/); // the sidebar's 36 columns: the agent and age columns give way to the task
    expect(side).toContain("this session");
    expect(side).toContain("Enter transcript (r there resumes it)");
    h.app.stdin.write("\r");
    const overlay = await waitForFrame(h.app.lastFrame, (f) => f.includes("lines 1–"), { what: "the transcript overlay" });
    expect(overlay).toContain("› investigate the cache");
    expect(overlay).toContain("CHILD-REPORT-1: the cache lives in src/cache.ts");
    expect(overlay).toContain("── result returned to the main agent ──");
    expect(overlay).not.toContain("Child sessions");
    h.app.stdin.write("r");
    await waitForFrame(h.app.lastFrame, (f) => /↻ resume general · investigate t… \[[0-9a-f]{6}\]/.test(f), { what: "the resume line" });
    await typeAndSubmit(h.app, "now flush it");
    const resumed = await waitForFrame(h.app.lastFrame, (f) => f.includes("CHILD-REPORT-2") && f.includes("Ask Ink"), { what: "the resumed child's report" });
    expect(resumed).toMatch(/↻ general · investigate t… \[[0-9a-f]{6}\] › now flush it/);
    expect(resumed).toMatch(/✓ general · investigate the cache · 1 turn .* — CHILD-REPORT-2/);
    const childRequest = h.provider.requests.at(-1)!;
    expect(isChild(childRequest)).toBe(true);
    expect(childRequest.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(childRequest.messages[0]).toEqual({ role: "user", content: "investigate the cache\nand report" });
    expect(childRequest.messages[2]).toEqual({ role: "user", content: "now flush it" });
    expect(mainRequests()).toHaveLength(2); // the main agent was not asked
  });

  it("lists the project's earlier child sessions, and shows a refused resume's error", async () => {
    h = renderApp(script);
    const earlier = h.otherSession(h.provider);
    await earlier.prompt("old question");
    earlier.close();
    const oldChild = h.session.store!.list({ cwd: h.cwd, kind: "child" })[0]!;
    const lock = h.session.store!.lock(oldChild.id, "another ink");
    try {
      await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink"));
      h.app.stdin.write("\u001b[Z"); // Shift-Tab: straight to the sidebar
      const side = await waitForFrame(h.app.lastFrame, (f) => f.includes(`earlier: session ${earlier.sessionId.slice(-6)}`), { what: "the earlier child, under the session that started it" });
      expect(side).toMatch(/✓ \[[0-9a-f]{6}\] +investigate the cache/);
      expect(side).not.toContain("this session");
      h.app.stdin.write(DOWN); // stays on the only row
      h.app.stdin.write("\r");
      await waitForFrame(h.app.lastFrame, (f) => f.includes("lines 1–"), { what: "the transcript overlay" });
      h.app.stdin.write("r");
      await waitForFrame(h.app.lastFrame, (f) => f.includes("↻ resume general"), { what: "the resume line" });
      await typeAndSubmit(h.app, "again");
      const refused = await waitForFrame(h.app.lastFrame, (f) => f.includes("cannot resume") && f.includes("Ask Ink"), { what: "the refusal" });
      expect(refused).toMatch(/is in use by p/); // the line is cut at the terminal width
      expect(refused).toMatch(/⏺ task .*resume=/);
    } finally {
      lock.release();
    }
  });

  it("Esc steps back: overlay → sidebar → prompt", async () => {
    h = renderApp(script);
    await typeAndSubmit(h.app, "check the cache");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Main done."));
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions"));
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("lines 1–"));
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions") && !f.includes("lines 1–"), { what: "the sidebar again" });
    h.app.stdin.write(ESC);
    const back = await waitForFrame(h.app.lastFrame, (f) => !f.includes("Child sessions"), { what: "the prompt again" });
    expect(back).toContain("Enter send");
    // Closing a view never clears the screen or the scrollback: the history stays where it was,
    // written once (the debug renderer keeps every static line ever written).
    expect(clears()).toBe(0);
    expect(h.app.frames.join("")).not.toContain("\x1b[3J");
    expect(back.split("Main done.").length - 1).toBe(1);
    expect(back.split("✦ Ink").length - 1).toBe(1);
    await typeAndSubmit(h.app, "/help");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Commands:"), { what: "typing to reach the prompt again" });
  });
});
