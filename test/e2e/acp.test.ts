/**
 * `ink --acp` end to end: the built CLI as a real child process, driven by the ACP SDK's own client
 * side (`client().connect(ndJsonStream(...))`, the 2.x successor of ClientSideConnection) against
 * the loopback Messages-API server. Children's requests arrive in any order, so the server answers
 * by content (the request's first user message names the agent).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk/unstable";
import { spawn } from "node:child_process";
import { CLI, makeLoginRepo } from "../helpers/cli.js";
import { ensureBuilt } from "../helpers/build.js";
import { chunks, firstUser, gone, pidOf, scriptByPrompt, startAcpAgent, updateText as text, waitFor, type AcpEnv } from "../helpers/acp-client.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic, type FakeResponse } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
let repo = "";
let home = "";
const env = {} as AcpEnv;

beforeAll(async () => {
  ensureBuilt();
  server = await startFakeAnthropic();
  repo = makeLoginRepo();
  home = mkdtempSync(join(tmpdir(), "ink-acp-home-"));
  Object.assign(env, { server, repo, home, agents: [] });
});
afterAll(async () => {
  for (const a of env.agents ?? []) if (a.proc.exitCode === null) a.proc.kill("SIGKILL");
  await server?.close();
  for (const dir of [repo, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts `ink --acp` and connects the SDK client; permission questions are answered by `answer`. */
