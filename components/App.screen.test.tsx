import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { CLEAR_SCREEN } from "./App.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { resizeColumns, screenOf } from "./testing/resize.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const TAB = "\t";
const ESC = "\u001b";
const CTRL_C = "\u0003";
const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";
const clears = () => h!.app.frames.filter((f) => f.startsWith(CLEAR_SCREEN)).length;

/** Main delegates one task; the child answers at once. */
const oneChild = (r: ModelRequest): ScriptedTurn => {
  if (isChild(r)) return { text: "CHILD-REPORT: cache in src/cache.ts" };
  return afterTools(r) ? { text: "Main done." } : { toolCalls: [{ name: "task", arguments: { prompt: "investigate the cache" } }] };
};

describe("App: screen redraws", () => {
  it("a width change redraws the live frame without clearing the screen or the scrollback", async () => {
    h = renderApp(() => ({ text: "FIRST ANSWER" }));
    await typeAndSubmit(h.app, "question");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("FIRST ANSWER") && f.includes("Enter send"));
    const stdout = h.app.stdout as unknown as { columns: number; emit(event: string): void };
    const before = h.app.frames.length;
    for (const columns of [90, 80, 70]) {
      Object.defineProperty(stdout, "columns", { value: columns, configurable: true });
      stdout.emit("resize");
    }
    // The input box is drawn again at the new width…
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.split("\n").some((l) => l.startsWith("╰") && l.length === 70), { what: "the box at 70 columns" });
    expect(h.app.frames.length).toBeGreaterThan(before);
    // …and nothing was cleared: the history stays in the scrollback, written once.
    expect(clears()).toBe(0);
    expect(h.app.frames.join("")).not.toContain("\x1b[3J");
    expect(frame.split("FIRST ANSWER").length - 1).toBe(1);
  });
});

