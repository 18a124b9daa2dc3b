import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ToolCallLine } from "./views/ToolCallLine.js";
import { eventNote } from "./state/event-notes.js";
import { liveChildTitle } from "./state/child-transcript.js";
import { stripAnsi } from "./testing/wait-for-frame.js";
import type { ChildView, ToolItem } from "./state/transcript-types.js";

const ID = "20261205-071427-a73190";

describe("one id format: the short id wherever the person reads one", () => {
  it("the note of a delivered background report names the child by its short id", () => {
    const note = eventNote({ type: "background_delivery", childIds: [ID], startsTurn: true })!;
    expect(note.text).toContain("[a73190]");
    expect(note.text).not.toContain("20261205");
  });

  it("a queued task call is named by its child's description, not its prompt", () => {
    const item: ToolItem = { kind: "tool", id: "t2", done: false, name: "task", status: "running", args: { prompt: "Look through lib/ for the session writer and report where it flushes", description: "find the session writer", agent: "scout" } };
    const frame = stripAnsi(render(<ToolCallLine item={item} now={0} width={80} />).lastFrame() ?? "");
    expect(frame).toContain("task scout · find the session writer · queued");
    expect(frame).not.toContain("Look through");
  });

  it("a live child transcript's title names the child once, by its short id", () => {
    const child = { childId: ID, profile: "scout", description: "find the session writer", prompt: "p", startedAt: 0 } as unknown as ChildView;
    const title = liveChildTitle(child, 5000);
    expect(title).toContain("[a73190]");
    expect(title).not.toContain("20261205");
  });
});
