import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelRequest } from "../src/protocol/provider.js";
import type { ScriptedTurn } from "../src/providers/scripted.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const CTRL_T = "\u0014";
const END = "\u001b[F";
const ESC = "\u001b";
const BIG = Array.from({ length: 400 }, (_, i) => `LINE-${String(i + 1).padStart(4, "0")} of the big file`).join("\n");

/** Reads big.txt, then answers. */
const script = (_r: ModelRequest, n: number): ScriptedTurn => (n === 0 ? { toolCalls: [{ id: "call_big", name: "read", arguments: { path: "big.txt" } }] } : { text: "done reading" });
const withBigFile = { before: ({ cwd }: { cwd: string }) => writeFileSync(join(cwd, "big.txt"), `${BIG}\n`) };

describe("App: Ctrl-T shows the whole output of the latest tool call", () => {
  it("reads the long result back from the session file when opened; with the file gone it says so", async () => {
    h = renderApp(script, withBigFile);
    await typeAndSubmit(h.app, "read it");
    const done = await waitForFrame(h.app.lastFrame, (f) => f.includes("done reading") && f.includes("Ctrl-T output"), { what: "the answer and the key hint" });
    expect(done).toMatch(/… \+\d+ lines/);
    const file = h.session.sessionPath!;
    expect(readFileSync(file, "utf8")).toContain("LINE-0400");

    h.app.stdin.write(CTRL_T);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("whole output of the latest tool call") && f.includes("LINE-0001"), { what: "the overlay" });
    h.app.stdin.write(END);
    const end = await waitForFrame(h.app.lastFrame, (f) => f.includes("LINE-0400"), { what: "the last line of the output" });
    expect(end).toContain("Ctrl-T/Esc close");
    expect(end).not.toContain("r resume");
    h.app.stdin.write(ESC);
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("whole output of the latest") && f.includes("Enter send"), { what: "the overlay to close" });

    // Nothing of it is held in the UI: with the file gone the overlay says why, with the head it kept.
    rmSync(file);
    h.app.stdin.write(CTRL_T);
    const gone = await waitForFrame(h.app.lastFrame, (f) => f.includes("whole output of the latest tool call") && f.includes("not available"), { what: "the explanation" });
    expect(gone).toMatch(/does not\s+exist/);
    expect(gone).toContain("LINE-0001");
    expect(gone).not.toContain("LINE-0400");
    h.app.stdin.write(CTRL_T);
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("whole output of the latest") && f.includes("Enter send"), { what: "Ctrl-T to close it" });
  });

  it("with sessions not saved, the output is kept in memory and still shown whole (full-screen)", async () => {
    h = renderApp(script, { ...withBigFile, screenMode: "fullscreen", session: { persist: false } });
    await typeAndSubmit(h.app, "read it");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("done reading"), { what: "the answer" });
    h.app.stdin.write(CTRL_T);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("whole output of the latest tool call"), { what: "the overlay" });
    h.app.stdin.write(END);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("LINE-0400"), { what: "the last line, from memory" });
  });

  it("when the session file cannot be written, the output stays in memory and is shown whole", async () => {
    h = renderApp(script, {
      before: (dirs) => {
        withBigFile.before(dirs);
        writeFileSync(join(dirs.inkHome, "sessions"), "not a directory\n"); // the store cannot create its directory
      },
    });
    await typeAndSubmit(h.app, "read it");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("done reading"), { what: "the answer" });
    expect(h.session.unsaved).toBe(true);
    h.app.stdin.write(CTRL_T);
    await waitForFrame(h.app.lastFrame, (f) => f.includes("whole output of the latest tool call"), { what: "the overlay" });
    h.app.stdin.write(END);
    const end = await waitForFrame(h.app.lastFrame, (f) => f.includes("LINE-0400"), { what: "the last line, from memory" });
    expect(end).not.toContain("not available");
  });
});
