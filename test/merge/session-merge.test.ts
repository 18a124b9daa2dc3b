/** /merge's core through AgentSession (issue #40): three worktree children's kept branches — two clean, one conflicting — merged in order. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
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
  expect(childTools.length).toBeGreaterThan(0);
  for (const names of childTools) expect(names).not.toContain("merge_branches");
});
