import { afterEach, describe, expect, it } from "vitest";
import { childDescription, childTitle, normalizeDescription, promptWords } from "../../src/subagents/runtime/child-label.js";
import { describeTask, taskSchema } from "../../src/subagents/tools/task-tool.js";
import type { TaskDetails } from "../../src/subagents/tools/task-tool.js";
import { harness, type Harness, idOf, isChild, lastResult, parentOnce } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

const starts = (hh: Harness) => hh.events.filter((e) => e.type === "subagent_start");
const lastRecord = (hh: Harness) => {
  const end = hh.events.filter((e) => e.type === "tool_end" && e.call.name === "task").at(-1);
  return end?.type === "tool_end" ? (end.details as TaskDetails).taskRecord : undefined;
};

describe("child descriptions", () => {
  it("normalizes: trims, joins whitespace, cuts a long one with a note (never an error)", () => {
    expect(normalizeDescription("  find   the\nlogin handler ")).toEqual({ text: "find the login handler" });
    expect(normalizeDescription("   ")).toEqual({});
    expect(normalizeDescription(undefined)).toEqual({});
    const long = normalizeDescription("look at every single file in the repository for auth bugs");
    expect(long.text).toBe("look at every single file in");
    expect(long.note).toContain('description cut to "look at every single file in"');
    const wordy = normalizeDescription("a".repeat(80));
    expect(wordy.text!.length).toBeLessThanOrEqual(48);
    expect(wordy.text!.endsWith("…")).toBe(true);
    expect(taskSchema.safeParse({ prompt: "x", description: "  a b c  " })).toMatchObject({ success: true, data: { description: "a b c" } });
  });

  it("falls back to the first words of the prompt's first line", () => {
    expect(promptWords("\n  Find where the login handler validates tokens and report the file\nmore")).toBe("Find where the login handler");
    expect(childDescription({ prompt: "Audit the tests" })).toBe("Audit the tests");
    expect(childDescription({ description: "map auth flow", prompt: "Audit" })).toBe("map auth flow");
    expect(childDescription({})).toBe("");
    expect(childTitle({ profile: "scout" })).toBe("scout");
    expect(childTitle({ profile: "scout", prompt: "Audit the tests" })).toBe("scout · Audit the tests");
    expect(childTitle({ description: "x y z" })).toBe("general · x y z");
  });

  it("tells the model to pass a description", () => {
    expect(describeTask([])).toMatch(/pass description: 3–6 words/);
    expect(taskSchema.shape.description.description).toMatch(/3–6 words/);
  });

  it("is saved in the child's header and task record and carried on subagent_start", async () => {
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => ({ prompt: "Find the login handler and report", description: "find login handler" }))(r)));
    await h.run("go");
    const id = idOf(lastResult(h).content);
    expect(starts(h).at(-1)).toMatchObject({ description: "find login handler" });
    expect(lastRecord(h)).toMatchObject({ description: "find login handler" });
    expect(h.store.load(id).header.description).toBe("find login handler");
    expect(h.store.list({ kind: "child" }).find((s) => s.id === id)?.description).toBe("find login handler");
    expect(lastResult(h).content).not.toContain("description cut");
  });

  it("without one: the event and record carry the prompt's first words, the header none", async () => {
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => ({ prompt: "Audit the session store for torn writes please" }))(r)));
    await h.run("go");
    const id = idOf(lastResult(h).content);
    expect(starts(h).at(-1)).toMatchObject({ description: "Audit the session store for" });
    expect(lastRecord(h)).toMatchObject({ description: "Audit the session store for" });
    expect(h.store.load(id).header.description).toBeUndefined();
  });

  it("a too-long description is cut and the model is told so", async () => {
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => ({ prompt: "p", description: "one two three four five six seven eight" }))(r)));
    await h.run("go");
    expect(lastResult(h).isError).toBe(false);
    expect(lastResult(h).content).toContain('[task] description cut to "one two three four five six"');
    expect(starts(h).at(-1)).toMatchObject({ description: "one two three four five six" });
  });

  it("a resumed child keeps its description (and its first prompt's words when it had none)", async () => {
    let args: Record<string, unknown> = { prompt: "Find the login handler", description: "find login handler" };
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "now check the tests too", resume: id, description: "something else" };
    await h.run("second");
    expect(starts(h).at(-1)).toMatchObject({ resumed: true, description: "find login handler" });
    expect(lastRecord(h)).toMatchObject({ description: "find login handler" });

    args = { prompt: "Map the retry logic of providers" };
    await h.run("third");
    const plain = idOf(lastResult(h).content);
    args = { prompt: "and the tests", resume: plain };
    await h.run("fourth");
    expect(starts(h).at(-1)).toMatchObject({ resumed: true, description: "Map the retry logic of" });
  });
});
