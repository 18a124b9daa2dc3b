import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage, UserMessage } from "../src/protocol/messages.js";
import { userText } from "../src/protocol/messages.js";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const CTRL_B = "\u0002";

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** The main agent: `start` starts a child (in the background when `background`), a report note is thanked for, anything else answered. */
function mainScript(background: boolean, child: () => ScriptedTurn) {
  return (r: ModelRequest): ScriptedTurn => {
    if (isChild(r)) return child();
    const last = r.messages.at(-1)!;
    if (last.role === "toolResult") return { text: `WENT ON: ${(last as ToolResultMessage).results[0]!.content.split("\n")[0]}` };
    const text = userText(last as UserMessage);
    if (text.includes("<background-report")) return { text: "GOT THE REPORT: BG-FINDING" };
    if (text === "start") return { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "investigate the cache", ...(background ? { background: true } : {}) } }] };
    return { text: `ANSWER TO ${text}` };
  };
}

describe("TUI: children beside the person", () => {
  it("a background child keeps streaming in its pane while the person talks to the main agent; its report starts a main turn that says why", async () => {
    const g = gate();
    h = renderApp(mainScript(true, () => ({ text: "BG-FINDING streaming", waitFor: g.promise })));
    await typeAndSubmit(h.app, "start");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("WENT ON: [task] child") && f.includes("running in the background"), { what: "the call to return at once" });
    await waitForFrame(h.app.lastFrame, (f) => /general · (.+ · )?running/.test(f) && f.includes("BG-FINDING streaming"), { what: "the background pane" });
    // The prompt is not blocked: the main agent answers while the child works.
    await typeAndSubmit(h.app, "what time is it");
    const talking = await waitForFrame(h.app.lastFrame, (f) => f.includes("ANSWER TO what time is it"), { what: "the main agent's answer" });
    expect(talking).toMatch(/general · (.+ · )?running/);
    expect(h.session.backgroundRunning).toHaveLength(1);
    g.open();
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("GOT THE REPORT: BG-FINDING"), { what: "the delivery turn" });
    expect(done).toMatch(/↩ background child \[\S+\] ended; its report started a turn of the main agent/);
    expect(done).not.toMatch(/general · (.+ · )?running/);
    const main = h.provider.requests.filter((r) => !isChild(r));
    expect(main.filter((r) => r.messages.at(-1)!.role === "user" && userText(r.messages.at(-1) as UserMessage).includes("<background-report"))).toHaveLength(1);
  });

  it("Ctrl-B moves the running foreground child to the background: its pending call returns, the main agent goes on, the report follows", async () => {
    const g = gate();
    h = renderApp(mainScript(false, () => ({ text: "FG-WORKING", waitFor: g.promise })));
    await typeAndSubmit(h.app, "start");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("FG-WORKING"), { what: "the child's pane" });
    h.app.stdin.write(CTRL_B);
    const moved = await waitForFrame(h.app.lastFrame, (f) => f.includes("WENT ON: [task] moved to the background by the user; its report will follow."), { what: "the call to return" });
    expect(moved).toMatch(/moved \[\S+\] to the background/);
    expect(moved).toMatch(/general · (.+ · )?running/);
    g.open();
    await waitForFrame(h.app.lastFrame, (f) => f.includes("GOT THE REPORT: BG-FINDING"), { what: "the delivery" });
  });

  it("exiting with a background child running asks first; n stays, y exits (the child stays resumable)", async () => {
    h = renderApp(mainScript(true, () => ({ text: "NEVER", waitFor: new Promise(() => {}) })));
    await typeAndSubmit(h.app, "start");
    await waitForFrame(h.app.lastFrame, (f) => /general · (.+ · )?running/.test(f) && f.includes("WENT ON"), { what: "the background child" });
    await typeAndSubmit(h.app, "/exit");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("1 child is still running. Stop it and exit? y/n"), { what: "the question" });
    h.app.stdin.write("n");
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("Stop it and exit?"), { what: "the question to close" });
    expect(h.exits).toEqual([]);
    await typeAndSubmit(h.app, "/exit");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Stop it and exit? y/n"), { what: "the question again" });
    h.app.stdin.write("y");
    await waitUntil(() => h!.exits.length > 0, { what: "the app to exit" });
    expect(h.exits).toEqual([0]);
  });
});
