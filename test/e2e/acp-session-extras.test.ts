/**
 * `ink --acp` (issue #38 item 8): the editor is told the `/commands` it may offer (command files and
 * skills) after session/new and session/load; Ink's permission modes are ACP session modes
 * (session/set_mode); a session created but never prompted can be loaded.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeLoginRepo } from "../helpers/cli.js";
import { ensureBuilt } from "../helpers/build.js";
import { scriptByPrompt, startAcpAgent, type AcpEnv } from "../helpers/acp-client.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
const env = {} as AcpEnv;

beforeAll(async () => {
  ensureBuilt();
  server = await startFakeAnthropic();
  const home = mkdtempSync(join(tmpdir(), "ink-acp-extras-home-"));
  mkdirSync(join(home, "commands"), { recursive: true });
  writeFileSync(join(home, "commands", "review.md"), "---\ndescription: Reviews a file\nargument-hint: <file>\n---\nReview $ARGUMENTS\n");
  mkdirSync(join(home, "skills", "pdf-forms"), { recursive: true });
  writeFileSync(join(home, "skills", "pdf-forms", "SKILL.md"), "---\nname: pdf-forms\ndescription: Fills in PDF forms.\n---\n\nPDF-BODY\n");
  Object.assign(env, { server, repo: makeLoginRepo(), home, agents: [] });
});
afterAll(async () => {
  for (const a of env.agents ?? []) if (a.proc.exitCode === null) a.proc.kill("SIGKILL");
  await server?.close();
  for (const dir of [env.repo, env.home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

it("session/new offers the modes and sends available_commands_update (command files and skills); set_mode yolo stops the questions", async () => {
  const a = startAcpAgent(env);
  await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const created = await a.conn.agent.request("session/new", { cwd: env.repo, mcpServers: [] });
  expect(created.modes?.currentModeId).toBe("default");
  expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["default", "accept-edits", "plan", "yolo"]);
  const cmds = await a.waitUpdate((u) => u.sessionId === created.sessionId && u.update.sessionUpdate === "available_commands_update", "available commands");
  const offered = cmds.update.sessionUpdate === "available_commands_update" ? cmds.update.availableCommands : [];
  expect(offered).toEqual(expect.arrayContaining([{ name: "review", description: "Reviews a file", input: { hint: "<file>" } }, { name: "pdf-forms", description: "Fills in PDF forms." }]));

  await expect(a.conn.agent.request("session/set_mode", { sessionId: created.sessionId, modeId: "reckless" })).rejects.toThrow(/reckless/);
  await a.conn.agent.request("session/set_mode", { sessionId: created.sessionId, modeId: "yolo" });
  await a.waitUpdate((u) => u.update.sessionUpdate === "current_mode_update" && u.update.currentModeId === "yolo", "mode update");
  scriptByPrompt(server, { "RUN-IT": [sseTurn([{ toolUse: { id: "b1", name: "bash", input: { command: "echo YOLO-RAN" } } }]), sseTurn([{ text: "ran" }])] });
  expect((await a.conn.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "RUN-IT" }] })).stopReason).toBe("end_turn");
  expect(a.permissions).toHaveLength(0);
  expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("YOLO-RAN");
  a.proc.stdin.end();
  expect(await a.exited).toBe(0);
});

it("a session created but never prompted loads in a new process, with its modes and commands", async () => {
  const a = startAcpAgent(env);
  await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await a.conn.agent.request("session/new", { cwd: env.repo, mcpServers: [] });
  a.proc.stdin.end();
  expect(await a.exited).toBe(0);
  const b = startAcpAgent(env);
  await b.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const loaded = await b.conn.agent.request("session/load", { sessionId, cwd: env.repo, mcpServers: [] });
  expect(loaded.modes?.currentModeId).toBe("default");
  expect(b.updates.some((u) => u.sessionId === sessionId && u.update.sessionUpdate === "available_commands_update")).toBe(true);
  b.proc.stdin.end();
  expect(await b.exited).toBe(0);
});
