/** While a question is open (an approval, a reached budget) the footer names its keys, not the prompt's: Tab, Ctrl-B and "Esc stop turn" do nothing then (Esc answers the question). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const afterTools = (r: ModelRequest) => r.messages.at(-1)?.role === "toolResult";
/** The footer: the frame's last line. */
const footer = (frame: string) => frame.trimEnd().split("\n").at(-1)!;

describe("App: the footer while a question is open", () => {
  it("an open approval: the footer says the question has the keys; once answered, the prompt's keys are back", async () => {
    h = renderApp(
      (r): ScriptedTurn => (afterTools(r) ? { text: "edited" } : { toolCalls: [{ name: "edit", arguments: { path: "a.txt", oldText: "one", newText: "two" } }] }),
      { approvalTiming: { armMs: 0, quietMs: 0, now: () => 0 }, before: ({ cwd }) => writeFileSync(join(cwd, "a.txt"), "one\n") },
    );
    await typeAndSubmit(h.app, "change a.txt");
    const asked = await waitForFrame(h.app.lastFrame, (f) => f.includes("Allow edit"), { what: "the approval" });
    expect(footer(asked)).not.toMatch(/Esc stop turn|Tab focus|Ctrl-B/);
    expect(footer(asked)).toContain("answer the question above");
    h.app.stdin.write("y");
    // The answer streams, the run ends, and the footer is the prompt's again (it never comes back: the wait fails).
    const done = await waitForFrame(h.app.lastFrame, (f) => f.split("\n").some((l) => l.trim() === "edited") && !f.includes("Allow edit") && footer(f).includes("Enter send"), { what: "the answer, and the prompt's keys back" });
    expect(footer(done)).not.toContain("answer the question above");
  });
});
