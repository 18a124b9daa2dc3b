/** The control channel's list_turns and rewind commands (issue #40), on a real AgentSession and a real temp repo. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { userText, type UserMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createScriptedProvider, type ScriptedTurn } from "../../src/providers/scripted.js";
import { RpcApprovals } from "../../src/rpc/approvals.js";
import { RpcDispatcher } from "../../src/rpc/dispatcher.js";
import { RpcOutput } from "../../src/rpc/output.js";
import { waitUntil } from "../../components/testing/wait-for-frame.js";
import { git, tempDir } from "../helpers/temp-git.js";

const sessions: AgentSession[] = [];
afterEach(() => sessions.splice(0).forEach((s) => s.close()));

function script(r: ModelRequest): ScriptedTurn {
  const last = r.messages.at(-1)!;
  if (last.role !== "user") return { text: "done" };
  const said = userText(last as UserMessage);
  return { toolCalls: [{ name: "write", arguments: { path: "a.ts", content: `${said}\n` } }] };
}

it("list_turns lists each turn's files; rewind refuses a file the person changed (naming it) and overwrites it with force", async () => {
  const cwd = tempDir("ink-rpc-rw-");
  git(cwd, "init", "-q");
  writeFileSync(join(cwd, "a.ts"), "start\n");
  const session = new AgentSession({ cwd, inkHome: tempDir("ink-rpc-home-"), provider: createScriptedProvider(script), model: "m", interactive: false, approval: { mode: "yolo" } as never });
  sessions.push(session);
  const lines: Array<Record<string, any>> = [];
  const out = new RpcOutput((l) => lines.push(JSON.parse(l)));
  const rpc = new RpcDispatcher(session, out, new RpcApprovals((e) => out.send(e), cwd));
  const response = async (id: string) => {
    await waitUntil(() => lines.some((l) => l.type === "response" && l.id === id), { tries: 4000, what: `the response to ${id}` });
    return lines.find((l) => l.type === "response" && l.id === id)!;
  };
  const ended = (id: string) => waitUntil(() => lines.some((l) => l.type === "prompt_end" && l.id === id), { tries: 4000, what: `prompt_end ${id}` });
  rpc.handleLine(JSON.stringify({ type: "prompt", id: "p1", text: "one" }));
  await ended("p1");
  rpc.handleLine(JSON.stringify({ type: "prompt", id: "p2", text: "two" }));
  await ended("p2");
  rpc.handleLine(JSON.stringify({ type: "list_turns", id: "l" }));
  const listed = await response("l");
  expect(listed.data.turns.map((t: { prompt: string; changes: unknown }) => [t.prompt, t.changes])).toEqual([
    ["one", [{ agent: { id: "main", label: "main" }, files: [{ path: "a.ts", added: 1, removed: 1 }] }]],
    ["two", [{ agent: { id: "main", label: "main" }, files: [{ path: "a.ts", added: 1, removed: 1 }] }]],
  ]);
  writeFileSync(join(cwd, "a.ts"), "person\n");
  rpc.handleLine(JSON.stringify({ type: "rewind", id: "r1", turn: 2 }));
  const refused = await response("r1");
  expect(refused).toMatchObject({ success: false, changedSince: ["a.ts"] });
  expect(refused.error).toContain("a.ts");
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("person\n");
  rpc.handleLine(JSON.stringify({ type: "rewind", id: "r2", turn: 2, force: true, conversation: false }));
  expect(await response("r2")).toMatchObject({ success: true, data: { restored: ["a.ts"], kept: null } });
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("one\n");
  rpc.handleLine(JSON.stringify({ type: "rewind", id: "bad", turn: 0 }));
  expect((await response("bad")).error).toContain('field "turn"');
});
