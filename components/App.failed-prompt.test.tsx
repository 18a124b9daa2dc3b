import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../src/protocol/provider-error.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame, waitUntil } from "./testing/wait-for-frame.js";

let h: AppHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

describe("App after a failed request", () => {
  it("marks the prompt failed, offers it back in the box, and the next request does not contain it", async () => {
    let calls = 0;
    h = renderApp(() => (++calls === 1 ? { error: new ProviderError("api", "Anthropic API error (400 invalid_request_error): bad") } : { text: "recovered fine" }));
    await waitForFrame(h.app.lastFrame, (f) => f.includes("Ask Ink"));
    await typeAndSubmit(h.app, "BROKEN PROMPT");
    const frame = await waitForFrame(h.app.lastFrame, (f) => f.includes("back in the input box"));
    // the box holds the failed prompt again
    expect(frame.split("\n").filter((l) => l.includes("› BROKEN PROMPT")).length).toBeGreaterThan(0);
    await waitUntil(() => h!.session.history.length === 0);
    // clear the box, then send a new prompt
    h.app.stdin.write("\u0015");
    await typeAndSubmit(h.app, "second try");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("recovered fine"));
    const last = h.provider.requests.at(-1)!;
    expect(JSON.stringify(last.messages)).not.toContain("BROKEN PROMPT");
    expect(last.messages).toEqual([{ role: "user", content: "second try" }]);
  });
});
