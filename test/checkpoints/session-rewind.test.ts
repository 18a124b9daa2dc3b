/** Rewind through AgentSession (issue #40): a child's shared-tree edit and the main agent's edit undone, files and conversation each on its own, kept on resume. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { loadSessionFile } from "../../src/session/load.js";
import { isChild } from "../helpers/subagent-harness.js";
import { git, tempDir } from "../helpers/temp-git.js";

const sessions: AgentSession[] = [];
afterEach(() => sessions.splice(0).forEach((s) => s.close()));

function project(): string {
  const cwd = tempDir("ink-rw-cwd-");
  git(cwd, "init", "-q");
  writeFileSync(join(cwd, "a.ts"), "a0\n");
  writeFileSync(join(cwd, "b.ts"), "b0\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-qm", "init");
  return cwd;
}

/** Turn "one": main writes a.ts = a1. Turn "two": a child edits b.ts in the shared tree, main writes a.ts = a2 and runs bash making c.ts. */
function script(r: ModelRequest): ScriptedTurn {
  if (isChild(r)) return r.messages.length === 1 ? { toolCalls: [{ name: "edit", arguments: { path: "b.ts", oldText: "b0", newText: "b-child" } }] } : { text: "child done" };
  const last = r.messages.at(-1)!;
  const prompt = [...r.messages].reverse().find((m) => m.role === "user") as UserMessage;
  const said = userText(prompt);
  if (last.role === "user" && said.endsWith("one")) return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "a1\n" } }] };
  if (last.role === "user" && said.endsWith("two")) return { toolCalls: [{ name: "task", arguments: { prompt: "edit b", description: "edit b" } }] };
  if (said.endsWith("two") && last.role === "toolResult" && last.results[0]!.toolName === "task") {
    return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: "a2\n" } }, { name: "bash", arguments: { command: "printf 'c\\n' > c.ts" } }] };
  }
  return { text: "done" };
}

function start(cwd: string, inkHome: string, resume?: string): AgentSession {
  const s = new AgentSession({ cwd, inkHome, provider: createScriptedProvider(script), model: "m", interactive: true, approval: { mode: "yolo" } as never, ...(resume ? { resume } : {}) });
  sessions.push(s);
  return s;
}

it("lists each turn's changes by agent, and rewinds the files of a turn (child and main) without touching the conversation", async () => {
  const cwd = project();
  const session = start(cwd, tempDir("ink-rw-home-"));
  await session.prompt("one");
  await session.prompt("two");
  expect(readFileSync(join(cwd, "b.ts"), "utf8")).toBe("b-child\n");
  const turns = await session.rewindTurns();
  expect(turns.map((t) => t.prompt)).toEqual(["one", "two"]);
  expect(turns[0]!.changes).toEqual([{ agent: { id: "main", label: "main" }, files: [{ path: "a.ts", added: 1, removed: 1 }] }]);
  const agents = turns[1]!.changes.map((c) => c.agent.id);
  expect(agents[0]).not.toBe("main"); // the child's edit came first
  expect(agents[1]).toBe("main");
  expect(turns[1]!.changes.flatMap((c) => c.files.map((f) => f.path)).sort()).toEqual(["a.ts", "b.ts", "c.ts"]);
  const historyBefore = session.history.length;
  const r = await session.rewind(2, { files: true, conversation: false });
  expect(r.ok).toBe(true);
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("a1\n");
  expect(readFileSync(join(cwd, "b.ts"), "utf8")).toBe("b0\n");
  expect(existsSync(join(cwd, "c.ts"))).toBe(false);
  expect(session.history.length).toBe(historyBefore);
});

it("rewinds the conversation alone to before a turn; the session file keeps every line and a resumed session has the cut history and the checkpoints", async () => {
  const cwd = project();
  const inkHome = tempDir("ink-rw-home-");
  const session = start(cwd, inkHome);
  await session.prompt("one");
  const afterOne = session.history.length;
  await session.prompt("two");
  const linesBefore = readFileSync(session.sessionPath!, "utf8").split("\n").length;
  const r = await session.rewind(2, { files: false, conversation: true });
  expect(r).toMatchObject({ ok: true, kept: afterOne });
  expect(session.history.length).toBe(afterOne);
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("a2\n"); // files untouched
  expect(readFileSync(session.sessionPath!, "utf8").split("\n").length).toBe(linesBefore + 1);
  expect(loadSessionFile(session.sessionPath!).messages.length).toBe(afterOne);
  const id = session.sessionId;
  session.close();
  sessions.splice(0);
  const resumed = start(cwd, inkHome, id);
  expect(resumed.history.length).toBe(afterOne);
  expect((await resumed.rewindTurns()).map((t) => t.turn)).toEqual([1, 2]);
  const files = await resumed.rewind(1, { files: true, conversation: false });
  expect(files.ok).toBe(true);
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("a0\n");
});

it("names a file the person changed since and changes nothing (files or conversation) until forced", async () => {
  const cwd = project();
  const session = start(cwd, tempDir("ink-rw-home-"));
  await session.prompt("one");
  await session.prompt("two");
  writeFileSync(join(cwd, "b.ts"), "person\n");
  const historyBefore = session.history.length;
  const r = await session.rewind(2);
  expect(r.ok).toBe(false);
  expect(r.changedSince).toEqual(["b.ts"]);
  expect(r.message).toContain("b.ts");
  expect(readFileSync(join(cwd, "b.ts"), "utf8")).toBe("person\n");
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("a2\n");
  expect(session.history.length).toBe(historyBefore);
  const forced = await session.rewind(2, { force: true });
  expect(forced.ok).toBe(true);
  expect(readFileSync(join(cwd, "b.ts"), "utf8")).toBe("b0\n");
  expect(session.history.length).toBeLessThan(historyBefore);
});
