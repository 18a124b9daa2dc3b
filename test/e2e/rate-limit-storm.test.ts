/**
 * End to end (tmux, a loopback Messages-API server): four children hit a 429 storm at once. Each
 * gives up its own retries and is paused (its row or pane says `paused`), and all four are on
 * screen paused together; once the storm clears they resume by themselves, finish, and the main
 * agent's next request carries all four full reports (issue #25).
 */
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { httpError, sseTurn } from "../helpers/fake-anthropic-server.js";
import { hasTmux, quote, Tmux } from "./tmux.js";

const tmux = new Tmux(`ink-storm-${process.pid}`);
const NAMES = ["one", "two", "three", "four"];
/** Child N's whole report: long enough that a cut or a summary would show. */
const report = (n: string) => `REPORT-${n}: ${Array.from({ length: 12 }, (_, i) => `finding ${i + 1} of probe ${n} is written out in full here`).join("; ")}. END-${n}`;

/** The text of a request's first user message (a child's is its prompt). */
function firstText(body: { messages: Array<{ content: unknown }> }): string {
  const c = body.messages[0]!.content;
  return typeof c === "string" ? c : (c as Array<{ text?: string }>).map((b) => b.text ?? "").join("");
}

describe.skipIf(!hasTmux)("a 429 storm over four children (tmux)", () => {
  const fx = cliFixture({ name: "storm", build: true, tmux });

  it("all four show paused, all finish after it clears, and the main agent gets four full reports", async () => {
    const name = "storm";
    let storm = true;
    const stormed = new Set<string>();
    fx.server.setRouter((body) => {
      const probe = /^PROBE-(\w+)/.exec(firstText(body))?.[1];
      if (probe === undefined) return undefined; // the main agent: the queue
      if (storm) {
        stormed.add(probe);
        // retry-after 0: the provider's own retries run out at once; the pause then waits its minimum (1 s).
        return httpError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", { "retry-after": "0" });
      }
      return sseTurn([{ text: report(probe) }]);
    });
    fx.server.enqueue(sseTurn(NAMES.map((n, i) => ({ toolUse: { id: `tu_${i}`, name: "task", input: { prompt: `PROBE-${n}: look around`, description: `probe ${n}` } } }))));
    fx.server.enqueue(sseTurn([{ text: "ALL-FOUR-IN" }]));
    tmux.start(name, `env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=${quote(fx.server.url)} INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)}; echo INK_EXITED=$?; sleep 60`, 120, 40);
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
    tmux.type(name, "probe four things");
    tmux.keys(name, "Enter");

    const pausedLines = (s: string) => s.split("\n").filter((l) => /paused: rate limited/.test(l));
    const all = await tmux.waitFor(name, (s) => NAMES.every((n) => pausedLines(s).some((l) => l.includes(`probe ${n}`))), "all four children paused at once", 600);
    expect(stormed.size, all).toBe(4);
    storm = false;

    // Waited for whole (a capture can land mid-frame, stale rows below the new ones).
    const done = await tmux.waitFor(name, (s) => s.includes("ALL-FOUR-IN") && !s.includes("paused: rate limited"), "the main agent's answer after the four reports, no child paused", 600);
    expect(done).not.toContain("paused: rate limited");
    const last = fx.server.requests.at(-1)!.body;
    expect(firstText(last)).toBe("probe four things");
    const results = JSON.stringify(last.messages.at(-1));
    for (const n of NAMES) expect(results).toContain(report(n));
    expect(results).not.toContain("crash");
    expect(results).not.toContain('"is_error":true');
  }, 90_000);
});