describe("App: keys", () => {
  it("Ctrl-C with a typed draft clears it and does not arm exit; on the empty prompt it arms exit", async () => {
    h = renderApp(() => ({ text: "unused" }), { exitWindowMs: 5000 });
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink"));
    h.app.stdin.write("half a question");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› half a question"));
    h.app.stdin.write(CTRL_C);
    const cleared = await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink"), { what: "the draft to clear" });
    expect(cleared).not.toContain("Press Ctrl-C again to exit");
    h.app.stdin.write(CTRL_C);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Press Ctrl-C again to exit"), { what: "the exit to arm" });
    expect(h.exits).toEqual([]);
  });

  it("typing on the sidebar goes to the prompt (r included: it does not start a resume)", async () => {
    h = renderApp(oneChild);
    await typeAndSubmit(h.app, "check the cache");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Main done."));
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions"), { what: "the sidebar" });
    h.app.stdin.write("r");
    h.app.stdin.write("efactor it");
    const typed = await waitForFrame(h.app.lastFrame, (f) => f.includes("› refactor it"), { what: "the typing in the prompt" });
    expect(typed).not.toContain("↻ resume");
    expect(typed).not.toContain("Child sessions");
    h.app.stdin.write("\r");
    await waitUntil(() => h!.provider.requests.some((r) => !isChild(r) && JSON.stringify(r.messages).includes("refactor it")), { what: "the prompt to be sent" });
  });

  it("typing on a focused pane writes that child a message: it reads it at its next step, the pane shows it; Esc goes back to the pane", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp((r): ScriptedTurn => {
      if (isChild(r)) {
        if (r.messages.length === 1) return { text: "WORKING in src/", toolCalls: [{ name: "ls", arguments: {} }], waitFor: gate };
        return { text: `CHILD-SAW ${JSON.stringify(r.messages.at(-1)).includes("look in lib/ too") ? "the message" : "nothing"}` };
      }
      return afterTools(r) ? { text: "Main done." } : { toolCalls: [{ name: "task", arguments: { prompt: "slow job" } }] };
    });
    await typeAndSubmit(h.app, "go");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("WORKING"));
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focus" });
    h.app.stdin.write("oops");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("✉ message general") && f.includes("oops"), { what: "the message box" });
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop") && !f.includes("✉ message"), { what: "back on the pane, the draft dropped" });
    h.app.stdin.write("look in lib/ too");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("✉ message general") && f.includes("look in lib/ too"), { what: "the message typed" });
    h.app.stdin.write("\r");
    const sent = await waitForFrame(h.app.lastFrame, (f) => /✉ to general · slow job \[[0-9a-f]{6}\]: look in lib\/ too — queued/.test(f), { what: "the message queued" });
    expect(sent).toContain("^X stop"); // back on its pane
    release();
    const read = await waitForFrame(h.app.lastFrame, (f) => f.includes("Main done."), { what: "the run to end" });
    expect(read).toContain("CHILD-SAW the message");
    expect(h.provider.requests.filter(isChild)).toHaveLength(2);
    expect(h.provider.requests.some((r) => !isChild(r) && JSON.stringify(r.messages).includes("look in lib/ too"))).toBe(false);
  });

  it("the pane shows the message where the child read it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp((r): ScriptedTurn => {
      if (isChild(r)) return r.messages.length === 1 ? { text: "STEP-ONE", toolCalls: [{ name: "ls", arguments: {} }], waitFor: gate } : { text: "", waitFor: new Promise(() => {}) };
      return afterTools(r) ? { text: "Main done." } : { toolCalls: [{ name: "task", arguments: { prompt: "slow job" } }] };
    });
    await typeAndSubmit(h.app, "go");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("STEP-ONE"));
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focus" });
    h.app.stdin.write("use pnpm");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("use pnpm"), { what: "the message typed" });
    h.app.stdin.write("\r");
    release();
    await waitForFrame(h.app.lastFrame, (f) => f.includes("✉ you: use pnpm"), { what: "the message in the pane" });
  });

  it("a message that starts with x, typed key by key on a focused pane, is the child's message: the child is not stopped", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp((r): ScriptedTurn => {
      if (isChild(r)) return r.messages.length === 1 ? { text: "STEP-ONE", toolCalls: [{ name: "ls", arguments: {} }], waitFor: gate } : { text: "", waitFor: new Promise(() => {}) };
      return afterTools(r) ? { text: "Main done." } : { toolCalls: [{ name: "task", arguments: { prompt: "slow job" } }] };
    });
    await typeAndSubmit(h.app, "go");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("STEP-ONE"));
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focus" });
    for (const key of "xml files only") h.app.stdin.write(key);
    const typed = await waitForFrame(h.app.lastFrame, (f) => f.includes("✉ message general") && f.includes("xml files only"), { what: "the whole message in the box" });
    expect(typed).not.toContain("aborted");
    expect(typed).not.toContain("stopped general");
    h.app.stdin.write("\r");
    release();
    await waitForFrame(h.app.lastFrame, (f) => f.includes("✉ you: xml files only"), { what: "the message in the pane" });
    expect(h.provider.requests.some((r) => !isChild(r) && JSON.stringify(r.messages).includes("ml files only"))).toBe(false);
  });

  /** A child that works until stopped, its pane focused and stopped with Ctrl-X; the screen once the main agent answered. */
  async function stopFocusedPane(session?: { persist: false }): Promise<string> {
    h = renderApp((r) => (isChild(r) ? { text: "WORKING", waitFor: new Promise(() => {}) } : afterTools(r) ? { text: "Main done." } : { toolCalls: [{ name: "task", arguments: { prompt: "slow job" } }] }), { session });
    await typeAndSubmit(h.app, "go");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("WORKING"));
    h.app.stdin.write(TAB);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane focus" });
    h.app.stdin.write("\x18") // Ctrl-X;
    return waitForFrame(h.app.lastFrame, (f) => f.includes("Main done.") && f.includes("aborted"), { what: "the child stopped" });
  }

  it("Ctrl-X on a focused pane still stops the child", async () => {
    expect(await stopFocusedPane()).toContain("its work so far is saved and it stays resumable");
  });

  it("Ctrl-X on a focused pane in a run that saves no sessions does not say the child's work is saved", async () => {
    const done = await stopFocusedPane({ persist: false });
    expect(done).toContain("this run saves no sessions, so it cannot be resumed");
    expect(done).not.toContain("is saved and it stays resumable");
  });
});

describe("App: a running child's transcript", () => {
  it("is live: it follows the child's new text and tool calls, then shows the saved transcript once it ends", async () => {
    let releaseFirst!: () => void;
    let releaseSecond!: () => void;
    const first = new Promise<void>((r) => (releaseFirst = r));
    const second = new Promise<void>((r) => (releaseSecond = r));
    h = renderApp((r): ScriptedTurn => {
      if (isChild(r)) {
        const turn = r.messages.filter((m) => m.role === "assistant").length;
        if (turn === 0) return { text: "STEP-ONE looking", waitFor: first, toolCalls: [{ name: "ls", arguments: {} }] };
        return { text: "STEP-TWO the report", waitFor: second };
      }
      return afterTools(r) ? { text: "Main done." } : { toolCalls: [{ name: "task", arguments: { prompt: "live job" } }] };
    });
    await typeAndSubmit(h.app, "go");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("STEP-ONE"));
    h.app.stdin.write(TAB); // the pane
    h.app.stdin.write(TAB); // the sidebar
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions"), { what: "the sidebar" });
    h.app.stdin.write("\r");
    const live = await waitForFrame(h.app.lastFrame, (f) => f.includes("live view") && f.includes("STEP-ONE"), { what: "the live transcript" });
    expect(live).toContain("› live job");
    releaseFirst();
    const grown = await waitForFrame(h.app.lastFrame, (f) => f.includes("STEP-TWO") && f.includes("⏺ ls"), { what: "the transcript to follow the child" });
    expect(grown).toContain("live view");
    releaseSecond();
    const saved = await waitForFrame(h.app.lastFrame, (f) => f.includes("── result returned to the main agent ──"), { what: "the saved transcript after the end" });
    expect(saved).toMatch(/general · live job \[[0-9a-f]{6}\] · ok · /);
    expect(saved).not.toContain("live view");
  });
});

