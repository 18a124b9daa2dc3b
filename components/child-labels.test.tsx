/** A child's description names it in every place the UI shows it, cut (never wrapped) at 80 columns. */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { emptyUsage } from "../src/protocol/messages.js";
import type { AgentEvent } from "../src/protocol/events.js";
import { ChildRow } from "./views/ChildRow.js";
import { SubagentPane } from "./views/SubagentPane.js";
import { SubagentSummary } from "./views/SubagentSummary.js";
import { Sidebar } from "./views/Sidebar.js";
import { endChild, startChild } from "./state/child-reducer.js";
import { childLabel, childOverlay, liveChildTitle, promptChildLabel } from "./state/child-transcript.js";
import { costLines } from "./state/cost-lines.js";
import { initialStreamState, reduceAll, type StreamAction } from "./state/agent-stream-reducer.js";
import { sidebarRows, storedRow, transcriptChildren } from "./state/sidebar-rows.js";
import { restoredChild } from "./state/history-items.js";
import type { SessionSummary } from "../src/session/types.js";
import { stripAnsi } from "./testing/wait-for-frame.js";

afterEach(() => cleanup());

const ID = "20261204-100000-a33a03";
const described = () => startChild({ childId: ID, description: "find the login handler", prompt: "Look through src/ and tell me where login is handled", resumed: false, at: 0 });
const plain = () => startChild({ childId: ID, prompt: "Audit the session store for torn writes and report", resumed: false, at: 0 });
const LONG = "investigate every provider retry path thoroughly";

/** Every line of `frame` fits in `columns` (nothing wrapped past the edge). */
function fits(frame: string, columns: number): void {
  for (const line of stripAnsi(frame).split("\n")) expect(stringWidth(line)).toBeLessThanOrEqual(columns);
}

describe("child labels at 80 columns", () => {
  it("the compact row shows the description, else the prompt's first words — never just `general [id]`", () => {
    const row = stripAnsi(render(<ChildRow child={described()} now={1000} width={80} />).lastFrame()!);
    expect(row).toContain("general · find the login handler [a33a03]");
    const fallback = stripAnsi(render(<ChildRow child={plain()} now={1000} width={80} />).lastFrame()!);
    expect(fallback).toContain("general · Audit the session store for [a33a03]");
    expect(fallback).not.toContain("general [a33a03]");
  });

  it("a long description is cut on the row, which stays one line of 80 columns", () => {
    const child = { ...described(), profile: "investigator", description: LONG };
    const frame = render(<ChildRow child={child} now={1000} width={80} />).lastFrame()!;
    expect(stripAnsi(frame).split("\n")).toHaveLength(1);
    fits(frame, 80);
    expect(stripAnsi(frame)).toMatch(/investigator · investigate every provider retry path thoroughly \[a33a03\]/);
  });

  it("the pane header and the summary line name it", () => {
    const pane = stripAnsi(render(<SubagentPane child={described()} now={1000} width={80} />).lastFrame()!);
    expect(pane.split("\n")[1]).toMatch(/general · find the login handler · running · 1s/);
    const narrow = render(<SubagentPane child={{ ...described(), description: LONG }} now={1000} width={40} />).lastFrame()!;
    fits(narrow, 40);
    expect(stripAnsi(narrow).split("\n")[1]).toMatch(/│ ● investigate every provider ret… +│/);
    const done = endChild(described(), { status: "ok", turns: 2, usage: emptyUsage(), durationMs: 1500 });
    const summary = render(<SubagentSummary child={done} result="found it" width={80} />).lastFrame()!;
    expect(stripAnsi(summary)).toMatch(/^✓ general · find the login handler · 2 turns/);
    fits(summary, 80);
  });

  it("the sidebar row shows the description (saved ones from the session header)", () => {
    const live = transcriptChildren([{ kind: "tool", id: "t1", done: false, name: "task", args: {}, status: "running", child: described() }]);
    const saved = { id: "20261203-090000-bbbbbb", kind: "child", cwd: "/p", provider: "x", model: "m", createdAt: "", prompt: "Long first prompt line", description: "map the cache", path: "/x", size: 1, mtimeMs: 0, status: "ok", parentId: "s0" } as SessionSummary;
    const rows = sidebarRows(live, [saved], "s1");
    expect(storedRow(saved, "s1").description).toBe("map the cache");
    // No description given (the event carries the prompt's first words): the row keeps the prompt's whole first line.
    const fallback = { ...plain(), description: "Audit the session store for" };
    expect(transcriptChildren([{ kind: "tool", id: "t2", done: false, name: "task", args: {}, status: "running", child: fallback }])[0]!.description).toBeUndefined();
    const frame = render(<Sidebar rows={rows} selected={0} now={1000} width={80} height={10} focused />).lastFrame()!;
    expect(stripAnsi(frame)).toMatch(/general \[a33a03\] +\S+ find the login handler/);
    expect(stripAnsi(frame)).toMatch(/general \[bbbbbb\] +\S+ map the cache/);
    fits(frame, 80);
  });

  it("the transcript overlay's title, the prompt label and /cost rows name it", () => {
    expect(liveChildTitle(described(), 2000)).toMatch(/^general · find the login handler \[a33a03\] · running/);
    expect(childOverlay(undefined, { ...transcriptChildren([{ kind: "tool", id: "t1", done: true, name: "task", args: {}, status: "ok", child: { ...described(), status: "ok" } }])[0]! }, 60, 0).title).toMatch(/^general · find the login handler \[a33a03\] · ok/);
    expect(childLabel({ id: ID, description: "x y z" })).toBe("general · x y z [a33a03]");
    expect(promptChildLabel(ID, [], [{ kind: "tool", id: "t1", done: false, name: "task", args: {}, status: "running", child: described() }])).toBe("general · find the logi… [a33a03]");
    const ev = (event: AgentEvent): StreamAction => ({ type: "event", event, at: 0 });
    const state = reduceAll(initialStreamState({ cwd: "/x", model: "m", provider: "p", notices: [] }, [], []), [
      ev({ type: "tool_start", call: { type: "toolCall", id: "t1", name: "task", arguments: {} } }),
      ev({ type: "subagent_start", childId: ID, parentToolCallId: "t1", description: "find the login handler", prompt: "p", resumed: false }),
    ]);
    expect(costLines(state)[2]).toMatch(/^ {2}general · find the login ha… \[a33a03\] /);
  });

  it("a child restored from its task record keeps its description", () => {
    const c = restoredChild({ childId: ID, status: "ok", turns: 1, usage: emptyUsage(), durationMs: 1, prompt: "p", description: "find the login handler" }, {}, "done");
    expect(stripAnsi(render(<SubagentSummary child={c} width={80} />).lastFrame()!)).toContain("general · find the login handler ");
  });
});
