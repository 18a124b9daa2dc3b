/**
 * `ink --acp` (issue #40, "ACP gets the same as an op"): `/rewind` and `/merge` are built-in commands,
 * offered in available_commands_update beside the command files and skills, and answered as agent
 * messages over the session's ops — never sent to the model.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeLoginRepo } from "../helpers/cli.js";
import { ensureBuilt } from "../helpers/build.js";
import { chunks, scriptByPrompt, startAcpAgent, updateText, type AcpAgent, type AcpEnv } from "../helpers/acp-client.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
const env = {} as AcpEnv;

beforeAll(async () => {
  ensureBuilt();
  server = await startFakeAnthropic();
  Object.assign(env, { server, repo: makeLoginRepo(), home: mkdtempSync(join(tmpdir(), "ink-acp-rw-home-")), agents: [] });
});
afterAll(async () => {
  for (const a of env.agents ?? []) if (a.proc.exitCode === null) a.proc.kill("SIGKILL");
  await server?.close();
  for (const dir of [env.repo, env.home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const modelCalls = () => server.requests.filter((r) => r.path.startsWith("/v1/messages")).length;

/** Sends `text` as a prompt and returns the agent message it was answered with. */
async function ask(a: AcpAgent, sessionId: string, text: string): Promise<string> {
  const before = chunks(a, sessionId).length;
  const done = await a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  expect(done.stopReason).toBe("end_turn");
  return chunks(a, sessionId).slice(before);
}

it("offers /rewind and /merge; /rewind lists the turns and takes a file back to before one; /merge lists, merges and hands over through its ops", async () => {
  scriptByPrompt(server, { "EDIT-IT": [sseTurn([{ toolUse: { id: "w1", name: "write", input: { path: "README.md", content: "# changed by the agent\n" } } }]), sseTurn([{ text: "edited" }])] });
  const a = startAcpAgent(env);
  await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await a.conn.agent.request("session/new", { cwd: env.repo, mcpServers: [] });
  const cmds = await a.waitUpdate((u) => u.sessionId === sessionId && u.update.sessionUpdate === "available_commands_update", "available commands");
  const offered = cmds.update.sessionUpdate === "available_commands_update" ? cmds.update.availableCommands.map((c) => c.name) : [];
  expect(offered.slice(0, 2)).toEqual(["rewind", "merge"]);

  expect(await ask(a, sessionId, "EDIT-IT please")).toContain("edited");
  expect(readFileSync(join(env.repo, "README.md"), "utf8")).toBe("# changed by the agent\n");
  const calls = modelCalls();

  const listing = await ask(a, sessionId, "/rewind");
  expect(listing).toContain("Turns (rewinding to one takes everything from it on back):");
  expect(listing).toContain(`turn 1 "EDIT-IT please" — main: README.md +1 −1`);
  expect(listing).toContain("README.md");

  expect(await ask(a, sessionId, "/rewind one")).toContain('/rewind: "one" is not a turn number');
  expect(await ask(a, sessionId, "/rewind 1 files")).toContain("rewound to before turn 1: restored 1 file (README.md)");
  expect(readFileSync(join(env.repo, "README.md"), "utf8")).toBe("# shop\n");

  expect(await ask(a, sessionId, "/merge")).toContain("No kept worktree branches in this session");
  expect(await ask(a, sessionId, "/merge all")).toContain("/merge: nothing merged; this session has no kept worktree branch to merge");
  expect(await ask(a, sessionId, "/merge hand")).toContain("/merge hand: no merge stopped at a conflict in this session");
  expect(modelCalls()).toBe(calls);
  a.proc.stdin.end();
  expect(await a.exited).toBe(0);
}, 60_000);

