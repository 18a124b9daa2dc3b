/** The seed's contract rows closed in round two (issue #30): each test names its row. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { movedToBackgroundResult, startedInBackgroundResult } from "../../src/subagents/child-job.js";
import { describeTask, taskSchema } from "../../src/subagents/task-tool.js";
import { harness, isChild, type Harness } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

function parentOnce(getArgs: () => Record<string, unknown>) {
  return (r: ModelRequest): ScriptedTurn => (r.messages.at(-1)!.role === "user" ? { toolCalls: [{ id: `t${r.messages.length}`, name: "task", arguments: getArgs() }] } : { text: "ok" });
}
const lastResult = (hh: Harness) => (hh.history.filter((m) => m.role === "toolResult").at(-1) as ToolResultMessage).results[0]!;
const childPath = (hh: Harness) => hh.store.list({ kind: "child" })[0]!.path;

describe("C-3: a model call that never answered is not a turn", () => {
  it("a child timed out during its first request reports after 0 turns", async () => {
    h = harness((r) => (isChild(r) ? { text: "late", delayMs: 60_000 } : parentOnce(() => ({ prompt: "look", timeoutMs: 1000 }))(r)));
    await h.run("go");
    expect(lastResult(h).content).toMatch(/\[task\] stopped: the child timed out after 1000 ms after 0 turns\./);
    expect(lastResult(h).content).toMatch(/\[task\] timeout · 0 turns ·/);
  });

  it("a child whose second call fails after one complete turn reports after 1 turn", async () => {
    h = harness((r) => (isChild(r) ? (r.messages.length === 1 ? { toolCalls: [{ name: "echo", arguments: { text: "a" } }] } : { error: new ProviderError("api", "quota exhausted") }) : parentOnce(() => ({ prompt: "look" }))(r)));
    await h.run("go");
    expect(lastResult(h).content).toMatch(/^\[task\] child failed after 1 turn: quota exhausted/);
  });
});

describe("D-9: a child whose transcript could not be saved says so whatever its end", () => {
  it("a failed child's result says its work was not saved and offers no resume", async () => {
    h = harness((r) => {
      if (!isChild(r)) return parentOnce(() => ({ prompt: "look" }))(r);
      if (r.messages.length === 1) {
        const path = childPath(h!);
        rmSync(path);
        mkdirSync(path); // every later write fails with EISDIR
        return { toolCalls: [{ name: "echo", arguments: { text: "a" } }] };
      }
      return { error: new ProviderError("api", "quota exhausted") };
    });
    await h.run("go");
    const res = lastResult(h);
    expect(res.content).toMatch(/child failed after 1 turn: quota exhausted/);
    expect(res.content).toMatch(/\[task\] transcript could not be saved \(not resumable\): EISDIR/);
    expect(res.content).not.toContain("resume");
  });
});

describe("D-9 (cont.)", () => {
  it("a child whose transcript could not be created at all: failed, timed out or ok, the result says it was not saved", async () => {
    for (const turn of [{ error: new ProviderError("api", "quota exhausted") }, { text: "late", delayMs: 60_000 }, { text: "THE ANSWER" }] as ScriptedTurn[]) {
      h?.cleanup();
      h = harness((r) => (isChild(r) ? turn : parentOnce(() => ({ prompt: "look", timeoutMs: 1000 }))(r)));
      rmSync(join(h.inkHome, "sessions"), { recursive: true, force: true });
      writeFileSync(join(h.inkHome, "sessions"), "not a directory");
      await h.run("go");
      const res = lastResult(h);
      expect(res.content, JSON.stringify(turn)).toMatch(/\[task\] transcript could not be saved \(not resumable\)/);
      expect(res.content).not.toContain("resume");
    }
  });
});

describe("D-12: the resume hint says when a child can be resumed", () => {
  it("a finished child's result says it has ended; a background start says resume sends a running child a message", async () => {
    h = harness((r) => (isChild(r) ? { text: "FOUND" } : parentOnce(() => ({ prompt: "look" }))(r)));
    await h.run("go");
    expect(lastResult(h).content).toMatch(/\[task\] child session \S+ \(history: [^)]+\); it has ended — continue it with task\(\{resume: "/);
    expect(startedInBackgroundResult("c1").output).toContain('While it runs, task({resume: "c1", prompt: "..."}) sends it a message it reads at its next step; once it has ended, the same call continues it.');
    expect(movedToBackgroundResult("c1").output).toContain("While it runs, task({resume: \"c1\"");
    expect(describeTask([])).toMatch(/continue a child once it has ended .* while a background child still runs, resume sends it the prompt as a message instead/);
  });
});

describe("A-2: the prompt parameter tells the model what a brief holds and how long it is", () => {
  it("self-contained, a few sentences to a few paragraphs: goal, constraints, what to return", () => {
    const text = taskSchema.shape.prompt.description!;
    for (const part of ["self-contained", "a few sentences to a few paragraphs", "the goal", "the constraints", "what to return"]) expect(text).toContain(part);
  });
});
