/**
 * Retries seen in the whole app: the real anthropic provider against the loopback Messages API
 * server, its waits held by an injected sleep so the test looks at the screen mid-storm.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../src/providers/anthropic.js";
import { httpError, sseTurn, startFakeAnthropic, type FakeAnthropic } from "../test/helpers/fake-anthropic-server.js";
import { renderApp, type AppHarness } from "./testing/app-harness.js";
import { typeAndSubmit, waitForFrame } from "./testing/wait-for-frame.js";

let server: FakeAnthropic;
let h: AppHarness | undefined;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => server.close());
afterEach(() => {
  h?.close();
  h = undefined;
  server.reset();
});

/** A sleep that returns at once for the first `free` waits and holds the next one until `release()`. */
function heldSleep(free: number) {
  let calls = 0;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const sleep = async (_ms: number, signal?: AbortSignal): Promise<void> => {
    if (++calls <= free) return;
    await Promise.race([held, new Promise<void>((r) => signal?.addEventListener("abort", () => r(), { once: true }))]);
  };
  return { sleep, release };
}

const lines = (frame: string, re: RegExp) => frame.split("\n").filter((l) => re.test(l));
const rateLimited = () => httpError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", { "retry-after": "4" });

describe("App: a 429 storm", () => {
  for (const screenMode of ["fullscreen", "inline"] as const) {
    it(`${screenMode}: eight 429s show one live retry line (not one per attempt), gone when the answer streams`, async () => {
      const { sleep, release } = heldSleep(7);
      server.enqueue(...Array.from({ length: 8 }, rateLimited), sseTurn([{ text: "The answer after the storm." }]));
      const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, maxRetries: 9, sleep });
      h = renderApp(() => ({ text: "unused" }), { screenMode, session: { provider, model: "claude-test" } });
      await typeAndSubmit(h.app, "hello");
      const mid = await waitForFrame(h.app.lastFrame, (f) => f.includes("attempt 9/10"), { what: "the eighth retry", tries: 1500 });
      expect(lines(mid, /rate limit|retrying/)).toEqual([expect.stringMatching(/^⟳ 429 rate limited · retrying (in [1-4]s|now) · attempt 9\/10$/)]);
      release();
      const end = await waitForFrame(h.app.lastFrame, (f) => f.includes("The answer after the storm.") && f.includes("Ask Ink"), { what: "the answer", tries: 1500 });
      expect(lines(end, /rate limit|retrying/)).toEqual([]);
      expect(server.requests).toHaveLength(9);
      // Nothing of the storm was ever written above the live area either.
      expect(h.app.frames.filter((f) => /429|retrying/.test(f) && !/attempt \d+\/10/.test(f))).toEqual([]);
    });
  }
});

describe("App: a child retrying a failing server", () => {
  it("its pane says it is retrying (not `no output`), and the main agent goes on when it recovers", async () => {
    const { sleep, release } = heldSleep(2);
    server.enqueue(
      sseTurn([{ text: "Delegating." }, { toolUse: { id: "toolu_1", name: "task", input: { prompt: "look at the layout" } } }]),
      httpError(503, "api_error", "upstream unavailable"),
      httpError(503, "api_error", "upstream unavailable"),
      httpError(503, "api_error", "upstream unavailable"),
      sseTurn([{ text: "CHILD-REPORT: the layout is flat." }]),
      sseTurn([{ text: "Summary: the child reported." }]),
    );
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, maxRetries: 9, sleep });
    h = renderApp(() => ({ text: "unused" }), { session: { provider, model: "claude-test" } });
    await typeAndSubmit(h.app, "delegate it");
    const mid = await waitForFrame(h.app.lastFrame, (f) => /503 server error · retrying.*attempt 4\/10/.test(f), { what: "the child's pane retrying (third wait)", tries: 1500 });
    expect(lines(mid, /general · look at the layout · 503 server error · retrying in \d+s · attempt 4\/10/)).toHaveLength(1);
    expect(mid).not.toContain("no output");
    release();
    const end = await waitForFrame(h.app.lastFrame, (f) => f.includes("Summary: the child reported."), { what: "the summary", tries: 1500 });
    expect(end).not.toMatch(/retrying/);
    expect(server.requests).toHaveLength(6);
  });
});

describe("App: a child paused on a rate limit", () => {
  it("its pane says `paused: rate limited · retrying in 40s`; Ctrl-R on the focused pane retries now and the report arrives", async () => {
    server.enqueue(
      sseTurn([{ text: "Delegating." }, { toolUse: { id: "toolu_1", name: "task", input: { prompt: "look at the layout" } } }]),
      httpError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", { "retry-after": "40" }),
      sseTurn([{ text: "CHILD-REPORT: the layout is flat." }]),
      sseTurn([{ text: "Summary: the child reported." }]),
    );
    // No provider retries: the first 429 fails the child's call for good, so the child pauses.
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
    h = renderApp(() => ({ text: "unused" }), { session: { provider, model: "claude-test" } });
    await typeAndSubmit(h.app, "delegate it");
    const mid = await waitForFrame(h.app.lastFrame, (f) => /paused: rate limited · retrying in \d+s/.test(f), { what: "the child's pane paused", tries: 1500 });
    expect(lines(mid, /general · (.+ · )?paused: rate limited · retrying in (40|39|38)s/)).toHaveLength(1);
    expect(mid).not.toContain("crash");
    h.app.stdin.write("\t");
    await waitForFrame(h.app.lastFrame, (f) => f.includes("^X stop"), { what: "the pane to take focus" });
    h.app.stdin.write("\x12"); // Ctrl-R
    const end = await waitForFrame(h.app.lastFrame, (f) => f.includes("Summary: the child reported."), { what: "the summary", tries: 1500 });
    expect(end).not.toMatch(/paused/);
    expect(server.requests).toHaveLength(4);
  });
});
