/** /merge's core through AgentSession (issue #40): three worktree children's kept branches — two clean, one conflicting — merged in order. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { emptyUsage, userText, type UserMessage } from "../../src/protocol/messages.js";
import { keptBranches } from "../../src/merge/session-merge.js";
import type { TaskRecord } from "../../src/session/types.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { isChild } from "../helpers/subagent-harness.js";
import { git, tempDir } from "../helpers/temp-git.js";

const sessions: AgentSession[] = [];
afterEach(() => sessions.splice(0).forEach((s) => s.close()));

/** Child "one" changes a.ts's last line, "two" adds c.ts, "three" changes a.ts's first and last lines. */
const edits: Record<string, { path: string; content: string }> = {
  one: { path: "a.ts", content: "line1\nline2\nline3 by one\n" },
  two: { path: "c.ts", content: "new\n" },
  three: { path: "a.ts", content: "line1 by three\nline2\nline3 by three\n" },
};

function script(r: ModelRequest): ScriptedTurn {
  const first = userText(r.messages[0] as UserMessage).trim().split("\n").at(-1)!; // a worktree child's prompt comes after its preamble
  if (isChild(r)) return r.messages.length === 1 ? { toolCalls: [{ name: "write", arguments: edits[first]! }] } : { text: `did ${first}` };
  if (r.messages.length === 1) return { toolCalls: ["one", "two", "three"].map((p) => ({ name: "task", arguments: { prompt: p, description: `part ${p}`, worktree: true } })) };
  return { text: "all done" };
}

it("lists the three kept branches with overlaps and merges them in order, stopping at the conflicting one with its worktree kept", async () => {
  const cwd = tempDir("ink-merge-cwd-");
  git(cwd, "init", "-q", "-b", "main");
  writeFileSync(join(cwd, "a.ts"), "line1\nline2\nline3\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-qm", "init");
  const session = new AgentSession({ cwd, inkHome: tempDir("ink-merge-home-"), provider: createScriptedProvider(script), model: "m", interactive: true, approval: { mode: "yolo" } as never });
  sessions.push(session);
  await session.prompt("split the work");
  const candidates = await session.mergeCandidates(); // in the order the children ended
  const by = (title: string) => candidates.find((b) => b.title === title)!;
  const listed = [by("part one"), by("part two"), by("part three")];
  expect(listed.map((b) => b.overlaps)).toEqual([["a.ts"], [], ["a.ts"]]);
  expect(listed.every((b) => b.clean)).toBe(true);
  writeFileSync(join(cwd, "notes.md"), "untracked is fine\n");
  const outcome = await session.mergeBranches(listed.map((b) => b.branch));
  expect(outcome.merged).toEqual([listed[0]!.branch, listed[1]!.branch]);
  expect(outcome.conflict).toMatchObject({ branch: listed[2]!.branch, files: ["a.ts"] });
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("line1\nline2\nline3 by one\n");
  expect(readFileSync(join(cwd, "c.ts"), "utf8")).toBe("new\n");
  expect(existsSync(listed[0]!.worktree!)).toBe(false);
  expect(existsSync(listed[2]!.worktree!)).toBe(true);
  const left = await session.mergeCandidates();
  expect(left.map((b) => [b.branch, b.clean])).toEqual([[listed[2]!.branch, false]]);
  expect((await session.mergeBranches([5])).error).toContain("no kept branch number 5");
});

it("the main agent lists and merges the kept branches with merge_branches; children do not get the tool", async () => {
  const cwd = tempDir("ink-merge-cwd-");
  git(cwd, "init", "-q", "-b", "main");
  writeFileSync(join(cwd, "a.ts"), "line1\nline2\nline3\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-qm", "init");
  const results: string[] = [];
  const childTools: string[][] = [];
  const provider = createScriptedProvider((r) => {
    if (isChild(r)) childTools.push(r.tools.map((t) => t.name));
    const last = r.messages.at(-1)!;
    if (!isChild(r) && last.role === "toolResult" && last.results[0]!.toolName === "merge_branches") {
      results.push(last.results[0]!.content);
      return results.length === 1 ? { toolCalls: [{ name: "merge_branches", arguments: { branches: "all" } }] } : { text: "merged" };
    }
    if (!isChild(r) && last.role === "toolResult") return { toolCalls: [{ name: "merge_branches", arguments: {} }] };
    return script(r);
  });
  const session = new AgentSession({ cwd, inkHome: tempDir("ink-merge-home-"), provider, model: "m", interactive: true, approval: { mode: "yolo" } as never });
  sessions.push(session);
  await session.prompt("split the work");
  expect(results[0]).toContain("Kept worktree branches");
  expect(results[0]!.match(/applies cleanly to HEAD/g)).toHaveLength(3);
  expect(results[1]).toMatch(/^merged ink\/\S+, ink\/\S+ \(worktrees and branches removed\); stopped at ink\/\S+: it conflicts in a\.ts/);
  expect(results[1]).toMatch(/<<<<<<< HEAD/); // the conflicting hunk
  expect(results[1]).toMatch(/call task with resume "[^"]+" and this prompt, then merge_branches again with "ink\/\S+":\n\[Ink merge queue\] Merging your branch ink\/\S+ into main conflicts in: a\.ts/);
  expect(childTools.length).toBeGreaterThan(0);
  for (const names of childTools) expect(names).not.toContain("merge_branches");
});

