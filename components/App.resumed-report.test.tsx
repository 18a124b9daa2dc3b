import { afterEach, describe, expect, it } from "vitest";
import { userText, type UserMessage } from "../src/protocol/messages.js";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const afterTools = (r: ModelRequest) => r.messages[r.messages.length - 1]?.role === "toolResult";

describe("App: a child resumed from the sidebar reports to the main agent", () => {
  it("shows that its report is queued, and the next main request carries it before the person's message", async () => {
    h = renderApp((r): ScriptedTurn => {
      if (isChild(r)) return r.messages.length > 1 ? { text: "CHILD-REPORT-2: flushed in src/cache.ts" } : { text: "CHILD-REPORT-1: cache in src/cache.ts" };
      if (afterTools(r)) return { text: "Main done." };
      return r.messages.length === 1 ? { toolCalls: [{ name: "task", arguments: { prompt: "investigate the cache" } }] } : { text: "MAIN-SAW-IT" };
    });
    await typeAndSubmit(h.app, "check the cache");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Main done."), { what: "the first answer" });
    h.app.stdin.write("\t");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Child sessions"), { what: "the sidebar" });
    h.app.stdin.write("\r");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("lines 1–"), { what: "the transcript overlay" });
    h.app.stdin.write("r");
    await waitForFrame(h.app.lastFrame, (f) => /↻ resume general · investigate t… \[[0-9a-f]{6}\]/.test(f), { what: "the resume line" });
    await typeAndSubmit(h.app, "now flush it");
    const queued = await waitForFrame(h.app.lastFrame, (f) => f.includes("report goes to the main agent with your next message"), { what: "the queued-report notice" });
    expect(queued).toContain("CHILD-REPORT-2");
    await typeAndSubmit(h.app, "what did it find?");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("MAIN-SAW-IT"), { what: "the main answer" });
    const main = h.provider.requests.filter((r) => !isChild(r)).at(-1)!;
    const text = userText(main.messages.at(-1) as UserMessage);
    expect(text).toContain("CHILD-REPORT-2: flushed in src/cache.ts");
    expect(text.endsWith("what did it find?")).toBe(true);
  });
});
