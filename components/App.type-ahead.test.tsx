import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { ProviderError } from "../src/protocol/provider-error.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const ESC = "\u001b";
const UP = "\u001b[A";
const lastUser = (i: number) => h!.provider.requests[i]!.messages.filter((m) => m.role === "user").at(-1);

describe("App: Esc and typing ahead", () => {
  it("Esc before any answer stops the run, puts the prompt back in the box and out of the history", async () => {
    let calls = 0;
    h = renderApp((_r) => (++calls === 1 ? { text: "", delayMs: 60_000 } : { text: "fresh answer" }));
    await typeAndSubmit(h.app, "STOPPED PROMPT");
    await waitUntil(() => h!.provider.requests.length === 1, { what: "the request" });
    await waitForFrame(h.app.lastFrame, (f) => f.includes("working…"), { what: "the run" });
    h.app.stdin.write(ESC);
    const back = await waitForFrame(h.app.lastFrame, (f) => f.includes("your prompt is back in the input box") && f.includes("› STOPPED PROMPT"), { what: "the prompt back in the box" });
    expect(back).not.toContain("working…");
    expect(h.session.history).toEqual([]);
    // The session file says so: a resume does not find the stopped prompt either.
    expect(readFileSync(h.session.sessionPath!, "utf8")).toContain("stopped before the model answered");
    h.app.stdin.write("\u0015"); // Ctrl-U: clear the box
    await typeAndSubmit(h.app, "next question");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("fresh answer"), { what: "the next answer" });
    expect(h.provider.requests[1]!.messages).toEqual([{ role: "user", content: "next question" }]);
  });

  it("several prompts typed during a run are sent in order, one run each; ↑ takes the newest back to edit", async () => {
    const gates: Array<() => void> = [];
    h = renderApp(() => ({ text: `answer ${gates.length + 1}`, waitFor: new Promise<void>((r) => gates.push(r)) }));
    await typeAndSubmit(h.app, "first");
    await waitUntil(() => gates.length === 1, { what: "the first request" });
    await typeAndSubmit(h.app, "second");
    await typeAndSubmit(h.app, "third");
    await typeAndSubmit(h.app, "fourth typo");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏸ queued: fourth typo"), { what: "three queued" });
    h.app.stdin.write(UP); // the newest comes back into the box, out of the queue
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› fourth typo") && !f.includes("queued: fourth typo"), { what: "the newest back to edit" });
    h.app.stdin.write("\u0015"); // deleted: it will never be sent
    await waitForFrame(h.app.lastFrame, (f) => !f.includes("fourth typo"), { what: "the draft cleared" });
    expect(h.provider.requests).toHaveLength(1);
    gates[0]!();
    await waitUntil(() => gates.length === 2, { what: "the second request" });
    expect(lastUser(1)).toMatchObject({ content: "second" });
    gates[1]!();
    await waitUntil(() => gates.length === 3, { what: "the third request" });
    expect(lastUser(2)).toMatchObject({ content: "third" });
    gates[2]!();
    await waitForFrame(h.app.lastFrame, (f) => f.includes("answer 3") && !f.includes("queued:") && !f.includes("working…"), { what: "all runs done" });
    expect(h.provider.requests).toHaveLength(3);
  });

  it("stopping a run sends nothing queued: the waiting prompts go back into the box", async () => {
    h = renderApp(() => ({ text: "", delayMs: 60_000 }));
    await typeAndSubmit(h.app, "long job");
    await waitUntil(() => h!.provider.requests.length === 1, { what: "the request" });
    await typeAndSubmit(h.app, "then this");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏸ queued: then this"), { what: "queued" });
    h.app.stdin.write(ESC);
    const box = await waitForFrame(h.app.lastFrame, (f) => f.includes("› long job") && f.includes("then this") && !f.includes("queued:") && !f.includes("working…"), { what: "both back in the box" });
    expect(box).toContain("your prompt is back in the input box");
    expect(h.provider.requests).toHaveLength(1);
  });

  it("after a failed request the queue holds: its prompts go back into the box instead of failing too", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = renderApp(() => ({ error: new ProviderError("api", "Anthropic API error (401 authentication_error): invalid x-api-key"), waitFor: gate }));
    await typeAndSubmit(h.app, "doomed");
    await waitUntil(() => h!.provider.requests.length === 1, { what: "the request" });
    await typeAndSubmit(h.app, "queued behind it");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("⏸ queued: queued behind it"), { what: "queued" });
    release();
    await waitForFrame(h.app.lastFrame, (f) => f.includes("› doomed") && f.includes("queued behind it") && !f.includes("queued:") && !f.includes("working…"), { what: "both back in the box" });
    expect(h.provider.requests).toHaveLength(1);
  });
});