it("hands the conflict to the branch's own child (resumed in its worktree with the conflict as its prompt), then goes on merging; each merged worktree and branch is removed", async () => {
  const cwd = tempDir("ink-merge-cwd-");
  git(cwd, "init", "-q", "-b", "main");
  writeFileSync(join(cwd, "a.ts"), "line1\nline2\nline3\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-qm", "init");
  const handedPrompts: string[] = [];
  const childCwds: string[] = [];
  const provider = createScriptedProvider((r) => {
    const last = r.messages.at(-1)!;
    if (isChild(r) && last.role === "user" && userText(last).includes("[Ink merge queue]")) {
      handedPrompts.push(userText(last));
      return { toolCalls: [{ name: "bash", arguments: { command: "pwd; git merge main; true" } }] };
    }
    if (isChild(r) && last.role === "toolResult" && last.results[0]!.toolName === "bash" && last.results[0]!.content.includes("CONFLICT")) {
      childCwds.push(last.results[0]!.content.split("\n")[0]!);
      return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "line1 by three\nline2\nline3 by one and three\n" } }] };
    }
    if (isChild(r) && last.role === "toolResult" && last.results[0]!.toolName === "write" && handedPrompts.length > 0) {
      return { toolCalls: [{ name: "bash", arguments: { command: "git add a.ts && git -c user.name=w -c user.email=w@example.com commit -q --no-edit && echo committed" } }] };
    }
    if (isChild(r) && last.role === "toolResult" && last.results[0]!.content.includes("committed")) return { text: "kept both: line1 from me, line3 from both" };
    return script(r);
  });
  const session = new AgentSession({ cwd, inkHome: tempDir("ink-merge-home-"), provider, model: "m", interactive: true, approval: { mode: "yolo" } as never });
  sessions.push(session);
  await session.prompt("split the work");
  const candidates = await session.mergeCandidates();
  const by = (title: string) => candidates.find((b) => b.title === title)!;
  // the conflicting branch first in the queue, so the hand-off has to go on with the two after it
  const order = [by("part one"), by("part three"), by("part two")];
  const first = await session.mergeBranches(order.map((b) => b.branch));
  expect(first.merged).toEqual([order[0]!.branch]);
  expect(first.conflict).toMatchObject({ branch: order[1]!.branch, files: ["a.ts"], into: "main", childId: order[1]!.childId });
  expect(session.mergeConflict?.branch).toBe(order[1]!.branch);
  expect(first.conflict?.detail).toContain("CONFLICT (content): Merge conflict in a.ts"); // git says it on stdout, before failing

  const { handed, outcome } = await session.submit({ type: "merge_hand" });
  expect(handed?.isError).toBe(false);
  expect(handedPrompts).toHaveLength(1);
  expect(handedPrompts[0]).toContain(`Merging your branch ${order[1]!.branch} into main conflicts in: a.ts`);
  expect(childCwds).toEqual([order[1]!.worktree]); // resumed in its own worktree
  expect(outcome).toMatchObject({ ok: true, merged: [order[1]!.branch, order[2]!.branch] });
  expect(session.mergeConflict).toBeUndefined();
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("line1 by three\nline2\nline3 by one and three\n");
  expect(readFileSync(join(cwd, "c.ts"), "utf8")).toBe("new\n");
  for (const b of order) expect(existsSync(b.worktree!)).toBe(false);
  expect(git(cwd, "branch", "--list", "--format=%(refname:short)", "ink/*").trim()).toBe("");
  expect(git(cwd, "status", "--porcelain")).toBe("");
  expect(await session.mergeCandidates()).toEqual([]);
  expect((await session.submit({ type: "merge_hand" })).outcome.error).toContain("no merge stopped at a conflict");
});

it("keptBranches orders the queue as the children were delegated, not as they finished; a branch whose call was compacted away comes first; a later record of a branch wins", () => {
  const rec = (id: string, branch: string, kept = true, toolCallId?: string) =>
    ({ childId: id, toolCallId, status: "completed", turns: 1, usage: emptyUsage(), durationMs: 1, prompt: id, worktree: { path: `/w/${id}`, branch, kept } }) as TaskRecord;
  // finished c, a, b; delegated a, b, c; "old" was delegated before the conversation's first call that remains
  const records = [rec("c", "ink/c", true, "t3"), rec("a", "ink/a", true, "t1"), rec("old", "ink/old", true, "t0"), rec("b", "ink/b", true, "t2"), rec("b2", "ink/b", false, "t4")];
  expect(keptBranches(records, ["t1", "t2", "t3", "t4"]).map((b) => b.branch)).toEqual(["ink/old", "ink/a", "ink/c"]);
  const resumed = [...records.slice(0, 4), rec("b", "ink/b", true, "t4")];
  expect(keptBranches(resumed, ["t1", "t2", "t3", "t4"]).map((b) => b.branch)).toEqual(["ink/old", "ink/a", "ink/b", "ink/c"]);
});
