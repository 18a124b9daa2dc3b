/** The demo's worker children (issue #40): a newcomer tries /rewind and /merge with no key — real AgentSession, real git temp repo. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { createDemoProvider } from "../../src/providers/demo.js";
import { workerFiles } from "../../src/providers/demo-workers.js";
import { git, tempDir } from "../helpers/temp-git.js";

const sessions: AgentSession[] = [];
afterEach(() => sessions.splice(0).forEach((s) => s.close()));

function repo(): string {
  const cwd = tempDir("ink-demo-workers-");
  git(cwd, "init", "-q", "-b", "main");
  writeFileSync(join(cwd, "NOTES.md"), "# Notes\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-qm", "init");
  return cwd;
}

function demoSession(cwd: string): AgentSession {
  const session = new AgentSession({ cwd, inkHome: tempDir("ink-demo-workers-home-"), provider: createDemoProvider({ delayMs: 0 }), model: "demo", interactive: true, approval: { mode: "yolo" } as never });
  sessions.push(session);
  return session;
}

const lastText = (s: AgentSession) => {
  const m = s.history.at(-1)!;
  return m.role === "assistant" ? m.content.map((b) => (b.type === "text" ? b.text : "")).join("") : "";
};

it("reads the files and the number of workers from the request", () => {
  expect(workerFiles("add a note")).toEqual(["NOTES.md"]);
  expect(workerFiles("add notes to NOTES.md, TODO.md and NOTES.md in worktrees")).toEqual(["NOTES.md", "TODO.md", "NOTES.md"]);
  expect(workerFiles("add notes with 3 workers in worktrees")).toEqual(["NOTES.md", "NOTES.md", "NOTES.md"]);
  expect(workerFiles("add notes to docs/a.md with nine workers")).toEqual(["docs/a.md"]);
});

it("a worker in the shared tree appends a note; /rewind lists it as the child's and takes it back", async () => {
  const cwd = repo();
  const session = demoSession(cwd);
  await session.prompt("add a note to NOTES.md");
  expect(readFileSync(join(cwd, "NOTES.md"), "utf8")).toBe("# Notes\n- note 1 from a demo worker\n");
  expect(lastText(session)).toContain("/rewind");
  const [turn] = await session.rewindTurns();
  expect(turn!.changes).toHaveLength(1);
  expect(turn!.changes[0]!.agent.id).not.toBe("main");
  expect(turn!.changes[0]!.files).toEqual([{ path: "NOTES.md", added: 1, removed: 0 }]);
  const r = await session.rewind(1, { files: true, conversation: false });
  expect(r.ok).toBe(true);
  expect(readFileSync(join(cwd, "NOTES.md"), "utf8")).toBe("# Notes\n");
});

it("three workers in worktrees leave three branches; /merge stops at the conflicting one, its worker resolves it, and all are merged and removed", async () => {
  const cwd = repo();
  const session = demoSession(cwd);
  await session.prompt("add notes to NOTES.md, TODO.md and NOTES.md in worktrees");
  expect(lastText(session)).toContain("/merge");
  expect(readFileSync(join(cwd, "NOTES.md"), "utf8")).toBe("# Notes\n"); // the shared tree is untouched
  const candidates = await session.mergeCandidates();
  const by = (n: number) => candidates.find((b) => b.title?.startsWith(`worker ${n}:`))!;
  const order = [by(1), by(2), by(3)];
  expect(order.every((b) => b !== undefined && b.clean)).toBe(true);
  expect(order.map((b) => b.overlaps)).toEqual([["NOTES.md"], [], ["NOTES.md"]]);
  const first = await session.mergeBranches(order.map((b) => b.branch));
  expect(first.merged).toEqual([order[0]!.branch, order[1]!.branch]);
  expect(first.conflict).toMatchObject({ branch: order[2]!.branch, files: ["NOTES.md"] });
  // The worker merges with no identity of the person's (a fresh machine: no user.email in any git config).
  const hadGlobal = process.env.GIT_CONFIG_GLOBAL;
  process.env.GIT_CONFIG_GLOBAL = "/dev/null";
  const { handed, outcome } = await session.handMergeConflict().finally(() => {
    if (hadGlobal === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    else process.env.GIT_CONFIG_GLOBAL = hadGlobal;
  });
  expect(handed?.content).toContain("I kept both sides");
  expect(outcome).toMatchObject({ ok: true, merged: [order[2]!.branch] });
  const notes = readFileSync(join(cwd, "NOTES.md"), "utf8").split("\n");
  expect(notes.slice(0, 1)).toEqual(["# Notes"]); // both sides kept (the worker's first), no markers
  expect(notes.slice(1).sort()).toEqual(["", "- note 1 from a demo worker", "- note 3 from a demo worker"]);
  expect(readFileSync(join(cwd, "TODO.md"), "utf8")).toBe("- note 2 from a demo worker\n");
  for (const b of order) expect(existsSync(b.worktree!)).toBe(false);
  // No branch of no worktree is left (three workers adding worktrees at once once left one: test/subagents/worktree.test.ts).
  expect(git(cwd, "branch", "--list", "ink/*").trim()).toBe("");
  expect(git(cwd, "status", "--porcelain")).toBe("");
});

it("\"… yourself\" has the main agent append the note itself (no worker); /rewind lists it as main's and takes it back", async () => {
  const cwd = repo();
  const session = demoSession(cwd);
  await session.prompt("add a note to TODO.md yourself");
  expect(readFileSync(join(cwd, "TODO.md"), "utf8")).toBe("- note from the main agent\n");
  expect(session.history.some((m) => m.role === "assistant" && m.content.some((b) => b.type === "toolCall" && b.name === "task"))).toBe(false);
  expect(lastText(session)).toContain("/rewind");
  const [turn] = await session.rewindTurns();
  expect(turn!.changes).toEqual([{ agent: expect.objectContaining({ id: "main" }), files: [{ path: "TODO.md", added: 1, removed: 0 }] }]);
  expect((await session.rewind(1, { files: true, conversation: false })).ok).toBe(true);
  expect(existsSync(join(cwd, "TODO.md"))).toBe(false);
});
