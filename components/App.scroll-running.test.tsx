/**
 * Full-screen scroll range while a turn runs (issue #23, item 3): when the live area (the turn's
 * children's panes) covers the region, Home and PgUp still reach the history above it — the
 * header and the question — although the history alone fits the view.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { isChild, renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
let release: () => void = () => undefined;
afterEach(() => {
  release();
  h?.close();
  h = undefined;
});

const HOME = "\u001b[H";
const PAGE_UP = "\u001b[5~";
const PAGE_DOWN = "\u001b[6~";

async function fourRunningChildren(): Promise<() => string> {
  const held = new Promise<void>((r) => (release = r));
  const script = (r: ModelRequest): ScriptedTurn => {
    if (isChild(r)) return { text: Array.from({ length: 8 }, (_, i) => `child line ${i}`).join("\n"), waitFor: held };
    if (r.messages.at(-1)?.role === "toolResult") return { text: "Main done." };
    return { text: "Delegating.", toolCalls: ["A", "B", "C", "D"].map((p) => ({ name: "task", arguments: { prompt: `look at part ${p}` } })) };
  };
  h = renderApp(script, { screenMode: "fullscreen" });
  const frame = () => h!.app.lastFrame() ?? "";
  await typeAndSubmit({ stdin: h.app.stdin, lastFrame: frame }, "THE-QUESTION where is the login handled?");
  await waitForFrame(frame, (f) => (f.match(/· running/g) ?? []).length >= 2 && !f.includes("THE-QUESTION"), { what: "the children's panes covering the history" });
  return frame;
}

describe("full-screen scroll range while a turn runs", () => {
  it.each([
    ["Home", HOME],
    ["PgUp", PAGE_UP],
  ])("%s shows the header and the question the running children's panes cover", async (_name, key) => {
    const frame = await fourRunningChildren();
    h!.app.stdin.write(key);
    const up = await waitForFrame(frame, (f) => f.includes("THE-QUESTION"), { what: "the history in view" }).catch(() => frame());
    expect(up, up).toContain("✦ Ink");
    expect(up).toContain("› THE-QUESTION");
    expect(up).toContain("End or PgDn to follow");
    // PgUp again stays there; PgDn follows the end again (the panes back).
    h!.app.stdin.write(PAGE_UP);
    await new Promise((r) => setTimeout(r, 50));
    expect(frame()).toContain("› THE-QUESTION");
    h!.app.stdin.write(PAGE_DOWN);
    const back = await waitForFrame(frame, (f) => !f.includes("THE-QUESTION"), { what: "the panes again" });
    expect(back).toContain("· running");
  });
});
