/**
 * Full-screen scroll range (issue #23, item 3): Home, PgUp and the search reach every row of the
 * transcript as it is drawn — with details open (Ctrl-O: children's reports in place), with items
 * whose drawn height differs from the estimate (Markdown tables), and after resizes.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { firstPrompt, isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { resizeColumns, screenOf } from "./testing/resize.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const HOME = "\u001b[H";
const END = "\u001b[F";
const PAGE_UP = "\u001b[5~";
const PAGE_DOWN = "\u001b[6~";
const CTRL_O = "\u000f";
const CTRL_F = "\u0006";
const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";
const report = (who: string) => Array.from({ length: 20 }, (_, i) => `${who} line ${i}`).join("\n");

/** Main delegates two tasks (A, B), each child reports 20 lines, then main answers. */
const twoChildren = (r: ModelRequest): ScriptedTurn => {
  if (isChild(r)) return { text: firstPrompt(r).includes("part A") ? `NEEDLE in report A\n${report("REPORT-A")}` : report("REPORT-B") };
  if (afterTools(r)) return { text: "Main done." };
  return { toolCalls: [{ name: "task", arguments: { prompt: "look at part A" } }, { name: "task", arguments: { prompt: "look at part B" } }] };
};

const resize = (columns: number) => resizeColumns(h!.app, columns);
const screen = () => screenOf(h!.app);
const topRow = (f: string) => f.split("\n")[0] ?? "";
/** A frame that no longer changes (heights measured after a draw land a render later). */
async function settled(): Promise<string> {
  let previous = "";
  let same = 0;
  return waitForFrame(screen, (f) => {
    same = f === previous ? same + 1 : 0;
    previous = f;
    return same >= 5;
  }, { what: "a settled frame" });
}

