import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "ink-testing-library";
import { emptyUsage } from "../../src/protocol/messages.js";
import { startChild, endChild, reduceChild } from "../state/child-reducer.js";
import type { ChildView } from "../state/transcript-types.js";
import { SubagentPane } from "./SubagentPane.js";
import { SubagentSummary } from "./SubagentSummary.js";
import { stripAnsi } from "../testing/wait-for-frame.js";

afterEach(() => cleanup());

function busyChild(): ChildView {
  let c = startChild({ childId: "20261202-142301-ab12cd", profile: "scout", prompt: "Find where login is handled", resumed: false, at: 1000 });
  const call = { type: "toolCall" as const, id: "g", name: "grep", arguments: { pattern: "login" } };
  for (const e of [
    { type: "turn_start" as const, turn: 1 },
    { type: "text_delta" as const, text: "line one\nline two\nline three\nline four\nline five" },
    { type: "tool_start" as const, call },
    { type: "usage" as const, usage: { ...emptyUsage(), input: 1000, output: 200 } },
    { type: "turn_start" as const, turn: 2 },
  ]) c = reduceChild(c, e);
  return c;
}

describe("SubagentPane", () => {
  it("is highlighted (double yellow border) while its approval question waits for the person", () => {
    const child = busyChild();
    const plain = stripAnsi(render(<SubagentPane child={child} now={3100} width={70} lines={3} />).lastFrame()!);
    expect(plain.startsWith("╭")).toBe(true);
    const asking = render(<SubagentPane child={child} now={3100} width={70} lines={3} waiting />).lastFrame()!;
    expect(stripAnsi(asking).startsWith("╔")).toBe(true);
    expect(stripAnsi(asking)).toContain("waiting for approval");
  });

  it("shows profile, short id, elapsed time, turns, tokens, status, and the latest text lines and tool calls", () => {
    const { lastFrame } = render(<SubagentPane child={busyChild()} now={3100} width={70} lines={3} />);
    const frame = stripAnsi(lastFrame()!);
    expect(frame).toContain("scout");
    expect(frame).toContain("running");
    expect(frame).toContain("running · 2s"); // whole seconds while it runs (the child tick)
    expect(frame).toContain("ab12cd · 2 turns · 1.2k tokens");
    expect(frame).toContain("› Find where login is handled");
    expect(frame).toContain("line four");
    expect(frame).toContain("line five");
    expect(frame).not.toContain("line three");
    expect(frame).toContain('grep pattern="login"');
    expect(frame).toMatch(/^╭/);
  });

  it("draws the child's text with the transcript's Markdown styles, one row per source row", () => {
    let c = startChild({ childId: "20261202-142301-ab12cd", profile: "scout", prompt: "plan", resumed: false, at: 1000 });
    c = reduceChild(c, { type: "turn_start", turn: 1 });
    c = reduceChild(c, { type: "text_delta", text: "## The plan\n- **check** the `login` handler\nsee [docs](http://x.test)" });
    const frame = render(<SubagentPane child={c} now={2000} width={70} lines={3} />).lastFrame()!;
    const plain = stripAnsi(frame);
    expect(plain).toContain("│ The plan");
    expect(plain).not.toContain("##");
    expect(plain).toContain("• check the login handler");
    expect(plain).not.toMatch(/\*\*|`/);
    expect(plain).toContain("see docs (http://x.test)");
    expect(plain.split("\n")).toHaveLength(2 + 3 + 3); // borders, header rows, three body rows
  });

  it("keeps text and tool calls in the order they happened", () => {
    let c = busyChild();
    const ls = { type: "toolCall" as const, id: "l", name: "ls", arguments: { path: "src" } };
    c = reduceChild(c, { type: "text_delta", text: "AFTER-GREP" });
    c = reduceChild(c, { type: "tool_start", call: ls });
    c = reduceChild(c, { type: "turn_start", turn: 3 });
    c = reduceChild(c, { type: "text_delta", text: "LAST-WORDS" });
    const frame = stripAnsi(render(<SubagentPane child={c} now={3100} width={70} lines={5} />).lastFrame()!);
    const order = ["line five", "grep", "AFTER-GREP", "ls path", "LAST-WORDS"].map((s) => frame.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(frame).not.toContain("line four");
  });

  it("a focused pane gets a double border and the stop key; a stopping child says so; a compaction note shows", () => {
    const c = { ...busyChild(), stopping: true, note: "✂ context compacted: 4 messages summarised" };
    const frame = stripAnsi(render(<SubagentPane child={c} now={3100} width={70} focused />).lastFrame()!);
    expect(frame).toMatch(/^╔/);
    expect(frame).toContain("scout · Find where login is handled · stopping… · 2s  ^X stop");
    expect(frame).toContain("✂ context compacted: 4 messages summarised");
    expect(stripAnsi(render(<SubagentPane child={busyChild()} now={3100} width={70} />).lastFrame()!)).not.toContain("^X stop");
  });

  it("labels a child without profile as general and shows how it stopped", () => {
    const c = endChild(startChild({ childId: "c-1234", prompt: "p", resumed: false, at: 0 }), { status: "aborted", turns: 1, usage: emptyUsage(), durationMs: 500, reason: "the parent run was aborted" });
    const frame = stripAnsi(render(<SubagentPane child={c} now={9999} />).lastFrame()!);
    expect(frame).toContain("general");
    expect(frame).toContain("aborted");
    expect(frame).toContain("0.5s");
  });
});

describe("SubagentSummary", () => {
  it("collapses a finished child to one line with the first line of its report", () => {
    const c = reduceChild(
      endChild(busyChild(), { status: "ok", turns: 3, usage: { ...emptyUsage(), input: 1000, output: 200 }, durationMs: 2100 }),
      { type: "message", message: { role: "assistant", content: [{ type: "text", text: "**Answer**: login is in `src/auth/login.ts`\nmore" }], stopReason: "end_turn", usage: emptyUsage() } },
    );
    const frame = stripAnsi(render(<SubagentSummary child={{ ...c, description: "find login" }} />).lastFrame()!);
    expect(frame).toBe("✓ scout · find login · 3 turns · 2.1s · 1.2k tokens — Answer: login is in src/auth/login.ts [ab12cd]");
  });

  it("names the status and reason of a child that did not finish", () => {
    const c = endChild(busyChild(), { status: "timeout", turns: 2, usage: emptyUsage(), durationMs: 5000, reason: "timed out after 5000 ms" });
    const frame = stripAnsi(render(<SubagentSummary child={c} />).lastFrame()!);
    expect(frame).toContain("scout · Find where login is handled · timeout · 2 turns · 5.0s");
    expect(frame).toContain("— timed out");
  });
});