it("/rewind N while a child runs asks the client (session/request_permission) to stop it: reject leaves everything as it was, allow stops it and rewinds", async () => {
  server.reset();
  scriptByPrompt(server, {
    "BG-EDIT": [
      sseTurn([{ toolUse: { id: "w2", name: "write", input: { path: "README.md", content: "# changed before the child\n" } } }, { toolUse: { id: "t2", name: "task", input: { description: "watch the tests", prompt: "KID-STALL forever", background: true } } }]),
      sseTurn([{ text: "started" }]),
    ],
    "KID-STALL": [{ kind: "stall" }],
  });
  const rewindAnswers = ["reject", "allow"];
  const a = startAcpAgent(env, (req) => ({ outcome: { outcome: "selected", optionId: req.toolCall.title?.startsWith("Stop") ? rewindAnswers.shift()! : "allow" } }));
  await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await a.conn.agent.request("session/new", { cwd: env.repo, mcpServers: [] });
  expect(await ask(a, sessionId, "BG-EDIT please")).toContain("started");
  for (let i = 0; i < 400 && !server.requests.some((r) => JSON.stringify(r.body.messages[0]).includes("KID-STALL")); i++) await new Promise((r) => setTimeout(r, 25));
  const kid = server.requests.find((r) => JSON.stringify(r.body.messages[0]).includes("KID-STALL"))!;
  expect(kid).toBeDefined();
  const asked = () => a.permissions.filter((p) => p.toolCall.title?.startsWith("Stop"));

  const kept = await ask(a, sessionId, "/rewind 1");
  expect(asked()).toHaveLength(1);
  expect(asked()[0]!.toolCall.title).toMatch(/^Stop the running child \(general · watch the tests \[[0-9a-z]{4,8}\]\) and rewind to before turn 1\?$/);
  expect(asked()[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "reject_once"]);
  expect(kept).toContain("/rewind: nothing was rewound; the child keeps running");
  expect(readFileSync(join(env.repo, "README.md"), "utf8")).toBe("# changed before the child\n");
  expect(await Promise.race([kid.finished, new Promise((r) => setTimeout(() => r("running"), 300))])).toBe("running");

  const rewound = await ask(a, sessionId, "/rewind 1");
  expect(asked()).toHaveLength(2);
  expect(rewound).toContain("rewound to before turn 1: restored 1 file (README.md)");
  expect(readFileSync(join(env.repo, "README.md"), "utf8")).toBe("# shop\n");
  expect(await kid.finished).toBe("client_closed");
  // Each question's pseudo call is closed after the answer: no, then yes.
  const closed = asked().map((q) => a.updates.find((u) => u.update.sessionUpdate === "tool_call_update" && u.update.toolCallId === q.toolCall.toolCallId)?.update);
  expect(closed.map((u) => (u as { status?: string } | undefined)?.status)).toEqual(["failed", "completed"]);
  a.proc.stdin.end();
  expect(await a.exited).toBe(0);
}, 60_000);

it("/merge sends 'merging N branches…' as an agent message before git works, then what it merged", async () => {
  server.reset();
  scriptByPrompt(server, {
    "WORKTREE-IT": [sseTurn([{ toolUse: { id: "t3", name: "task", input: { description: "write the notes", prompt: "KID-NOTES now", worktree: true } } }]), sseTurn([{ text: "delegated" }])],
    "KID-NOTES": [sseTurn([{ toolUse: { id: "w3", name: "write", input: { path: "NOTES.md", content: "# notes\n" } } }]), sseTurn([{ text: "noted" }])],
  });
  const a = startAcpAgent(env);
  await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await a.conn.agent.request("session/new", { cwd: env.repo, mcpServers: [] });
  expect(await ask(a, sessionId, "WORKTREE-IT please")).toContain("delegated");
  const from = a.updates.length;
  await ask(a, sessionId, "/merge all");
  const said = a.updates.slice(from).filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk").map((u) => updateText(u.update));
  expect(said[0]).toBe("merging 1 branch…\n");
  expect(said.slice(1).join("")).toMatch(/^\/merge: merged/);
  expect(readFileSync(join(env.repo, "NOTES.md"), "utf8")).toBe("# notes\n");
  a.proc.stdin.end();
  expect(await a.exited).toBe(0);
}, 60_000);
