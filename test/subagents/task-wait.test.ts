import { afterEach, describe, expect, it, vi } from "vitest";
import { BackgroundChildren } from "../../src/subagents/runtime/background-children.js";
import { createTaskWaitTool, formatChildRows } from "../../src/subagents/tools/task-wait-tool.js";
import type { ToolContext } from "../../src/protocol/tool.js";

const ctx = (signal = new AbortController().signal, updates: string[] = []): ToolContext => ({ signal, cwd: process.cwd(), toolCallId: "w1", onUpdate: (t) => updates.push(t) });
const report = (childId: string, output: string) => ({ childId, prompt: `job ${childId}`, status: "ok", output, isError: false });

function registry() {
  const delivered: string[][] = [];
  const children = new BackgroundChildren({ onDelivered: (ids) => delivered.push(ids), now: () => 0 });
  for (const id of ["a", "b", "c"]) children.register({ childId: id, prompt: `job ${id}`, background: true });
  return { children, delivered, tool: createTaskWaitTool(children) };
}

afterEach(() => vi.useRealTimers());

describe("task_wait", () => {
  it("returns each report as it arrives, in completion order, and takes it (never delivered again)", async () => {
    const { children, delivered, tool } = registry();
    const updates: string[] = [];
    const waiting = tool.execute({}, ctx(undefined, updates));
    children.finish(report("c", "REPORT-C"));
    children.finish(report("a", "REPORT-A"));
    expect(updates).toEqual(["child c ended (ok)", "child a ended (ok)"]);
    children.finish(report("b", "REPORT-B"));
    const out = await waiting;
    expect(out.isError).toBe(false);
    const order = ["REPORT-C", "REPORT-A", "REPORT-B"].map((r) => out.output.indexOf(r));
    expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]!))).toBe(true);
    expect(delivered).toEqual([["c"], ["a"], ["b"]]);
    expect(children.take()).toEqual([]);
    expect(children.hasUndelivered).toBe(false);
  });

  it("honours its timeout: returns what arrived and names the children still running", async () => {
    vi.useFakeTimers();
    const { children, tool } = registry();
    const waiting = tool.execute({ ids: ["a", "b"], timeoutMs: 5_000 }, ctx());
    children.finish(report("b", "REPORT-B"));
    await vi.advanceTimersByTimeAsync(4_999);
    let settled = false;
    void waiting.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const out = await waiting;
    expect(out.output).toContain("REPORT-B");
    expect(out.output).toContain("timed out; still running: a");
    expect(out.output).not.toContain("job c");
    // a's report, when it comes, is still delivered later.
    children.finish(report("a", "REPORT-A"));
    expect(children.take().map((r) => r.childId)).toEqual(["a"]);
  });

  it("a report already delivered, or an unknown id, is said so", async () => {
    const { children, tool } = registry();
    children.finish(report("a", "REPORT-A"));
    children.take();
    const out = await tool.execute({ ids: ["a", "zzz"], timeoutMs: 0 }, ctx());
    expect(out.output).toContain("already delivered earlier: a");
    expect(out.output).toContain("unknown child id(s): zzz");
    expect(out.output).not.toContain("REPORT-A");
  });

  it("/tasks lists the children and their state, named as their rows name them (description, short id)", () => {
    const { children } = registry();
    children.finish(report("a", "REPORT-A"));
    children.finish(report("b", "REPORT-B"));
    children.take(["b"]);
    expect(formatChildRows(children.list(), 12_000)).toEqual([
      "bg general · job a [a] · ok · report waiting",
      "bg general · job b [b] · ok · delivered",
      "bg general · job c [c] · running 12s",
    ]);
  });

  it("/tasks names a child by its description and short id, not its prompt and full id", () => {
    const children = new BackgroundChildren({ now: () => 0 });
    children.register({ childId: "20261205-071427-a73190", profile: "scout", description: "find the login handler", prompt: "Look through src/ for where the login form posts and report the handler", background: true });
    expect(formatChildRows(children.list(), 3_000)).toEqual(["bg scout · find the login handler [a73190] · running 3s"]);
  });
});
