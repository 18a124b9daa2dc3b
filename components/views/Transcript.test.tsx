import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { initialStreamState, reduceAll, type StreamAction } from "../state/agent-stream-reducer.js";
import type { StreamState } from "../state/transcript-types.js";
import { groupLive, Transcript } from "./Transcript.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

afterEach(() => cleanup());

const ev = (event: AgentEvent, at = 0): StreamAction => ({ type: "event", event, at });
const view = (s: StreamState, columns = 100) => (
  <Transcript finished={s.finished} live={s.live} epoch={s.epoch} now={5000} columns={columns} rows={40} />
);

describe("Transcript", () => {
  it("renders the header, the user's message, Markdown answers, collapsed thinking and tool calls", () => {
    const grep = { type: "toolCall" as const, id: "g1", name: "grep", arguments: { pattern: "login" } };
    const s = reduceAll(initialStreamState({ cwd: "/repo", model: "m1", provider: "demo", notices: ["agent profile /a.md skipped: bad"] }), [
      { type: "run_start", text: "where is login?", at: 0 },
      ev({ type: "thinking_delta", text: "hmm" }),
      ev({ type: "text_delta", text: "## Plan\nI'll **search** for `login`:\n- first\n- second" }),
      ev({ type: "toolcall_start", id: "g1", name: "grep" }),
      ev({ type: "tool_start", call: grep }),
      ev({ type: "tool_end", call: grep, result: { toolCallId: "g1", toolName: "grep", content: "a.ts:1: login\nb.ts:2: login\nc.ts:3: login\nd.ts:4", isError: false }, durationMs: 40 }),
    ]);
    const frame = stripAnsi(render(view(s)).lastFrame()!);
    expect(frame).toContain("✦ Ink · /repo · demo/m1");
    expect(frame).toContain("! agent profile /a.md skipped: bad");
    expect(frame).toContain("› where is login?");
    expect(frame).toContain("✻ thought (3 chars)");
    expect(frame).toContain("Plan");
    expect(frame).not.toContain("##");
    expect(frame).toContain("I'll search for login:");
    expect(frame).toContain("• first");
    expect(frame).toMatch(/⏺ grep pattern="login" ✓ 0\.0s/);
    expect(frame).toContain("⎿  a.ts:1: login");
    expect(frame).toContain("… +2 lines");
  });

  it("shows running children as panes side by side at the place of their calls", () => {
    const s = reduceAll(initialStreamState(), [
      { type: "run_start", text: "q", at: 0 },
      ev({ type: "tool_start", call: { type: "toolCall", id: "t1", name: "task", arguments: { prompt: "impl" } } }),
      ev({ type: "tool_start", call: { type: "toolCall", id: "t2", name: "task", arguments: { prompt: "tests" } } }),
      ev({ type: "subagent_start", childId: "c-aaaaaa", parentToolCallId: "t1", profile: "scout", prompt: "impl", resumed: false }),
      ev({ type: "subagent_start", childId: "c-bbbbbb", parentToolCallId: "t2", prompt: "tests", resumed: false }),
    ]);
    expect(groupLive(s.live)).toMatchObject([{ kind: "panes", agents: [{ childId: "c-aaaaaa" }, { childId: "c-bbbbbb" }] }]);
    const frame = stripAnsi(render(view(s, 100)).lastFrame()!);
    const header = frame.split("\n").find((l) => l.includes("scout"))!;
    expect(header).toContain("general");
    expect(frame).toContain("aaaaaa · 0 turns");
    expect(frame).toContain("bbbbbb · 0 turns");
  });

  it("after a clear, starts a fresh static area that renders only new items", () => {
    const s1 = reduceAll(initialStreamState(), [{ type: "notice", text: "OLD NOTICE" }]);
    const app = render(view(s1));
    expect(stripAnsi(app.lastFrame()!)).toContain("OLD NOTICE");
    const s2 = reduceAll(s1, [{ type: "clear" }, { type: "notice", text: "NEW NOTICE" }]);
    app.rerender(view(s2));
    const fresh = stripAnsi(app.frames[app.frames.length - 1]!);
    expect(fresh).toContain("NEW NOTICE");
    // The debug renderer keeps every static line ever written; OLD NOTICE must appear only once (not re-rendered).
    expect(fresh.split("OLD NOTICE").length - 1).toBe(1);
  });
});