describe("full-screen scroll range", () => {
  it("with details open (Ctrl-O), Home shows row 0 and PgDn from there passes every row of both reports", async () => {
    h = renderApp(twoChildren, { screenMode: "fullscreen" });
    await resize(80);
    await typeAndSubmit({ stdin: h.app.stdin, lastFrame: screen }, "where is the login handled?");
    await waitForFrame(screen, (f) => f.includes("Main done.") && f.includes("Enter send"), { what: "the finished run" });
    h.app.stdin.write(CTRL_O);
    await waitForFrame(screen, (f) => f.includes("REPORT-B line 19"), { what: "the reports open" });
    h.app.stdin.write(HOME);
    const top = await waitForFrame(screen, (f) => topRow(f).includes("✦ Ink"), { what: "row 0 (the header) at the top" });
    expect(top).toContain("› where is the login handled?");
    // Page down to the end: every line of both reports passes through the view.
    const seen = new Set<string>();
    for (let page = 0; page < 20; page++) {
      const f = await settled();
      for (const m of f.matchAll(/REPORT-[AB] line \d+/g)) seen.add(m[0]);
      if (!f.includes("End or PgDn to follow")) break;
      h.app.stdin.write(PAGE_DOWN);
    }
    for (const who of ["REPORT-A", "REPORT-B"]) for (let i = 0; i < 20; i++) expect(seen, `${who} line ${i}`).toContain(`${who} line ${i}`);
  });

  it("rows drawn taller than estimated (tables) are reached by PgUp and Home, also after a resize 80→200→80", async () => {
    const table = (n: number) => `Table ${n}:\n\n| file | what it holds |\n|---|---|\n| src/auth/login-${n}.ts | the login handler |\n| src/auth/password-${n}.ts | the password check |`;
    let turn = 0;
    h = renderApp(() => ({ text: Array.from({ length: 6 }, (_, i) => table(turn * 6 + i)).join("\n\n") + `\n\nANSWER-${turn++} done.` }), { screenMode: "fullscreen" });
    await resize(80);
    for (const prompt of ["FIRST-QUESTION", "second", "third"]) {
      await typeAndSubmit({ stdin: h.app.stdin, lastFrame: screen }, prompt);
      await waitForFrame(screen, (f) => f.includes(`ANSWER-${turn - 1} done.`) && f.includes("Enter send"), { what: `the answer to ${prompt}` });
    }
    // PgUp only, page by page: the view ends at row 0 (the header) however the tables measured.
    let top = "";
    for (let page = 0; page < 30 && !topRow(top).includes("✦ Ink"); page++) {
      h.app.stdin.write(PAGE_UP);
      top = await settled();
    }
    expect(topRow(top), top).toContain("✦ Ink");
    expect(top).toContain("› FIRST-QUESTION");
    // Resized wide and back: the rows are those drawn at 80 columns again, and Home still reaches row 0.
    h.app.stdin.write(END);
    await resize(200);
    await resize(80);
    h.app.stdin.write(HOME);
    top = await waitForFrame(screen, (f) => topRow(f).includes("✦ Ink"), { what: "row 0 (the header) at the top" });
    expect(top).toContain("› FIRST-QUESTION");
  });

  it("a long answer (drawn in parts, only those in view) passes whole under PgUp, page by page, to row 0; Home and End still reach both ends", async () => {
    const line = (i: number) =>
      i % 40 === 20
        ? `| file ${i} | what it holds |\n|---|---|\n| src/auth/login-${i}.ts | LONG-${i} the login handler, a cell that wraps in a narrow column of the table |`
        : i % 9 === 4
          ? `- LONG-${i}: a bullet whose text is long enough to wrap onto a second row at eighty columns wide`
          : `LONG-${i}. The login is handled in src/auth/login.ts${i % 3 === 0 ? ", which verifies the request and redirects the user after a successful check of the password" : ""}.`;
    const answer = Array.from({ length: 160 }, (_, i) => line(i)).join("\n\n") + "\n\nLONG-END done.";
    h = renderApp(() => ({ text: answer }), { screenMode: "fullscreen" });
    await resize(80);
    await typeAndSubmit({ stdin: h.app.stdin, lastFrame: screen }, "FIRST-QUESTION");
    let top = await waitForFrame(screen, (f) => f.includes("LONG-END done.") && f.includes("Enter send"), { what: "the long answer" });
    const seen = new Set<string>();
    for (const m of top.matchAll(/LONG-\d+/g)) seen.add(m[0]);
    for (let page = 0; page < 80 && !topRow(top).includes("✦ Ink"); page++) {
      h.app.stdin.write(PAGE_UP);
      top = await settled();
      for (const m of top.matchAll(/LONG-\d+/g)) seen.add(m[0]);
    }
    expect(topRow(top), top).toContain("✦ Ink");
    expect(top).toContain("› FIRST-QUESTION");
    for (let i = 0; i < 160; i++) expect(seen, `LONG-${i}`).toContain(`LONG-${i}`);
    h.app.stdin.write(END);
    await waitForFrame(screen, (f) => f.includes("LONG-END done.") && !f.includes("End or PgDn to follow"), { what: "the end again" });
    h.app.stdin.write(HOME);
    await waitForFrame(screen, (f) => topRow(f).includes("✦ Ink"), { what: "row 0 (the header) at the top" });
    // A search hit deep inside the answer lands on screen (its block's row at the top, not the answer's first row).
    h.app.stdin.write(CTRL_F);
    await waitForFrame(screen, (f) => f.includes("type to search"), { what: "the search line" });
    h.app.stdin.write("long-77.");
    await waitForFrame(screen, (f) => f.includes("matches · Enter jumps") || f.includes("match · Enter jumps"), { what: "the hit" });
    h.app.stdin.write("\r");
    const hit = await waitForFrame(screen, (f) => f.includes("match 1 of") && f.includes("LONG-77."), { what: "the hit on screen" });
    expect(topRow(hit)).toContain("LONG-77.");
  });

  it("a search hit inside an opened report lands on screen", async () => {
    h = renderApp(twoChildren, { screenMode: "fullscreen" });
    await resize(80);
    await typeAndSubmit({ stdin: h.app.stdin, lastFrame: screen }, "where is the login handled?");
    await waitForFrame(screen, (f) => f.includes("Main done.") && f.includes("Enter send"), { what: "the finished run" });
    h.app.stdin.write(CTRL_O);
    await waitForFrame(screen, (f) => f.includes("REPORT-B line 19"), { what: "the reports open" });
    h.app.stdin.write(CTRL_F);
    await waitForFrame(screen, (f) => f.includes("type to search"), { what: "the search line" });
    h.app.stdin.write("needle");
    await waitForFrame(screen, (f) => f.includes("matches · Enter jumps"), { what: "the hits" });
    h.app.stdin.write("\r");
    await waitForFrame(screen, (f) => f.includes("match 1 of") && f.includes("NEEDLE in report A"), { what: "the hit on screen" });
  });
});
