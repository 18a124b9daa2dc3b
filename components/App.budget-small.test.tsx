/** The budget question on a small terminal: the frame stays within the terminal's rows. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { screenOf, WIPE } from "./testing/resize.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const usage = { input: 500, output: 100 };
const script = (r: ModelRequest): ScriptedTurn => {
  if (isChild(r)) return { text: "CHILD-REPORT", usage };
  return r.messages.at(-1)!.role === "toolResult" ? { text: "MAIN-ANSWER", usage } : { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage };
};

describe("the budget question on a small terminal", () => {
  it("full-screen at 60×10: the question, the prompt and the status bar fit in the terminal's rows", async () => {
    const screenMode = "fullscreen";
    h = renderApp(script, { before: ({ inkHome }) => writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ maxTokens: 500 })), screenMode });
    const stdout = h.app.stdout as unknown as { columns: number; rows: number; emit(event: string): void };
    const before = h.app.frames.length;
    Object.defineProperty(stdout, "columns", { value: 60, configurable: true });
    Object.defineProperty(stdout, "rows", { value: 10, configurable: true });
    stdout.emit("resize");
    await waitUntil(() => h!.app.frames.slice(before).some((f) => f.startsWith(WIPE)), { what: "the redraw at 60×10", tries: 600 });
    await typeAndSubmit(h.app, "survey");
    // main 600 ≥ 500: the main agent's next request asks; the question's lines keep to one row each.
    const asked = await waitForFrame(() => screenOf(h!.app), (f) => f.includes("The session's budget of 500 tokens") && f.includes("scripted-model · ctx"), { what: "the question and the status bar" });
    const rows = asked.split("\n");
    // The whole frame is at most rows - 1 (a frame of the terminal's height makes Ink clear the screen on every frame).
    expect(rows.length).toBeLessThanOrEqual(9);
    const live = rows.slice(-9);
    const title = live.findIndex((r) => r.startsWith("│ The session's budget of 500 tokens"));
    expect(title).toBeGreaterThan(0);
    expect(live[title - 1]).toMatch(/^╭─+╮$/);
    expect(live[title + 1]).toMatch(/^│ \[1\] \+50%/);
    expect(live.filter((r) => /^╰─+╯$/.test(r))).toHaveLength(2); // the question's and the prompt's bottom borders
    expect(live.at(-2)).toContain("scripted-model · ctx");
  });
});
