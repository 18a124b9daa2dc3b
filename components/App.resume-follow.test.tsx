/** Resuming a child while the view is scrolled up follows the resumed child (issue #39 item 9). */
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const TAB = "\t";
const HOME = "\u001b[H";
const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";

describe("App: resuming a child while scrolled up", () => {
  it("the view goes back to the end and follows the resumed child (no '↓ new lines' hint left)", async () => {
    h = renderApp(
      (r): ScriptedTurn => {
        if (isChild(r)) return r.messages.length > 1 ? { text: "CHILD-REPORT-2: flushed" } : { text: "CHILD-REPORT-1: the cache" };
        return afterTools(r) ? { text: Array.from({ length: 60 }, (_, i) => `answer line ${i}`).join("\n") } : { toolCalls: [{ name: "task", arguments: { prompt: "investigate the cache" } }] };
      },
      { screenMode: "fullscreen" },
    );
    const frame = () => h!.app.lastFrame() ?? "";
    await typeAndSubmit({ stdin: h.app.stdin, lastFrame: frame }, "check the cache");
    await waitForFrame(frame, (f) => f.includes("answer line 59"), { what: "the long answer" });
    h.app.stdin.write(HOME);
    await waitForFrame(frame, (f) => f.includes("✦ Ink") && !f.includes("answer line 59"), { what: "the top of the history" });
    h.app.stdin.write(TAB);
    await waitForFrame(frame, (f) => f.includes("Child sessions"), { what: "the sidebar" });
    h.app.stdin.write("\r");
    await waitForFrame(frame, (f) => f.includes("lines 1–"), { what: "the transcript" });
    h.app.stdin.write("r");
    await waitForFrame(frame, (f) => f.includes("↻ resume"), { what: "the resume box" });
    await typeAndSubmit({ stdin: h.app.stdin, lastFrame: frame }, "now flush it");
    const after = await waitForFrame(frame, (f) => f.includes("CHILD-REPORT-2"), { what: "the resumed child's report, in view" });
    expect(after).not.toContain("✦ Ink");
    expect(after).not.toMatch(/↓ \d+ new line/);
  });
});
