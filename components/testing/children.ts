/**
 * Test fixtures for running children: a ChildView streaming text and the task call that holds it,
 * as the live area, the panes and the child rows receive them.
 */
import { emptyUsage } from "../../src/protocol/messages.js";
import type { ChildView, ToolItem } from "../state/transcript-types.js";

/** Child `i` running since 5 s before `now`, one turn, its text `text`, last heard from 100 ms ago. */
export function runningChild(i: number, now: number, text: string, over: Partial<ChildView> = {}): ChildView {
  return {
    childId: `child-${String(i).padStart(6, "0")}`,
    prompt: `part ${i}`,
    status: "running",
    startedAt: now - 5_000,
    turns: 1,
    usage: emptyUsage(),
    report: "",
    entries: [{ kind: "text", text }],
    dropped: 0,
    thinking: false,
    resumed: false,
    lastEventAt: now - 100,
    ...over,
  };
}

/** The running task call whose child is `c`. */
export const taskItem = (c: ChildView): ToolItem => ({ kind: "tool", id: `t-${c.childId}`, done: false, name: "task", args: { prompt: c.prompt }, status: "running", child: c });
