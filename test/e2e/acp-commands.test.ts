/**
 * `ink --acp`: a prompt naming a command file runs that file as the TUI does (issue #38 item 3) —
 * its `` !`cmd` `` context asked of the client like any bash call, its output in the prompt the model gets.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeLoginRepo } from "../helpers/cli.js";
import { ensureBuilt } from "../helpers/build.js";
import { firstUser, scriptByPrompt, startAcpAgent, type AcpEnv } from "../helpers/acp-client.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
const env = {} as AcpEnv;

beforeAll(async () => {
  ensureBuilt();
  server = await startFakeAnthropic();
  const home = mkdtempSync(join(tmpdir(), "ink-acp-cmd-home-"));
  mkdirSync(join(home, "commands", "tools"), { recursive: true });
  writeFileSync(join(home, "commands", "tools", "where.md"), "---\ndescription: Where things are\n---\nWHERE-CMD for $ARGUMENTS. Files: !`ls src`\n");
  Object.assign(env, { server, repo: makeLoginRepo(), home, agents: [] });
});
afterAll(async () => {
  for (const a of env.agents ?? []) if (a.proc.exitCode === null) a.proc.kill("SIGKILL");
  await server?.close();
  for (const dir of [env.repo, env.home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

it("session/prompt \"/where login\" runs the command file: its !`ls src` asked of the client, its output in the model's prompt", async () => {
  scriptByPrompt(server, { "WHERE-CMD": [sseTurn([{ text: "WHERE-ANSWER" }])] });
  const a = startAcpAgent(env);
  await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await a.conn.agent.request("session/new", { cwd: env.repo, mcpServers: [] });
  const done = await a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/where login" }] });
  expect(done.stopReason).toBe("end_turn");
  const sent = server.requests.filter((r) => r.path.startsWith("/v1/messages")).map((r) => firstUser(r.body as never));
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatch(/WHERE-CMD for login\. Files: auth\\nbilling/);
  expect(a.permissions.map((p) => p.toolCall.title)).toEqual([expect.stringContaining("ls src")]);
  a.proc.stdin.end();
});
