/** The hardened task contract: answers survive persistence failures, leases, repair on resume, results that guide the model. */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage } from "../../src/protocol/messages.js";
import { isHistorySendable } from "../../src/session/repair.js";
import { describeTask } from "../../src/subagents/tools/task-tool.js";
import { sleeper } from "../helpers/fake-tools.js";
import { makeLoginRepo } from "../helpers/cli.js";
import { childPath, harness, type Harness, idOf, isChild, lastResult, parentOnce, profile, childFileBreaks } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

const warnings = (hh: Harness) => hh.events.filter((e): e is Extract<AgentEvent, { type: "warning" }> => e.type === "warning");

describe("never lose the answer", () => {
  it("a child whose session file becomes a directory mid-run still returns its answer, with one warning, a not-resumable line and its end event", async () => {
    h = harness(childFileBreaks(() => h!, { text: "THE ANSWER: src/auth/login.ts" }));
    await h.run("go");
    const res = lastResult(h);
    expect(res.content).toContain("THE ANSWER: src/auth/login.ts");
    expect(res.content).toMatch(/\[task\] transcript could not be saved \(not resumable\): EISDIR/);
    expect(res.content).not.toContain("continue it with task({resume");
    const w = warnings(h).filter((e) => e.source === "session");
    expect(w).toHaveLength(1);
    expect(w[0]!.message).toMatch(/goes on in memory/);
    expect(h.events.filter((e) => e.type === "subagent_start")).toHaveLength(1);
    expect(h.events.filter((e) => e.type === "subagent_end")).toHaveLength(1);
  });

  it("a child whose session file is deleted mid-run recreates it from the file it held open, with one warning; the file then has every entry", async () => {
    h = harness((r) => {
      if (!isChild(r)) return parentOnce(() => ({ prompt: "look" }))(r);
      if (r.messages.length === 1) {
        rmSync(childPath(h!));
        return { toolCalls: [{ name: "echo", arguments: { text: "a" } }] };
      }
      return { text: "done" };
    });
    await h.run("go");
    const id = idOf(lastResult(h).content);
    expect(warnings(h).filter((e) => e.source === "session").map((e) => e.message)).toEqual([expect.stringMatching(/disappeared; recreated it/)]);
    expect(h.store.load(id).messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });
});

describe("leases", () => {
  it("a child whose lock is taken over stops writing, stops its run and says why", async () => {
    const wait = sleeper("wait", { log: [] }, { concurrent: true, ms: 60_000 });
    h = harness(
      (r) => {
        if (!isChild(r)) return parentOnce(() => ({ prompt: "look" }))(r);
        // Another live process (pid 1) takes the lock over while the child runs.
        writeFileSync(`${childPath(h!)}.lock`, JSON.stringify({ pid: 1, hostname: hostname(), startedAt: "T-OTHER", token: "theirs" }));
        return { toolCalls: [{ name: "wait", arguments: { label: "w" } }] };
      },
      { extraTools: [wait], leaseIntervalMs: 5 },
    );
    await h.run("go");
    const res = lastResult(h);
    expect(res.isError).toBe(true);
    expect(res.content).toMatch(/\[task\] stopped: its lock .* was taken over by process 1 since T-OTHER \(another run is writing this child's transcript now\) after 1 turn\./);
    expect(warnings(h).some((e) => e.source === "lock" && /taken over/.test(e.message))).toBe(true);
    const text = readFileSync(childPath(h), "utf8");
    expect(text).not.toContain('"type":"status"'); // nothing written after the loss
    expect(h.events.filter((e) => e.type === "subagent_end")).toHaveLength(1);
  });
});

describe("repair on resume", () => {
  async function childThenResume(corrupt: (path: string) => void) {
    let args: Record<string, unknown> = { prompt: "find the login" };
    h = harness((r) => (isChild(r) ? { text: `answer ${r.messages.length}` } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    const path = h.store.path(id);
    corrupt(path);
    const before = readFileSync(path, "utf8");
    args = { prompt: "go on", resume: id };
    await h.run("second");
    return { id, path, before, res: lastResult(h) };
  }
  const line = (message: unknown) => `${JSON.stringify({ type: "message", message, at: "t" })}\n`;
  const call = (id: string) => ({ role: "assistant", content: [{ type: "toolCall", id, name: "echo", arguments: { text: "x" } }], stopReason: "tool_use", usage: emptyUsage() });
  const result = (id: string) => ({ role: "toolResult", results: [{ toolCallId: id, toolName: "echo", content: "x", isError: false }] });

  it("resumes a transcript in which the model server repeated a tool-call id: the second is renamed, results paired by order", async () => {
    const { res } = await childThenResume((p) => appendFileSync(p, line(call("d")) + line(result("d")) + line(call("d")) + line(result("d"))));
    expect(res.isError).toBe(false);
    expect(res.content).toContain("duplicate tool call ids renamed");
    const resumed = h!.provider.requests.filter(isChild).at(-1)!;
    expect(isHistorySendable(resumed.messages)).toBe(true);
    expect(JSON.stringify(resumed.messages)).toContain('"d_2"');
  });

  it("closes a crash tail without re-running it and says so in the resumed result, with lifetime usage", async () => {
    const { id, res } = await childThenResume((path) => appendFileSync(path, line({ role: "user", content: "and the tests?" }) + line(call("c1"))));
    expect(res.isError).toBe(false);
    expect(res.content).toContain("[task] transcript repaired: 1 interrupted tool call closed. Files may have changed since the previous attempt — re-read before editing.");
    expect(res.content).toMatch(/\(this attempt\) · lifetime 3 turns/);
    const resumed = h!.provider.requests.filter(isChild).at(-1)!;
    expect(JSON.stringify(resumed.messages)).toContain("not run again");
    // the child itself is told its last attempt was cut short and to re-read files, before the new request
    expect(resumed.messages.at(-1)).toEqual({
      role: "user",
      content: "[Ink] Your previous attempt was interrupted; its transcript was repaired (1 interrupted tool call closed) and interrupted tool calls were not run again.\nFiles may have changed since then: re-read a file before editing it.\n\ngo on",
    });
    expect(h!.events.some((e) => e.type === "subagent_event" && e.event.type === "tool_start")).toBe(false);
    // the closure was saved: the file loads cleanly again
    expect(h!.store.load(id).repairs).toEqual([]);
  });

  const refusals: Array<[string, (path: string) => void, RegExp]> = [
    ["a result without a call", (p) => appendFileSync(p, line(result("zz"))), /line 6 holds tool results \(zz\) that follow no tool call/],
    ["duplicate results", (p) => appendFileSync(p, line(call("d")) + line(result("d")) + line(result("d"))), /tool call "d" \(line 6\) has two results/],
    ["calls without results in the middle", (p) => appendFileSync(p, line(call("m")) + line({ role: "user", content: "later" }) + line({ role: "assistant", content: [{ type: "text", text: "x" }], stopReason: "end_turn", usage: emptyUsage() })), /line 6 has tool call\(s\) without results in the middle of the history: echo m/],
  ];
  for (const [name, corrupt, pattern] of refusals) {
    it(`refuses to resume a transcript with ${name}, naming the entry, the file untouched`, async () => {
      const { id, path, before, res } = await childThenResume(corrupt);
      expect(res.isError).toBe(true);
      expect(res.content.startsWith(`cannot resume child ${id}:\n- its transcript cannot be paired safely: `)).toBe(true);
      expect(res.content).toMatch(pattern);
      expect(res.content).toMatch(/Start a new task instead/);
      expect(readFileSync(path, "utf8")).toBe(before);
    });
  }
});

describe("results that guide the model", () => {
  it("a timed-out child's result quotes the task start (<= 200 characters), the turns run, and advice", async () => {
    const wait = sleeper("wait", { log: [] }, { concurrent: true, ms: 60_000 });
    const prompt = `Investigate the login flow ${"in great detail ".repeat(30)}END`;
    h = harness((r) => (isChild(r) ? { toolCalls: [{ name: "wait", arguments: { label: "w" } }] } : parentOnce(() => ({ prompt, timeoutMs: 1000 }))(r)), { extraTools: [wait] });
    await h.run("go");
    const res = lastResult(h).content;
    expect(res).toMatch(/\[task\] stopped: the child timed out after 1000 ms after 1 turn\./);
    const quoted = /\[task\] the task was: "(.*)"/.exec(res)![1]!;
    expect(quoted.startsWith("Investigate the login flow in great detail")).toBe(true);
    expect(quoted.length).toBeLessThanOrEqual(200);
    expect(res).not.toContain("END");
    expect(res).toMatch(/\[task\] next: resume it with task\(\{resume: ".*", prompt: "\.\.\."\}\) to let it finish, or re-dispatch a narrower task, or read its transcript \(.*\.jsonl\)/);
  });

  it("a run of identical tool calls adds a warning line to the result and a warning event", async () => {
    h = harness((r) => (isChild(r) ? (r.messages.length < 11 ? { toolCalls: [{ name: "echo", arguments: { text: "same" } }] } : { text: "gave up" }) : parentOnce(() => ({ prompt: "x" }))(r)));
    await h.run("go");
    const res = lastResult(h).content;
    expect(res).toMatch(/\[task\] warning: the agent made the same echo call 5 times in a row \(\{"text":"same"\}\); it may be stuck in a loop/);
    const relayed = h.events.filter((e) => e.type === "subagent_event" && e.event.type === "warning");
    expect(relayed).toHaveLength(1);
  });

  it("the description says to delegate only independent subtasks, one child per set of files", () => {
    expect(describeTask([])).toContain("Delegate only independent subtasks; keep changes to the same files in one child at a time");
  });
});

describe("child health", () => {
  it("the approval decision for a child's call gets the child's working directory: its worktree, not the user's checkout", async () => {
    const repo = makeLoginRepo();
    const seen: Array<{ name: string; label: string; cwd?: string }> = [];
    h = harness(
      (r) => (isChild(r) ? (r.messages.length === 1 ? { toolCalls: [{ name: "echo", arguments: { text: "hi" } }] } : { text: "done" }) : parentOnce(() => ({ prompt: "fix", worktree: true }))(r)),
      { cwd: repo, onToolCall: (call, agent) => (seen.push({ name: call.name, label: agent.label, cwd: agent.cwd }), { allow: true }) },
    );
    await h.run("go");
    const start = h.events.find((e): e is Extract<AgentEvent, { type: "subagent_start" }> => e.type === "subagent_start")!;
    expect(start.worktree).toBeDefined();
    expect(seen[0]).toEqual({ name: "task", label: "main", cwd: repo });
    const child = seen.find((s) => s.name === "echo")!;
    expect(child.label).toBe("general");
    expect(child.cwd).not.toBe(repo);
    expect(child.cwd!.startsWith(start.worktree!)).toBe(true);
    rmSync(repo, { recursive: true, force: true });
  });
});

describe("profile worktree default", () => {
  it("a profile with worktree: true runs its children in a worktree; the call may override it", async () => {
    const repo = makeLoginRepo();
    let args: Record<string, unknown> = { prompt: "fix", agent: "fixer" };
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)), { profiles: [profile("fixer", { worktree: true })], cwd: repo });
    await h.run("first");
    const starts = () => h!.events.filter((e): e is Extract<AgentEvent, { type: "subagent_start" }> => e.type === "subagent_start");
    expect(starts()[0]!.worktree).toBeDefined();
    args = { prompt: "fix", agent: "fixer", worktree: false };
    await h.run("second");
    expect(starts()[1]!.worktree).toBeUndefined();
    rmSync(repo, { recursive: true, force: true });
  });
});
