import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { contextPercent, StatusBar } from "./StatusBar.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

afterEach(() => cleanup());

describe("StatusBar", () => {
  const base = { model: "claude-x", provider: "anthropic", contextTokens: 50_000, contextWindow: 200_000, usage: { input: 1000, output: 2500, cacheRead: 11_000, cacheWrite: 500 }, runningChildren: 0, running: false, now: 0 };
  it("shows model, provider, context use, tokens in/out and the idle key hints", () => {
    const frame = stripAnsi(render(<StatusBar {...base} />).lastFrame()!);
    expect(frame).toContain("claude-x · ctx 25% of 200k · ↑13k ↓2.5k tokens · anthropic");
    expect(frame).toContain("Ctrl-C twice exit");
    expect(frame).not.toContain("running");
  });
  it("shows the session tree's spend against its budget (instead of the bare cost) when one is set", () => {
    const cost = { usd: 0.42, partial: false, known: true };
    const withBudget = stripAnsi(render(<StatusBar {...base} cost={cost} budget={{ text: "$0.42 / $2.00", reached: false }} />).lastFrame()!);
    expect(withBudget).toContain("↑13k ↓2.5k tokens · $0.42 / $2.00 · anthropic");
    const without = stripAnsi(render(<StatusBar {...base} cost={cost} />).lastFrame()!);
    expect(without).toContain("tokens · $0.42 · anthropic");
    expect(without).not.toContain("/ $");
  });
  it("the spinner steps at most 4 times a second, however often the bar is drawn (a frame of its own costs ~34 bytes)", () => {
    const glyphs: string[] = [];
    for (let t = 10_000; t < 13_000; t += 25) glyphs.push(stripAnsi(render(<StatusBar {...base} running now={t} />).lastFrame()!)[0]!);
    const steps = glyphs.filter((g, i) => i > 0 && g !== glyphs[i - 1]).length;
    expect(steps).toBeGreaterThanOrEqual(11); // it does spin…
    expect(steps).toBeLessThanOrEqual(12); // …at most 4 steps a second over 3 s
    cleanup();
  });
  it("counts running children, shows the stop hint while running, and a given hint instead of keys", () => {
    const running = stripAnsi(render(<StatusBar {...base} running runningChildren={2} />).lastFrame()!);
    expect(running).toContain("2 agents running");
    // Right after the model: an 80-column row cut at its end still says what runs.
    expect(running).toMatch(/claude-x · 2 agents running · ctx/);
    expect(running).toContain("Ctrl-C stop · Ctrl-C twice exit");
    const hinted = stripAnsi(render(<StatusBar {...base} hint="Press Ctrl-C again to exit" />).lastFrame()!);
    expect(hinted).toContain("Press Ctrl-C again to exit");
    expect(hinted).not.toContain("Enter send");
  });
  it("shows queued children apart from running ones, a compaction in progress, and the focused area's keys", () => {
    const frame = stripAnsi(render(<StatusBar {...base} running runningChildren={1} queuedChildren={2} keys="x stop this child" />).lastFrame()!);
    expect(frame).toContain("1 agent running · 2 queued");
    expect(stripAnsi(render(<StatusBar {...base} running compacting />).lastFrame()!)).toContain("claude-x · compacting… · ctx 25%");
    expect(frame).toContain("x stop this child");
    expect(frame).not.toContain("Ctrl-C twice exit");
  });
  it("says right after the model when the session is kept in memory only", () => {
    expect(stripAnsi(render(<StatusBar {...base} unsaved running runningChildren={1} />).lastFrame()!)).toMatch(/claude-x · not saved \(in memory\) · 1 agent running/);
    expect(stripAnsi(render(<StatusBar {...base} />).lastFrame()!)).not.toContain("not saved");
  });
  it("keeps to two rows in a narrow terminal: the facts and the key hints are cut, not wrapped", () => {
    const keys = "Enter send · ↑/↓ history · Tab sidebar · /help · Ctrl-C twice exit";
    for (const props of [{ keys }, { hint: "a run is in progress — wait for it to finish, or press Ctrl-C to stop it" }]) {
      const frame = stripAnsi(
        render(
          <Box width={60}>
            <StatusBar {...base} running runningChildren={3} queuedChildren={1} {...props} />
          </Box>,
        ).lastFrame()!,
      );
      const lines = frame.split("\n");
      expect(lines).toHaveLength(2);
      expect(lines.every((l) => l.length <= 60)).toBe(true);
      expect(lines[1]).toMatch(/…$/);
    }
  });
  it("computes context percent safely", () => {
    expect(contextPercent(150_000, 200_000)).toBe(75);
    expect(contextPercent(10, 0)).toBe(0);
    expect(contextPercent(500_000, 200_000)).toBe(100);
  });
});