const startAgent = (answer?: (req: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>) => startAcpAgent(env, answer);
const script = (table: Record<string, FakeResponse[]>) => scriptByPrompt(server, table);

describe("ink --acp driven by the ACP SDK client", () => {
  let savedSession = "";

  it("serves a session: two parallel children as announced child sessions, a permission answered by the client, one child cancelled, the turn cancelled", async () => {
    server.reset();
    script({
      "PROMPT-ONE": [
        sseTurn([{ text: "Delegating." }, { toolUse: { id: "t_alpha", name: "task", input: { prompt: "CHILD-ALPHA: look at the auth code" } } }, { toolUse: { id: "t_beta", name: "task", input: { prompt: "CHILD-BETA: look at billing" } } }]),
        sseTurn([{ text: "SUMMARY-ONE: login is in src/auth/login.ts." }]),
      ],
      "CHILD-ALPHA": [sseTurn([{ thinking: "ALPHA-THINKS" }, { toolUse: { id: "b_alpha", name: "bash", input: { command: "echo ALPHA-RAN" } } }]), sseTurn([{ text: "ALPHA-REPORT: handleLogin in src/auth/login.ts" }], { delayMs: 5 })],
      "CHILD-BETA": [sseTurn([{ text: "BETA-REPORT: invoice total in src/billing/invoice.ts" }], { delayMs: 5 })],
      "PROMPT-TWO": [
        sseTurn([{ toolUse: { id: "t_gamma", name: "task", input: { prompt: "CHILD-GAMMA: wait forever" } } }, { toolUse: { id: "t_delta", name: "task", input: { prompt: "CHILD-DELTA: answer" } } }]),
        sseTurn([{ text: "SUMMARY-TWO: gamma was stopped." }]),
      ],
      "CHILD-GAMMA": [{ kind: "stall" }],
      "CHILD-DELTA": [sseTurn([{ text: "DELTA-REPORT" }])],
      "PROMPT-THREE": [{ kind: "stall" }],
    });
    const a = startAgent();
    const init = await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { subagents: {} } });
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentInfo?.name).toBe("ink");
    const { sessionId } = await a.conn.agent.request("session/new", { cwd: repo, mcpServers: [] });
    savedSession = sessionId;

    // 1. Two children in parallel, each announced on the parent, then streaming under its own session id.
    const one = await a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-ONE: where is the login handled?" }] });
    expect(one.stopReason).toBe("end_turn");
    const announced = a.updates.filter((x) => x.sessionId === sessionId && x.update.sessionUpdate === "subagent_update");
    const children = [...new Set(announced.map((x) => (x.update as { sessionId: string }).sessionId))];
    expect(children).toHaveLength(2);
    const byReport = (marker: string) => children.find((c) => chunks(a, c).includes(marker))!;
    const alpha = byReport("ALPHA-REPORT");
    const beta = byReport("BETA-REPORT");
    expect(alpha).toBeDefined();
    expect(beta).toBeDefined();
    expect(alpha).not.toBe(beta);
    for (const child of children) {
      const firstAnnounce = a.updates.findIndex((x) => x.update.sessionUpdate === "subagent_update" && (x.update as { sessionId: string }).sessionId === child);
      const firstTraffic = a.updates.findIndex((x) => x.sessionId === child);
      expect(firstAnnounce).toBeLessThan(firstTraffic); // announced before any of its own traffic
      const states = announced.filter((x) => (x.update as { sessionId: string }).sessionId === child).map((x) => (x.update as { state?: { state: string; stopReason?: string } }).state);
      expect(states[0]).toMatchObject({ state: "running" });
      expect(states.at(-1)).toMatchObject({ state: "idle", stopReason: "end_turn" });
    }
    expect(chunks(a, alpha, "agent_thought_chunk")).toBe("ALPHA-THINKS");
    // The child's bash call asked the client, on the child's session, with kind and title; it ran once allowed.
    expect(a.permissions).toHaveLength(1);
    expect(a.permissions[0]!.sessionId).toBe(alpha);
    expect(a.permissions[0]!.toolCall).toMatchObject({ toolCallId: "b_alpha", kind: "execute" });
    expect(a.permissions[0]!.toolCall.title).toContain("echo ALPHA-RAN");
    expect(a.permissions[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    const bashDone = a.updates.find((x) => x.sessionId === alpha && x.update.sessionUpdate === "tool_call_update" && x.update.toolCallId === "b_alpha" && x.update.status === "completed");
    expect(JSON.stringify(bashDone?.update.sessionUpdate === "tool_call_update" && bashDone.update.content)).toContain("ALPHA-RAN");
    // On the parent: the task calls (kind think) completed with the reports, then the summary.
    const taskDone = a.updates.filter((x) => x.sessionId === sessionId && x.update.sessionUpdate === "tool_call_update" && x.update.status === "completed").map((x) => JSON.stringify(x.update));
    expect(taskDone.some((t) => t.includes("t_alpha") && t.includes("ALPHA-REPORT"))).toBe(true);
    expect(taskDone.some((t) => t.includes("t_beta") && t.includes("BETA-REPORT"))).toBe(true);
    expect(a.updates.find((x) => x.sessionId === sessionId && x.update.sessionUpdate === "tool_call" && x.update.toolCallId === "t_alpha")?.update).toMatchObject({ kind: "think" });
    expect(chunks(a, sessionId)).toContain("SUMMARY-ONE");

    // 2. Cancel one child session: it stops, the other finishes, the turn goes on.
    const two = a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-TWO: again" }] });
    const gammaAnnounce = await a.waitUpdate((x) => x.update.sessionUpdate === "subagent_update" && !children.includes(x.update.sessionId) && x.update.description?.includes("CHILD-GAMMA") === true, "gamma's announcement");
    const gamma = (gammaAnnounce.update as { sessionId: string }).sessionId;
    await waitFor(() => server.requests.some((r) => firstUser(r.body).includes("CHILD-GAMMA")), "gamma's request");
    await a.conn.agent.notify("session/cancel", { sessionId: gamma });
    expect((await two).stopReason).toBe("end_turn");
    const gammaStates = a.updates.filter((x) => x.update.sessionUpdate === "subagent_update" && x.update.sessionId === gamma).map((x) => (x.update as { state?: { stopReason?: string } }).state);
    expect(gammaStates.at(-1)).toMatchObject({ state: "idle", stopReason: "cancelled" });
    expect(a.updates.some((x) => x.update.sessionUpdate === "subagent_update" && (x.update.state as { stopReason?: string } | undefined)?.stopReason === "end_turn" && x.update.sessionId !== gamma && !children.includes(x.update.sessionId))).toBe(true);
    expect(chunks(a, sessionId)).toContain("SUMMARY-TWO");
    // The turn's plan: both children, completed, the stopped one named so.
    const plan = a.updates.filter((x) => x.sessionId === sessionId && x.update.sessionUpdate === "plan").at(-1)!.update as { entries: Array<{ content: string; status: string }> };
    expect(plan.entries.map((e) => e.status)).toEqual(["completed", "completed"]);
    expect(plan.entries[0]!.content).toMatch(new RegExp(`^general \\[${gamma}\\]: .*\\(stopped\\)$`));
    expect(plan.entries[1]!.content).not.toContain("(");

    // 3. session/cancel on the session stops the whole turn.
    const three = a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-THREE: stall" }] });
    await waitFor(() => server.requests.some((r) => JSON.stringify(r.body.messages.at(-1)).includes("PROMPT-THREE")), "the third request");
    await a.conn.agent.notify("session/cancel", { sessionId });
    expect((await three).stopReason).toBe("cancelled");

    a.proc.stdin.end();
    expect(await a.exited).toBe(0);
    expect(a.stderr()).not.toMatch(/error/i);
  });

  it("the client closes stdin: each session's SessionEnd hook runs (reason other) before the process exits 0", async () => {
    const endHome = mkdtempSync(join(tmpdir(), "ink-acp-end-"));
    try {
      const log = join(endHome, "end.json");
      writeFileSync(join(endHome, "end.sh"), `#!/bin/sh\ncat > '${log}'\n`);
      writeFileSync(join(endHome, "settings.json"), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: `sh '${join(endHome, "end.sh")}'` }] }] } }));
      const a = startAcpAgent({ ...env, home: endHome });
      await a.conn.agent.request("initialize", { protocolVersion: 1 });
      const { sessionId } = await a.conn.agent.request("session/new", { cwd: repo, mcpServers: [] });
      a.proc.stdin.end();
      expect(await a.exited).toBe(0);
      expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other", session_id: sessionId });
    } finally {
      rmSync(endHome, { recursive: true, force: true });
    }
  });

  it("session/new with a relative or missing cwd is refused with a clear error; the agent keeps serving", async () => {
    const a = startAgent();
    await a.conn.agent.request("initialize", { protocolVersion: 1 });
    await expect(a.conn.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] })).rejects.toThrow(/cwd must be an absolute path.*"relative\/dir"/);
    // The SDK's own schema check: a JSON-RPC "Invalid params" whose data names the missing field.
    await expect(a.conn.agent.request("session/new", { mcpServers: [] } as never)).rejects.toMatchObject({ code: -32602, data: { cwd: expect.anything() } });
    expect((await a.conn.agent.request("session/new", { cwd: repo, mcpServers: [] })).sessionId).toMatch(/\S/);
    a.proc.stdin.end();
    expect(await a.exited).toBe(0);
  });

  it("a 40 MB frame is answered with an error naming the limit, logged on stderr, and the exit is not 0", async () => {
    const proc = spawn(process.execPath, [CLI, "--acp"], { cwd: repo, env: { ...process.env, INK_HOME: home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (d) => (out += d));
    proc.stderr.on("data", (d) => (err += d));
    const exited = new Promise<number | null>((done) => proc.on("exit", (code) => done(code)));
    proc.stdin.on("error", () => undefined); // the agent may stop reading before all 40 MB are taken
    const text = "x".repeat(40 * 1024 * 1024);
    proc.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"pad":"${text}"}}\n`);
    expect(await exited).toBe(1);
    const reply = out.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { error?: { code: number; message: string } });
    expect(reply.at(-1)?.error).toMatchObject({ code: -32600, message: expect.stringMatching(/exceeds the configured 33554432 byte limit.*one line within that limit/) });
    expect(err).toMatch(/ink --acp stopped reading its input: .*33554432 byte limit/);
    proc.stdin.destroy();
  });

  it("session/load replays the saved session as updates; an unknown id is a clear error", async () => {
    expect(savedSession).not.toBe("");
    const a = startAgent();
    await a.conn.agent.request("initialize", { protocolVersion: 1 });
    await expect(a.conn.agent.request("session/load", { sessionId: "20990101-000000-abcdef", cwd: repo, mcpServers: [] })).rejects.toThrow(/20990101-000000-abcdef/);
    await a.conn.agent.request("session/load", { sessionId: savedSession, cwd: repo, mcpServers: [] });
    const mine = a.updates.filter((x) => x.sessionId === savedSession);
    const users = mine.filter((x) => x.update.sessionUpdate === "user_message_chunk").map((x) => text(x.update));
    expect(users[0]).toContain("PROMPT-ONE");
    expect(users.some((u) => u.includes("PROMPT-TWO"))).toBe(true);
    expect(chunks(a, savedSession)).toContain("SUMMARY-ONE");
    expect(mine.find((x) => x.update.sessionUpdate === "tool_call" && x.update.toolCallId === "t_alpha")?.update).toMatchObject({ kind: "think", status: "completed" });
    // The loaded session takes new prompts.
    server.reset();
    server.setFallback(sseTurn([{ text: "LOADED-ANSWER" }]));
    expect((await a.conn.agent.request("session/prompt", { sessionId: savedSession, prompt: [{ type: "text", text: "and now?" }] })).stopReason).toBe("end_turn");
    expect(chunks(a, savedSession)).toContain("LOADED-ANSWER");
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("SUMMARY-ONE");
    a.proc.stdin.end();
    expect(await a.exited).toBe(0);
  });

  it("without the subagents capability a child is a tool call whose content streams; closing stdin mid-run leaves no process", async () => {
    server.reset();
    script({
      "PROMPT-FOUR": [sseTurn([{ toolUse: { id: "t_eps", name: "task", input: { prompt: "CHILD-EPSILON: run it" } } }]), sseTurn([{ text: "unused" }])],
      "CHILD-EPSILON": [sseTurn([{ text: "EPSILON-WORKING " }, { toolUse: { id: "b_eps", name: "bash", input: { command: "sleep 97.25" } } }])],
    });
    const a = startAgent();
    await a.conn.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await a.conn.agent.request("session/new", { cwd: repo, mcpServers: [] });
    void a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-FOUR" }] }).catch(() => undefined);
    // The child's progress streams into its task call.
    await a.waitUpdate((x) => x.update.sessionUpdate === "tool_call_update" && x.update.toolCallId === "t_eps" && JSON.stringify(x.update.content).includes("EPSILON-WORKING"), "the child's streamed text");
    expect(a.updates.some((x) => x.update.sessionUpdate === "subagent_update")).toBe(false);
    // Its permission question names the child (no child session to ask on).
    await waitFor(() => a.permissions.length === 1, "the permission request");
    expect(a.permissions[0]!.sessionId).toBe(sessionId);
    expect(a.permissions[0]!.toolCall.title).toMatch(/general \[.+\]: bash: sleep 97\.25/);
    const sleeper = await waitFor(() => pidOf("sleep 97.25"), "the sleep process");
    a.proc.stdin.end();
    expect(await a.exited).toBe(0);
    expect(await gone(sleeper)).toBe(true);
  });
});

describe("ink --acp stopped by a signal", () => {
  it("SIGTERM mid-run exits 143, leaves no tool process, and the session loads again", async () => {
    server.reset();
    script({ "PROMPT-SEVEN": [sseTurn([{ text: "SEVEN-STARTED " }, { toolUse: { id: "b_seven", name: "bash", input: { command: "sleep 96.5" } } }]), sseTurn([{ text: "unused" }])] });
    const a = startAgent();
    await a.conn.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await a.conn.agent.request("session/new", { cwd: repo, mcpServers: [] });
    void a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-SEVEN" }] }).catch(() => undefined);
    const sleeper = await waitFor(() => pidOf("sleep 96.5"), "the sleep process");
    a.proc.kill("SIGTERM");
    expect(await a.exited).toBe(143);
    expect(await gone(sleeper)).toBe(true);
    const b = startAgent();
    await b.conn.agent.request("initialize", { protocolVersion: 1 });
    await b.conn.agent.request("session/load", { sessionId, cwd: repo, mcpServers: [] });
    expect(chunks(b, sessionId)).toContain("SEVEN-STARTED");
    b.proc.stdin.end();
    expect(await b.exited).toBe(0);
  });
});

describe("ink --acp: tools as the editor sees them", () => {
  it("session/cancel while a permission question is open ends the turn; the call never runs", async () => {
    server.reset();
    script({ "PROMPT-SIX": [sseTurn([{ toolUse: { id: "b_six", name: "bash", input: { command: "touch SIX-RAN" } } }]), sseTurn([{ text: "unused" }])] });
    let asked!: () => void;
    const question = new Promise<void>((r) => (asked = r));
    // The client leaves the question open (as a person who has not answered yet).
    const a = startAgent(() => {
      asked();
      return new Promise<RequestPermissionResponse>(() => undefined);
    });
    await a.conn.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await a.conn.agent.request("session/new", { cwd: repo, mcpServers: [] });
    const six = a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-SIX" }] });
    await question;
    await a.conn.agent.notify("session/cancel", { sessionId });
    expect((await six).stopReason).toBe("cancelled");
    expect(existsSync(join(repo, "SIX-RAN"))).toBe(false);
    expect(a.updates.find((x) => x.update.sessionUpdate === "tool_call_update" && x.update.toolCallId === "b_six")?.update).toMatchObject({ status: "failed" });
    a.proc.stdin.end();
    expect(await a.exited).toBe(0);
  });

  it("the editor's MCP server is started and its tool runs; an edit carries its diff; a rejected write is refused", async () => {
    server.reset();
    const pidFile = join(home, "mcp.pid");
    script({
      "PROMPT-FIVE": [
        sseTurn([
          { toolUse: { id: "e1", name: "edit", input: { path: "src/billing/invoice.ts", oldText: "a + b", newText: "a + b + 0" } } },
          { toolUse: { id: "m1", name: "mcp__docs__echo", input: { text: "FROM-THE-EDITOR-SERVER" } } },
        ]),
        sseTurn([{ toolUse: { id: "w1", name: "write", input: { path: "NEW-FILE.md", content: "never written\n" } } }]),
        sseTurn([{ text: "FIVE-DONE" }]),
      ],
    });
    const a = startAgent((req) => ({ outcome: { outcome: "selected", optionId: req.toolCall.kind === "edit" && req.toolCall.title?.startsWith("write") ? "reject" : "allow" } }));
    await a.conn.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await a.conn.agent.request("session/new", {
      cwd: repo,
      mcpServers: [{ name: "docs", command: process.execPath, args: [writeFakeMcpServer()], env: [{ name: "MODE", value: "linger" }, { name: "PIDFILE", value: pidFile }] }],
    });
    expect((await a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-FIVE" }] })).stopReason).toBe("end_turn");
    const mine = a.updates.filter((x) => x.sessionId === sessionId).map((x) => x.update);
    // The edit: kind edit, its diff when announced, asked about with the diff, applied, and still shown when done.
    const invoice = join(repo, "src/billing/invoice.ts");
    const diff = { type: "diff", path: invoice, oldText: "a + b", newText: "a + b + 0" };
    expect(mine.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "e1")).toMatchObject({ kind: "edit", status: "in_progress", content: [diff], locations: [{ path: invoice }] });
    expect(a.permissions.find((p) => p.toolCall.toolCallId === "e1")?.toolCall.content).toEqual([diff]);
    expect(mine.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "e1" && u.status === "completed")).toMatchObject({ content: [diff, { type: "content" }] });
    expect(readFileSync(invoice, "utf8")).toContain("a + b + 0");
    // The editor's MCP server ran the call (named like a settings server's tool).
    expect(server.requests[0]!.body.tools.some((t: { name: string }) => t.name === "mcp__docs__echo")).toBe(true);
    expect(JSON.stringify(mine.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "m1" && u.status === "completed"))).toContain("echo: FROM-THE-EDITOR-SERVER");
    // The write was rejected by the client: failed, nothing written; its question showed a new file (no old text).
    expect(a.permissions.find((p) => p.toolCall.toolCallId === "w1")?.toolCall.content).toEqual([{ type: "diff", path: join(repo, "NEW-FILE.md"), oldText: null, newText: "never written\n" }]);
    expect(mine.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "w1")).toMatchObject({ status: "failed" });
    expect(existsSync(join(repo, "NEW-FILE.md"))).toBe(false);
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("the user rejected write");
    const mcpPid = Number(readFileSync(pidFile, "utf8"));
    a.proc.stdin.end();
    expect(await a.exited).toBe(0);
    expect(await gone(mcpPid)).toBe(true);
  });
});
