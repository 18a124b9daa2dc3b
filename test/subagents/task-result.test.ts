import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../src/protocol/messages.js";
import type { SubagentOutcome } from "../../src/subagents/runtime/run-subagent.js";
import { taskResult, truncateKeepingTail } from "../../src/subagents/tools/task-result.js";
import { formatChildrenList, resumeRefusedResult, unknownAgentResult } from "../../src/subagents/tools/task-refusals.js";

const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const outcome = (o: Partial<SubagentOutcome>): SubagentOutcome => ({ status: "ok", text: "", turns: 2, usage: emptyUsage(), durationMs: 1500, sessionId: "c1", historyPath: "/h/c1.jsonl", ...o });

describe("tail-keeping truncation", () => {
  it("keeps the first lines and the tail (the conclusion), notes how much was cut and where the full text is, never splitting an emoji", () => {
    const head = "Report\nline two\n";
    for (let shift = 0; shift < 4; shift++) {
      const text = `${head}${"x".repeat(shift)}${"😀".repeat(20_000)}\nCONCLUSION: it is in login.ts`;
      const out = truncateKeepingTail(text, 30_000, "/h/c1.jsonl");
      expect(out.startsWith("Report\nline two")).toBe(true);
      expect(out.endsWith("CONCLUSION: it is in login.ts")).toBe(true);
      expect(out).toMatch(/report truncated: \d+ of \d+ characters cut here \(characters \d+–\d+\); .* the full text is in \/h\/c1\.jsonl/);
      expect(lone.test(out)).toBe(false);
      expect(out.length).toBeLessThan(30_400);
    }
    expect(truncateKeepingTail("short", 100, "x")).toBe("short");
  });
});

describe("result texts", () => {
  it("ok: the report, then the usage line and the resume hint", () => {
    expect(taskResult(outcome({ text: "FOUND" })).output).toBe(
      'FOUND\n\n[task] ok · 2 turns · 1.5s · tokens 0 in / 0 out\n[task] child session c1 (history: /h/c1.jsonl); it has ended — continue it with task({resume: "c1", prompt: "..."}) now or in a later session (after --continue or --resume too), as long as its system prompt, tools, model and working directory are unchanged',
    );
  });

  it("ok without text, aborted, crash: each says what happened, quotes the task, advises", () => {
    expect(taskResult(outcome({})).output).toMatch(/^\[task\] the child finished after 2 turns without a final text answer; nothing to report\./);
    const aborted = taskResult(outcome({ status: "aborted", reason: "stopped by the user", text: "half" }), { prompt: "find the login" });
    expect(aborted.isError).toBe(true);
    expect(aborted.output).toContain("half\n\n[task] partial text above; the child did not finish.");
    expect(aborted.output).toContain("[task] stopped: stopped by the user after 2 turns.");
    expect(aborted.output).toContain('[task] the task was: "find the login"');
    expect(aborted.output).toContain('[task] next: resume it with task({resume: "c1", prompt: "..."}) to let it finish, or re-dispatch a narrower task, or read its transcript (/h/c1.jsonl) to see how far it got.');
    const crash = taskResult(outcome({ status: "crash", reason: "boom" }), { prompt: "p" });
    expect(crash.output).toMatch(/^\[task\] child failed after 2 turns: boom\n\n\[task\] the task was: "p"/);
  });

  it("a transcript that could not be saved: a not-resumable line and no resume hint", () => {
    const out = taskResult(outcome({ text: "A" }), { persistFailure: "ENOSPC: no space left on device" }).output;
    expect(out).toContain("[task] transcript could not be saved (not resumable): ENOSPC: no space left on device");
    expect(out).not.toContain("continue it with");
  });

  it("a resumed child: kept worktree named, repairs reported, usage for this attempt and the lifetime", () => {
    const out = taskResult(outcome({ text: "A", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } }), {
      worktree: { path: "/wt/c1", branch: "ink/c1" },
      repairs: ["1 interrupted tool call closed"],
      earlier: { usage: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0 }, turns: 3 },
    }).output;
    expect(out).toContain("[task] resumed in its kept worktree /wt/c1 (branch ink/c1).");
    expect(out).toContain("[task] transcript repaired: 1 interrupted tool call closed. Files may have changed since the previous attempt — re-read before editing.");
    expect(out).toContain("tokens 10 in / 5 out (this attempt) · lifetime 5 turns · tokens 110 in / 55 out");
  });

  it("refused resumes start with `cannot resume child <id>:`, list every reason and suggest a new task", () => {
    expect(resumeRefusedResult("c9", ["model differs", "tool set differs"]).output).toBe(
      "cannot resume child c9:\n- model differs\n- tool set differs\nStart a new task instead (without resume), giving it the context it needs.",
    );
  });

  it("unknown agent in an untrusted project never invites creating profile files; with no agents at all it is the seed's text (B-8)", () => {
    expect(unknownAgentResult("x", [], 2).output).not.toMatch(/\.ink\/agents/);
    expect(unknownAgentResult("x", [], 2).output).toMatch(/Do not create or edit profile files/);
    expect(unknownAgentResult("scout", [])).toEqual({ output: 'unknown agent "scout". No agents are defined (create .ink/agents/*.md or ~/.ink/agents/*.md).', isError: true });
  });
});

describe("the children list after an unknown resume id", () => {
  it("one line per child with status, agent and the task start cut on a code-point boundary; at most 20, then a count", () => {
    const prompt = `${"a".repeat(78)}😀 and the rest of a long task`;
    const list = formatChildrenList([{ id: "c1", status: "ok", profile: "scout", prompt }, { id: "c2" }]);
    const lines = list.split("\n");
    expect(lines[0]).toBe("This session's children:");
    expect(lines[1]).toMatch(/^- c1 · ok · scout · "a{78}…"$/);
    expect(lone.test(list)).toBe(false);
    expect(lines[2]).toBe('- c2 · no status (running or interrupted) · general · ""');
    const many = formatChildrenList(Array.from({ length: 23 }, (_, i) => ({ id: `c${i}`, status: "ok", prompt: "p" })));
    expect(many.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(20);
    expect(many.endsWith("… and 3 more")).toBe(true);
    expect(formatChildrenList([])).toBe("This session has no saved children.");
  });
});
