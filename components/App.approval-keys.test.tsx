import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import type { ApprovalTiming } from "./state/approval-keys.js";
import { firstPrompt, isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const TAB = "\t";
const ESC = "\u001b";
const CTRL_T = "\u0014";
const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";

/** A clock the test moves by hand: the guard's windows never depend on how loaded the machine is. */
function manualClock(): ApprovalTiming & { t: number; advance(ms: number): void } {
  const clock = {
    t: 1_000_000,
    armMs: 400,
    quietMs: 1000,
    now: () => clock.t,
    advance: (ms: number) => void (clock.t += ms),
  };
  return clock;
}

describe("App: keys typed ahead never answer an approval", () => {
  it("a draft typed while questions appear goes to the prompt — its n and a answer nothing; a key after a pause does", async () => {
    const clock = manualClock();
    h = renderApp(
      (r): ScriptedTurn => {
        if (isChild(r)) return afterTools(r) ? { text: "child wrote it" } : { toolCalls: [{ name: "write", arguments: { path: "child.txt", content: "C" } }] };
        if (!afterTools(r)) return { toolCalls: [{ name: "edit", arguments: { path: "a.txt", oldText: "one", newText: "two" } }, { name: "task", arguments: { prompt: "write child.txt" } }] };
        return { text: `main done: ${r.messages.at(-1)!.role}` };
      },
      { approvalTiming: clock, before: ({ cwd }) => writeFileSync(join(cwd, "a.txt"), "one\n") },
    );
    await typeAndSubmit(h.app, "change a.txt");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow edit"), { what: "the first question" });
    // The person keeps typing at ~150 ms a key, as the questions come up.
    let sofar = "";
    for (const ch of "then also check") {
      clock.advance(150);
      h.app.stdin.write(ch);
      sofar += ch;
      await waitForFrame(h.app.lastFrame, (f) => f.includes(`› ${sofar.trimEnd()}`), { what: `the draft "${sofar}"` });
    }
    const typed = await waitForFrame(h.app.lastFrame, (f) => f.includes("› then also check"), { what: "the whole draft in the prompt" });
    expect(typed).toContain("Allow edit");
    expect(typed).toContain("your typing went to the prompt");
    expect(h.approvals.current()?.call.name).toBe("edit");
    expect(h.approvals.alwaysAllowed()).toEqual([]);
    // A settled "y" answers the edit; the child's write question is next and is armed afresh.
    clock.advance(1500);
    h.app.stdin.write("y");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow write"), { what: "the child's question" });
    h.app.stdin.write("a"); // the question has just appeared: this is typing, not "always"
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› then also checka"), { what: "the a in the draft" });
    clock.advance(1500);
    h.app.stdin.write("a");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow every write call for the rest of this session?"), { what: "the confirmation" });
    expect(existsSync(join(h.cwd, "child.txt"))).toBe(false);
    h.app.stdin.write("\r");
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("main done"), { what: "the run to end" });
    expect(h.approvals.alwaysAllowed()).toEqual(["write"]);
    expect(existsSync(join(h.cwd, "child.txt"))).toBe(true);
    // The draft was never sent: it is still in the box, whole.
    expect(done).toContain("› then also checka");
    expect(h.provider.requests.filter((r) => !isChild(r)).map((r) => firstPrompt(r))).toEqual(["change a.txt", "change a.txt"]);
  });

  it("keys typed just before the question appears do not answer it either", async () => {
    const clock = manualClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp((r): ScriptedTurn => (afterTools(r) ? { text: "ran" } : { toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }], waitFor: gate }), { approvalTiming: clock });
    await typeAndSubmit(h.app, "run it");
    await waitUntil(() => h!.provider.requests.length === 1, { what: "the request" });
    clock.advance(5000);
    h.app.stdin.write("thi");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› thi"), { what: "the draft" });
    release();
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow bash"), { what: "the question" });
    clock.advance(600); // visible long enough, but the person typed 600 ms ago: still typing
    h.app.stdin.write("n");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› thin"), { what: "the n in the draft" });
    expect(h.approvals.current()?.call.name).toBe("bash");
    clock.advance(1200);
    h.app.stdin.write("y");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("ran"), { what: "the answer" });
  });
});

