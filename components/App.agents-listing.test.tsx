import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

/** An agent file shaped like the public collections': a long description with an `<example>` block. */
const agentFile = (i: number) => `---
name: agent-${String(i).padStart(3, "0")}
description: |
  Use this agent for task ${i}.
  <example>
  Context: the user asks for task ${i}.
  user: "do task ${i}"
  assistant: "I'll use agent-${i}."
  </example>
---
You do task ${i}.
`;

describe("App: /agents with hundreds of profiles", () => {
  it("prints a count and one row per agent into the scrollable history; the screen never grows past the terminal", async () => {
    h = renderApp(() => ({ text: "unused" }), {
      screenMode: "fullscreen",
      before: ({ inkHome }) => {
        for (let i = 0; i < 300; i++) writeFileSync(join(inkHome, "agents", `agent-${i}.md`), agentFile(i));
      },
    });
    await typeAndSubmit(h.app, "/agents");
    const end = await waitForFrame(h.app.lastFrame, (f) => f.includes("agent-299 — Use this agent for task 299.") && f.includes("Ask Ink"), { what: "the end of the listing" });
    expect(end.split("\n").length).toBeLessThanOrEqual(24);
    const rows = end.split("\n");
    const at = (name: string) => rows.findIndex((r) => r.includes(`${name} — `));
    expect(at("agent-299") - at("agent-298")).toBe(1);
    expect(end).not.toContain("<example>");
    for (let i = 0; i < 40 && !h.app.lastFrame()!.includes("Agent profiles (301)"); i++) {
      h.app.stdin.write("\u001b[5~"); // PageUp
      await new Promise((r) => setTimeout(r, 20));
    }
    const top = await waitForFrame(h.app.lastFrame, (f) => f.includes("Agent profiles (301) — /agents <words>"), { what: "the listing's count after scrolling back" });
    expect(top.split("\n").length).toBeLessThanOrEqual(24);
  });
});
