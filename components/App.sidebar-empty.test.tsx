import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { resizeColumns } from "./testing/resize.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";
const LONG = `ANSWER-START ${"the answer takes the whole width of the terminal ".repeat(6)}ANSWER-END`;

/** The first prompt is answered directly; a prompt naming the cache is delegated to one child. */
const script = (r: ModelRequest): ScriptedTurn => {
  if (isChild(r)) return { text: "CHILD-REPORT: cache in src/cache.ts" };
  if (afterTools(r)) return { text: "Main done." };
  return JSON.stringify(r.messages.at(-1)).includes("cache") ? { toolCalls: [{ name: "task", arguments: { prompt: "investigate the cache" } }] } : { text: LONG };
};

/** The app in full-screen mode at `columns` wide. */
async function wideApp(columns: number): Promise<AppHarness> {
  const app = renderApp(script, { screenMode: "fullscreen" });
  await resizeColumns(app.app, columns);
  return app;
}

describe("the standing sidebar at 120 columns", () => {
  it("is not drawn while it would list nothing; Ctrl-S shows it empty and hides it again", async () => {
    h = await wideApp(120);
    await typeAndSubmit(h.app, "hello");
    const empty = await waitForFrame(h.app.lastFrame, (f) => f.includes("ANSWER-END") && f.includes("Enter send"), { what: "the direct answer" });
    expect(empty).not.toContain("Child sessions");
    // The answer's first row runs past where a standing sidebar (38 columns, from column 82) would begin.
    const first = empty.split("\n").find((l) => l.includes("ANSWER-START"))!;
    expect(first.trimEnd().length).toBeGreaterThan(100);
    h.app.stdin.write("\u0013"); // Ctrl-S
    const shown = await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions (0)"), { what: "the sidebar, shown by Ctrl-S", tries: 600 });
    expect(Math.max(...shown.split("\n").map((l) => l.indexOf("Child sessions (0)")))).toBeGreaterThanOrEqual(80);
    h.app.stdin.write("\u0013");
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("Child sessions") && f.includes("ANSWER-END"), { what: "the sidebar hidden again", tries: 600 });
  });
});

describe("the standing sidebar at 160 columns", () => {
  it("stands only once it lists a child session: empty, the transcript has the whole width", async () => {
    h = await wideApp(160);
    await typeAndSubmit(h.app, "hello");
    const empty = await waitForFrame(h.app.lastFrame, (f) => f.includes("ANSWER-END") && f.includes("Enter send"), { what: "the direct answer" });
    expect(empty).not.toContain("Child sessions");
    // The answer's first row runs past where a standing sidebar (from column 109) would begin.
    const first = empty.split("\n").find((l) => l.includes("ANSWER-START"))!;
    expect(first.trimEnd().length).toBeGreaterThan(130);
    await typeAndSubmit(h.app, "look into the cache");
    const listed = await waitForFrame(h.app.lastFrame, (f) => f.includes("Main done.") && f.includes("Child sessions (1)"), { what: "the sidebar with the child" });
    expect(Math.max(...listed.split("\n").map((l) => l.indexOf("Child sessions (1)")))).toBeGreaterThanOrEqual(100);
  });
});
