import { describe, expect, it } from "vitest";
import { costLines } from "./cost-lines.js";
import { initialStreamState, reduceAll, type StreamAction } from "./agent-stream-reducer.js";
import type { AgentEvent } from "../../src/protocol/events.js";

describe("/cost lines", () => {
  it("splits the session's tokens and cost between the main agent and each child, priced by its own model", () => {
    const state = initialStreamState({ cwd: "/x", model: "claude-sonnet-4-5", provider: "anthropic", notices: [] }, [], []);
    const child = { childId: "20261203-120000-ab12cd", run: "t", profile: "scout", usage: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 } };
    const tool = { kind: "tool" as const, id: "t", done: true, name: "task", args: {}, status: "ok" as const, result: "", child: child as never };
    const million = { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 };
    const spend = [
      { agent: "main", model: "claude-sonnet-4-5", usage: million },
      { agent: child.childId, run: "t", model: "claude-sonnet-4-5", usage: million },
    ];
    const lines = costLines({ ...state, finished: [tool], spend });
    expect(lines[0]).toBe("Session: $6.00 · 2.0M tokens (in 2.0M · out 0)");
    expect(lines[1]).toBe("  main            $3.00  1.0M tokens (in 1.0M · out 0)");
    expect(lines[2]).toBe("  scout [ab12cd]  $3.00  1.0M tokens (in 1.0M · out 0)");
  });

  it("shows the session total and the main agent when no child ran; no price for an unknown model", () => {
    const state = initialStreamState({ cwd: "/x", model: "m", provider: "p", notices: [] }, [], []);
    const lines = costLines({ ...state, spend: [{ agent: "main", model: "m", usage: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 } }] });
    expect(lines[0]).toContain("Session: no price known for these models");
    expect(lines[1]).toBe("  main  no price  1.2k tokens (in 1.0k · out 200)");
    expect(lines).toHaveLength(2);
  });
});

describe("/cost after a child resume", () => {
  const u = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0 });
  const ev = (event: AgentEvent, at = 0): StreamAction => ({ type: "event", event, at });
  const call = (id: string, args: Record<string, unknown>) => ({ type: "toolCall" as const, id, name: "task", arguments: args });
  /** One child run under task call `toolId`: one turn with `usage`, then its end. */
  const childRun = (toolId: string, resumed: boolean, usage: ReturnType<typeof u>): StreamAction[] => {
    const tag = { childId: "20261203-120000-ab12cd", parentToolCallId: toolId, profile: "scout" };
    return [
      ev({ type: "tool_start", call: call(toolId, resumed ? { prompt: "more", resume: tag.childId } : { prompt: "look" }) }),
      ev({ type: "subagent_start", ...tag, prompt: resumed ? "more" : "look", resumed }),
      ev({ type: "subagent_event", ...tag, event: { type: "usage", usage } }),
      ev({ type: "subagent_end", ...tag, summary: { status: "ok", turns: 1, usage, durationMs: 1000 } }),
      ev({ type: "tool_end", call: call(toolId, {}), result: { toolCallId: toolId, toolName: "task", content: "report", isError: false }, durationMs: 1000 }),
    ];
  };

  it("lists both runs of the resumed child, each once, and leaves the main agent its own tokens", () => {
    const state = reduceAll(initialStreamState(), [
      { type: "run_start", text: "go", at: 0 },
      ev({ type: "usage", usage: u(500, 50) }),
      ...childRun("t1", false, u(1000, 100)),
      ev({ type: "agent_end", reason: "done", turns: 1, usage: u(500, 50) }),
      { type: "run_end", at: 1 },
      { type: "run_start", text: "more", target: "scout [ab12cd]", at: 2 },
      ...childRun("resume-1", true, u(3000, 300)),
      { type: "run_end", at: 3 },
      {
        type: "spend",
        rows: [
          { agent: "main", model: "m", usage: u(500, 50) },
          { agent: "20261203-120000-ab12cd", run: "t1", model: "m", usage: u(1000, 100) },
          { agent: "20261203-120000-ab12cd", run: "resume-1", model: "m", usage: u(3000, 300) },
        ],
      },
    ]);
    const lines = costLines(state);
    expect(lines[0]).toContain("Session: no price known for these models · 5.0k tokens (in 4.5k · out 450)");
    expect(lines[1]).toMatch(/^ {2}main +no price +550 tokens/);
    expect(lines[2]).toMatch(/^ {2}scout · look \[ab12cd\] run 1 +no price +1\.1k tokens \(in 1\.0k · out 100\)/);
    expect(lines[3]).toMatch(/^ {2}scout · more \[ab12cd\] run 2 +no price +3\.3k tokens \(in 3\.0k · out 300\)/);
    expect(lines).toHaveLength(4);
  });
});
