/** The seed's contract rows closed in round two (issue #30): each test names its row. */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/protocol/provider-error.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import type { TaskRecord } from "../../src/session/types.js";
import { movedToBackgroundResult, startedInBackgroundResult } from "../../src/subagents/runtime/child-job.js";
import { describeTask, taskSchema } from "../../src/subagents/tools/task-tool.js";
import { packageVersion } from "../../src/protocol/ink-version.js";
import { harness, type Harness, idOf, isChild, lastResult, parentOnce, profile, childFileBreaks } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

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
    h = harness(childFileBreaks(() => h!, { error: new ProviderError("api", "quota exhausted") }));
    await h.run("go");
    const res = lastResult(h);
    expect(res.content).toMatch(/child failed after 1 turn: quota exhausted/);
    expect(res.content).toMatch(/\[task\] transcript could not be saved \(not resumable\): EISDIR/);
    expect(res.content).not.toContain("resume");
    // H-4: the parent's task record says why the child has no transcript.
    const end = h.events.find((e) => e.type === "tool_end" && e.call.name === "task") as { details?: { taskRecord: TaskRecord } } | undefined;
    expect(end?.details?.taskRecord).toMatchObject({ status: "crash", noTranscript: expect.stringMatching(/^its transcript could not be saved: .*EISDIR/) });
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

/** Rewrites the header line of child session `id` with `change`. */
function editHeader(hh: Harness, id: string, change: (header: Record<string, unknown>) => void): void {
  const path = hh.store.path(id);
  const [first, ...rest] = readFileSync(path, "utf8").split("\n");
  const header = JSON.parse(first!) as Record<string, unknown>;
  change(header);
  writeFileSync(path, [JSON.stringify(header), ...rest].join("\n"));
}

describe("I-8 / I-9: a child's header records Ink's version and each part of its instructions; a refused resume names each change and the fix", () => {
  it("the header carries Ink's version, the system prompt's hash and each tool's", async () => {
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => ({ prompt: "look" }))(r)));
    await h.run("go");
    const header = h.store.readHeader(idOf(lastResult(h).content));
    expect(header.inkVersion).toBe(packageVersion());
    expect(header.inkVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(header.systemHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(header.toolHashes!)).toEqual(["echo"]);
  });

  it("a changed tool definition and an edited profile are named separately, with the transcript and the fix", async () => {
    let args: Record<string, unknown> = { prompt: "look", agent: "scout" };
    const scout = profile("scout", { tools: ["echo"] });
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)), { profiles: [scout] });
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "more", resume: id };
    const at = h.tools.findIndex((t) => t.name === "echo");
    const echo = h.tools[at]!;
    h.tools[at] = { ...echo, description: `${echo.description} (now with more detail)` }; // a new declaration of the same tool
    Object.assign(scout, { body: "You are a different scout.", hash: "scout-edited" });
    await h.run("second");
    const content = lastResult(h).content;
    expect(lastResult(h).isError).toBe(true);
    expect(content).toContain("- tool definitions changed since the child was created: echo (description or parameters).");
    expect(content).toContain('- system prompt differs from the one the child was created with: the profile "scout" was edited (/profiles/scout.md).');
    expect(content).toContain(`start a new task (without resume) and give it what this child found — its transcript is ${h.store.path(id)}.`);
    // Only the tool changed: the system prompt is not blamed.
    Object.assign(scout, { body: "You are scout.", hash: "scout" });
    await h.run("third");
    expect(lastResult(h).content).toContain("tool definitions changed since the child was created: echo");
    expect(lastResult(h).content).not.toContain("system prompt differs");
    h.tools[at] = echo;
    await h.run("fourth");
    expect(lastResult(h).isError).toBe(false);
  });

  it("another Ink version alone does not refuse; with changed instructions the refusal names both versions", async () => {
    let args: Record<string, unknown> = { prompt: "look" };
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "more", resume: id };
    editHeader(h, id, (hd) => (hd.inkVersion = "0.0.1"));
    await h.run("second");
    expect(lastResult(h).isError).toBe(false);
    editHeader(h, id, (hd) => Object.assign(hd, { fingerprint: "0".repeat(64), systemHash: "0".repeat(64) }));
    await h.run("third");
    expect(lastResult(h).content).toContain(`- system prompt differs from the one the child was created with: Ink's own instructions changed. The child was created by Ink 0.0.1; this is Ink ${packageVersion()}.`);
  });

  it("a child saved before the parts were recorded gets one combined reason, saying so, with the fix", async () => {
    let args: Record<string, unknown> = { prompt: "look" };
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "more", resume: id };
    editHeader(h, id, (hd) => {
      for (const k of ["inkVersion", "systemHash", "toolHashes"]) delete hd[k];
      hd.fingerprint = "0".repeat(64);
    });
    await h.run("second");
    expect(lastResult(h).content).toMatch(/- system prompt differs from the one the child was created with \(.*this child was saved by an older Ink that did not record which\)\. A child continues only under the instructions it started with: start a new task/);
  });
});

describe("A-2: the prompt parameter tells the model what a brief holds and how long it is", () => {
  it("self-contained, a few sentences to a few paragraphs: goal, constraints, what to return", () => {
    const text = taskSchema.shape.prompt.description!;
    for (const part of ["self-contained", "a few sentences to a few paragraphs", "the goal", "the constraints", "what to return"]) expect(text).toContain(part);
  });
});
