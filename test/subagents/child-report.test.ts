/** Reports that arrive (issue #25 item 5): the re-ask of an empty or pointer-only report, and task_result read-back after a restart. */
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage, UserMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { isHistorySendable } from "../../src/session/repair.js";
import { SessionStore } from "../../src/session/store.js";
import { selectChildToolPool } from "../../src/subagents/runtime/child-prompt.js";
import { missingReport } from "../../src/subagents/runtime/report-check.js";
import { MAX_TASK_OUTPUT } from "../../src/subagents/tools/task-result.js";
import { createTaskResultTool } from "../../src/subagents/tools/task-result-tool.js";
import type { ToolContext } from "../../src/protocol/tool.js";
import { harness, type Harness, idOf, isChild } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

function parentOnce(r: ModelRequest): ScriptedTurn {
  return r.messages.at(-1)!.role === "user" ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "find the login code" } }] } : { text: "main done" };
}
const result = (hh: Harness) => (hh.history.filter((m) => m.role === "toolResult").at(-1) as ToolResultMessage).results[0]!;
const childRequests = (hh: Harness) => hh.provider.requests.filter(isChild);
const text = (m: UserMessage) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text).join(""));
const ctx = { cwd: process.cwd(), signal: new AbortController().signal, toolCallId: "r1", agent: { id: "main", label: "main", depth: 0 } } as unknown as ToolContext;

describe("a child that ends without a report", () => {
  it("an empty final message: asked once more within its own history; its report then arrives as ok", async () => {
    let n = 0;
    h = harness((r) => (isChild(r) ? (++n === 1 ? {} : { text: "REPORT: login is in src/auth/login.ts" }) : parentOnce(r)));
    await h.run("go");
    const res = result(h);
    expect(res.isError).toBe(false);
    expect(res.content).toContain("REPORT: login is in src/auth/login.ts");
    const second = childRequests(h)[1]!;
    expect(isHistorySendable(second.messages)).toBe(true);
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(text(second.messages[2] as UserMessage)).toMatch(/your caller receives only your final message/);
    // The re-ask is part of the child's saved transcript.
    expect(h.store.load(idOf(res.content)).messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("a pointer twice (`see above`, `delivered earlier`): the result is an error saying so, with the resume id", async () => {
    let n = 0;
    h = harness((r) => {
      if (!isChild(r)) return parentOnce(r);
      n++;
      if (n === 1) return { text: "Looking at src/auth.", toolCalls: [{ name: "echo", arguments: { text: "x" } }] };
      return { text: n === 2 ? "See above." : "As mentioned, I delivered the report earlier." };
    });
    await h.run("go");
    expect(childRequests(h)).toHaveLength(3);
    const res = result(h);
    expect(res.isError).toBe(true);
    expect(res.content).toMatch(/\[task\] the child finished after 3 turns without a final report: its last message only pointed to earlier output \("As mentioned, I delivered the report earlier\."\), even after it was asked once more/);
    expect(res.content).toMatch(/continue it with task\(\{resume: "/);
  });

  it("a real report that happens to say `see above` is taken as it is", async () => {
    const report = `Findings:\n${"- src/auth/login.ts handles the login form and its validation (see above for the call chain)\n".repeat(5)}`;
    h = harness((r) => (isChild(r) ? { text: report } : parentOnce(r)));
    await h.run("go");
    expect(childRequests(h)).toHaveLength(1);
    expect(result(h)).toMatchObject({ isError: false });
    expect(missingReport("see above")).toBe("pointer");
    expect(missingReport("Delivered earlier.")).toBe("pointer");
    expect(missingReport("  ")).toBe("empty");
    expect(missingReport("The bug is in parse(): it drops the last line.")).toBeUndefined();
  });
});

describe("task_result", () => {
  it("reads back a child's full report by id after a restart (a new store over the same files), though its task result was truncated", async () => {
    const long = `HEAD LINE\n${"x".repeat(MAX_TASK_OUTPUT + 5_000)}\nTHE CONCLUSION`;
    h = harness((r) => (isChild(r) ? { text: long } : parentOnce(r)));
    await h.run("go");
    const res = result(h);
    expect(res.content).toMatch(/report truncated/);
    const id = idOf(res.content);
    // A restarted process (--continue): nothing in memory, only the session files.
    const tool = createTaskResultTool({ store: new SessionStore(h.inkHome), parentSessionId: "parent-1" });
    const back = await tool.execute({ id }, ctx);
    expect(back.isError).toBe(false);
    expect(back.output).toMatch(new RegExp(`^\\[task_result\\] child ${id} · general · ok · model scripted-model\\n\\n`));
    expect(back.output.endsWith(long)).toBe(true);
    const unknown = await tool.execute({ id: "20990101-000000-zzzzzz" }, ctx);
    expect(unknown.isError).toBe(true);
    expect(unknown.output).toMatch(/no child session "20990101-000000-zzzzzz"[\s\S]*This session's children:\n- [^\n]*find the login code/);
  });

  it("is the main agent's only: children get neither task nor task_result", () => {
    const store = new SessionStore("/nonexistent-ink-home");
    const tool = createTaskResultTool({ store });
    const pool = selectChildToolPool([tool, { ...tool, name: "read" }]);
    expect(pool.map((t) => t.name)).toEqual(["read"]);
  });
});