describe("App: Esc leaves where you are; only Esc on the prompt stops the run", () => {
  it("Esc on a focused pane, in the sidebar, in a child's transcript, in the tool overlay and in the / menu leaves the run running", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp((r): ScriptedTurn => {
      if (isChild(r)) return { text: "CHILD-REPORT: auth is in src/auth.ts", waitFor: gate };
      if (afterTools(r)) return { text: `Answer from: ${(r.messages.at(-1) as { results: Array<{ content: string }> }).results[0]!.content.slice(0, 40)}` };
      return { toolCalls: [{ name: "task", arguments: { prompt: "map the auth module", agent: "scout" } }] };
    });
    await typeAndSubmit(h.app, "where is auth?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("CHILD-REPORT"), { what: "the pane streaming" });
    const stillRunning = (f: string) => f.includes("Enter send") === false && !f.includes("aborted");

    h.app.stdin.write(TAB); // the pane
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focused" });
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("^X stop") && f.includes("Tab focus a child pane"), { what: "back on the prompt" });

    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focused again" });
    h.app.stdin.write("\r"); // its live transcript
    await waitForFrame(h.app.lastFrame, (f) => f.includes("r write it a message · Esc"), { what: "the child's transcript" });
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("r write it a message · Esc"), { what: "the transcript closed" });
    h.app.stdin.write(ESC); // the sidebar (where the transcript went back to), then the prompt
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Tab focus a child pane"), { what: "back on the prompt" });

    h.app.stdin.write(CTRL_T);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Ctrl-T/Esc close"), { what: "the tool overlay" });
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("Ctrl-T/Esc close") && f.includes("Tab focus a child pane"), { what: "the overlay closed" });

    h.app.stdin.write("/");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Tab completes · Enter runs"), { what: "the / menu" });
    h.app.stdin.write(ESC);
    const closed = await waitForFrame(h.app.lastFrame, (f) => !f.includes("Tab completes · Enter runs"), { what: "the menu closed" });
    expect(closed).toContain("› /");
    expect(stillRunning(closed)).toBe(true);

    // Nothing was stopped: the child reports and the main agent answers with its report.
    release();
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("Answer from:"), { what: "the answer" });
    expect(done).toContain("Answer from: CHILD-REPORT");
    expect(done).not.toContain("aborted");
  });

  it("an Esc just after the focused pane closed under the person (its child ended) only says so; the next Esc stops the turn", async () => {
    let releaseChild!: () => void;
    const childGate = new Promise<void>((r) => (releaseChild = r));
    const mainGate = new Promise<void>(() => {}); // the main agent's answer never comes: its turn runs on
    h = renderApp(
      (r): ScriptedTurn => {
        if (isChild(r)) return { text: "CHILD-REPORT: done", waitFor: childGate };
        if (afterTools(r)) return { text: "never", waitFor: mainGate };
        return { toolCalls: [{ name: "task", arguments: { prompt: "map the auth module" } }] };
      },
      { approvalTiming: manualClock() }, // key time stands still: the Esc below is within the grace however loaded the machine is
    );
    await typeAndSubmit(h.app, "where is auth?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("CHILD-REPORT"), { what: "the pane streaming" });
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focused" });
    releaseChild(); // the child ends: its pane closes and the keyboard goes back to the prompt
    await waitUntil(() => h!.provider.requests.filter((r) => !isChild(r)).length === 2, { what: "the main agent's next request" });
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("^X stop"), { what: "the pane closed" });
    h.app.stdin.write(ESC); // meant for the pane
    const hinted = await waitForFrame(h.app.lastFrame, (f) => f.includes("the pane you were in closed"), { what: "the hint" });
    expect(hinted).not.toContain("interrupted");
    expect(hinted).not.toContain("Enter send"); // still running
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("interrupted") || f.includes("stopped the main agent"), { what: "the turn stopped" });
  });

  it("Esc closes the / and @ menus when idle too, and the menu stays closed while that word is edited", async () => {
    h = renderApp(() => ({ text: "unused" }), { before: ({ cwd }) => writeFileSync(join(cwd, "notes.md"), "x") });
    h.app.stdin.write("/he");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Tab completes · Enter runs"), { what: "the / menu" });
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("Tab completes"), { what: "the / menu closed" });
    h.app.stdin.write("l");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› /hel"), { what: "more typing" });
    expect(h.app.lastFrame()).not.toContain("Tab completes");
    h.app.stdin.write("\u0015 look at @no"); // Ctrl-U, then a new word with @
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Tab or Enter inserts"), { what: "the @ menu" });
    h.app.stdin.write(ESC);
    const closed = await waitForFrame(h.app.lastFrame, (f) => !f.includes("Tab or Enter inserts"), { what: "the @ menu closed" });
    expect(closed).toContain("look at @no");
  });
});