describe("App: /copy", () => {
  it("puts the last answer on the clipboard with OSC 52 and in a file, and says where", async () => {
    h = renderApp(() => ({ text: "THE ANSWER: login is in src/auth/login.ts" }));
    await typeAndSubmit(h.app, "/copy");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("There is no answer to copy yet."), { what: "nothing to copy" });
    await typeAndSubmit(h.app, "where is login?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("THE ANSWER") && f.includes("Ask Ink"), { what: "the answer" });
    await typeAndSubmit(h.app, "/copy");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("Copied the last answer"), { what: "the copy notice" });
    const b64 = Buffer.from("THE ANSWER: login is in src/auth/login.ts").toString("base64");
    expect(h.app.frames.some((f) => f.includes(`\u001b]52;c;${b64}\u0007`))).toBe(true);
    const path = /and to\s+(\S+\.md)/.exec(frame)?.[1];
    expect(path).toBeDefined();
    expect(readFileSync(path!, "utf8")).toBe("THE ANSWER: login is in src/auth/login.ts\n");
  });
});

describe("App: full-screen scrolling", () => {
  it("follows the end, PageUp scrolls back with a hint that counts new lines, End follows again", async () => {
    let n = 0;
    h = renderApp(() => ({ text: Array.from({ length: 40 }, (_, i) => `answer${++n} row ${i}`).join("\n") }), { screenMode: "fullscreen" });
    await typeAndSubmit(h.app, "first");
    const end = await waitForFrame(h.app.lastFrame, (f) => f.includes("answer40 row 39") && f.includes("Ask Ink"), { what: "the first answer" });
    expect(end).not.toContain("answer1 row 0");
    expect(end.split("\n").length).toBeLessThanOrEqual(23);
    h.app.stdin.write("\u001b[5~"); // PageUp
    const up = await waitForFrame(h.app.lastFrame, (f) => f.includes("End or PgDn to follow"), { what: "the scrolled-up hint" });
    expect(up).not.toContain("answer40 row 39");
    await typeAndSubmit(h.app, "second");
    await waitForFrame(h.app.lastFrame, (f) => /↓ \d+ new lines/.test(f), { what: "the new-lines count" });
    expect(h.app.lastFrame()).not.toContain("answer80 row 39");
    h.app.stdin.write("\u001b[F"); // End
    await waitForFrame(h.app.lastFrame, (f) => f.includes("answer80 row 39") && !f.includes("End or PgDn to follow"), { what: "following the end again" });
  });

  it("the mouse wheel scrolls the transcript three rows a notch; the reports never reach the prompt as text", async () => {
    let turn = 0;
    h = renderApp(() => ({ text: turn++ === 0 ? Array.from({ length: 40 }, (_, i) => `wheel row ${i}`).join("\n") : "SECOND DONE" }), { screenMode: "fullscreen" });
    await typeAndSubmit(h.app, "first");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("wheel row 39"), { what: "the long answer" });
    await typeAndSubmit(h.app, "second"); // once its answer shows, the long one is settled in the history
    await waitForFrame(h.app.lastFrame, (f) => f.includes("SECOND DONE") && f.includes("Enter send"), { what: "the second answer" });
    const lastRow = (f: string) => Math.max(...[...f.matchAll(/wheel row (\d+)/g)].map((m) => Number(m[1])));
    h.app.stdin.write("\u001b[<64;10;5M"); // one notch up
    await waitForFrame(h.app.lastFrame, (f) => f.includes("End or PgDn to follow"), { what: "scrolled up by the wheel" });
    // Let the transcript settle (the last answer's rows land a render later): the same frame twice.
    let previous = "";
    const settled = await waitForFrame(h.app.lastFrame, (f) => {
      const same = f === previous;
      previous = f;
      return same;
    }, { what: "a settled frame" });
    const first = lastRow(settled);
    for (let i = 0; i < 3; i++) h.app.stdin.write("\u001b[<64;10;5M"); // three notches arriving together add up: 9 rows more
    // (±1: a row of the last answer may still land below the view between the two measurements.)
    const up = await waitForFrame(h.app.lastFrame, (f) => Math.abs(lastRow(f) - (first - 9)) <= 1, { what: `the view 9 rows above row ${first}` });
    expect(up).not.toMatch(/<64|;10;5M/); // nothing typed into the prompt
    for (let i = 0; i < 8; i++) h.app.stdin.write("\u001b[<65;10;5M"); // back down (more notches than needed: the bottom is a stop)
    await waitForFrame(h.app.lastFrame, (f) => f.includes("SECOND DONE") && !f.includes("End or PgDn to follow"), { what: "back at the end" });
    h.app.stdin.write("\u001b[<0;3;3M\u001b[<0;3;3m"); // a click and its release: ignored
    h.app.stdin.write("ok");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› ok"), { what: "the prompt holding only the typed text" });
  });

  it("Ctrl-F finds an earlier answer, jumps to it, and Ctrl-Y copies that item", async () => {
    let turn = 0;
    const answers = ["ALPHA answer: the cache lives in src/cache.ts", Array.from({ length: 30 }, (_, i) => `filler ${i}`).join("\n")];
    h = renderApp(() => ({ text: answers[turn++] ?? "done" }), { screenMode: "fullscreen" });
    await typeAndSubmit(h.app, "first");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("ALPHA answer"), { what: "the first answer" });
    await typeAndSubmit(h.app, "second");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("filler 29") && !f.includes("ALPHA answer") && f.includes("Enter send"), { what: "the first answer scrolled away" });
    h.app.stdin.write("\u0006"); // Ctrl-F
    await waitForFrame(h.app.lastFrame, (f) => f.includes("type to search"), { what: "the search line" });
    // The word and its Enter in one chunk (tmux, a fast typist): typed, then the jump.
    h.app.stdin.write("alpha\r");
    const hit = await waitForFrame(h.app.lastFrame, (f) => f.includes("match 1 of 1") && f.includes("ALPHA answer"), { what: "the jump to the hit" });
    expect(hit).toContain("Ctrl-Y copy");
    h.app.stdin.write("\u0019"); // Ctrl-Y
    const b64 = Buffer.from(answers[0]!).toString("base64");
    await waitUntil(() => h!.app.frames.some((f) => f.includes(`\u001b]52;c;${b64}\u0007`)), { what: "the OSC 52 copy of the hit" });
    h.app.stdin.write("\u001b"); // Esc closes the search; the view stays at the hit
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink"), { what: "the prompt back" });
    h.app.stdin.write("\u001b[F"); // End: the notice is at the end of the transcript
    const after = await waitForFrame(h.app.lastFrame, (f) => f.includes("Copied the answer of the current hit"), { what: "the copy notice" });
    const path = /and to\s+(\S+\.md)/.exec(after)?.[1];
    expect(readFileSync(path!, "utf8")).toBe(`${answers[0]}\n`);
    // A new Ctrl-F starts empty (typing is not added to the last query); Ctrl-U clears what was typed.
    h.app.stdin.write("\u0006");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("type to search"), { what: "an empty search line" });
    h.app.stdin.write("zzz");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("search: zzz") && f.includes("no match"), { what: "the new query alone" });
    h.app.stdin.write("\u0015"); // Ctrl-U
    await waitForFrame(h.app.lastFrame, (f) => f.includes("type to search"), { what: "the query cleared" });
  });

  it("Ctrl-F finds words in the model's thoughts", async () => {
    h = renderApp(() => ({ thinking: "QUOKKA is the word to think about", text: "plain answer" }), { screenMode: "fullscreen" });
    await typeAndSubmit(h.app, "think");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("plain answer") && f.includes("Enter send"), { what: "the answer" });
    h.app.stdin.write("\u0006");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("type to search"), { what: "the search line" });
    h.app.stdin.write("quokka");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("1 matches") || f.includes("match 1 of 1"), { what: "a hit in the thought" });
  });

  it("the sidebar stands beside the transcript from 120 columns and is an overlay below that", async () => {
    h = renderApp(oneChild, { screenMode: "fullscreen" });
    await resizeColumns(h.app, 160);
    await typeAndSubmit(h.app, "look into the cache");
    const wide = await waitForFrame(h.app.lastFrame, (f) => f.includes("Main done.") && f.includes("Child sessions") && f.includes("Enter send"), { what: "the standing sidebar" });
    // Beside: the sidebar's heading sits right of the transcript's column.
    const at = (f: string) => Math.max(...f.split("\n").map((l) => l.indexOf("Child sessions (")));
    expect(at(wide)).toBeGreaterThanOrEqual(100);
    await resizeColumns(h.app, 80);
    const narrow = await waitForFrame(() => screenOf(h!.app), (f) => !f.includes("Child sessions") && f.includes("Main done."), { what: "no standing sidebar at 80 columns" });
    expect(narrow).toContain("Ask Ink");
    h.app.stdin.write(TAB); // Tab: the sidebar opens as an overlay, under the transcript, full width
    const over = await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions"), { what: "the sidebar overlay" });
    expect(at(over)).toBeLessThan(5);
  });
});
