import { describe, expect, it } from "vitest";
import { costLines } from "./cost-lines.js";
import { initialStreamState } from "./agent-stream-reducer.js";

describe("/cost lines", () => {
  it("splits the session's tokens and cost between the main agent and each child, priced by its own model", () => {
    const state = initialStreamState({ cwd: "/x", model: "claude-sonnet-4-5", provider: "anthropic", notices: [] }, [], []);
    const child = { childId: "20261203-120000-ab12cd", profile: "scout", usage: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 3, partial: false, known: true } };
    const tool = { kind: "tool" as const, id: "t", done: true, name: "task", args: {}, status: "ok" as const, result: "", child: child as never };
    const lines = costLines({ ...state, finished: [tool], usage: { input: 2_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 6, partial: false, known: true } });
    expect(lines[0]).toBe("Session: $6.00 · 2.0M tokens (in 2.0M · out 0)");
    expect(lines[1]).toBe("  main            $3.00  1.0M tokens (in 1.0M · out 0)");
    expect(lines[2]).toBe("  scout [ab12cd]  $3.00  1.0M tokens (in 1.0M · out 0)");
  });

  it("shows the session total and the main agent when no child ran; no price for an unknown model", () => {
    const state = initialStreamState({ cwd: "/x", model: "m", provider: "p", notices: [] }, [], []);
    const lines = costLines({ ...state, usage: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 } });
    expect(lines[0]).toContain("Session: no price known for these models");
    expect(lines[1]).toBe("  main  no price  1.2k tokens (in 1.0k · out 200)");
    expect(lines).toHaveLength(2);
  });
});
