/**
 * `ink --acp`: the main agent's children as a `plan`, and a child session loaded by its id (as
 * announced in `subagent_update`) — its history replayed, a prompt on it resuming that child (its
 * permission questions asked on its own id, its report reaching the main agent), and a cancel on it.
 * The built CLI as a real child process, driven by the ACP SDK's client against the loopback server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanEntry } from "@agentclientprotocol/sdk/unstable";
import { makeLoginRepo } from "../helpers/cli.js";
import { ensureBuilt } from "../helpers/build.js";
import { chunks, scriptByPrompt, startAcpAgent, updateText, waitFor, type AcpEnv } from "../helpers/acp-client.js";
import { sseTurn, startFakeAnthropic } from "../helpers/fake-anthropic-server.js";

const env = { agents: [] } as unknown as AcpEnv;

beforeAll(async () => {
  ensureBuilt();
  env.server = await startFakeAnthropic();
  env.repo = makeLoginRepo();
  env.home = mkdtempSync(join(tmpdir(), "ink-acp-child-home-"));
});
afterAll(async () => {
  for (const a of env.agents) if (a.proc.exitCode === null) a.proc.kill("SIGKILL");
  await env.server?.close();
  for (const dir of [env.repo, env.home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("ink --acp: plans and loaded child sessions", () => {
  it("sends the turn's children as a plan; a loaded child session replays, resumes on a prompt, and cancels", async () => {
    const { server, repo } = env;
    server.reset();
    scriptByPrompt(server, {
      "PARENT-AFTER": [sseTurn([{ text: "PARENT-SAW-IT" }])],
      "PROMPT-K": [
        sseTurn([{ toolUse: { id: "t_kappa", name: "task", input: { description: "check the auth", prompt: "CHILD-KAPPA: look at the auth code" } } }]),
        sseTurn([{ text: "MAIN-DONE" }]),
      ],
      "CHILD-KAPPA": [sseTurn([{ toolUse: { id: "b_kappa", name: "bash", input: { command: "echo KAPPA-RAN" } } }]), sseTurn([{ text: "KAPPA-REPORT: handleLogin" }])],
      "KAPPA-MORE": [sseTurn([{ toolUse: { id: "b_more", name: "bash", input: { command: "echo KAPPA-AGAIN" } } }]), sseTurn([{ text: "KAPPA-SECOND: verifyPassword too" }])],
      "KAPPA-STALL": [{ kind: "stall" }],
    });

    // 1. A client with subagent sessions: the child is announced, and the turn's plan follows it.
    const a = startAcpAgent(env);
    await a.conn.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { subagents: {} } });
    const { sessionId } = await a.conn.agent.request("session/new", { cwd: repo, mcpServers: [] });
    expect((await a.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PROMPT-K: where is login?" }] })).stopReason).toBe("end_turn");
    const announce = a.updates.find((x) => x.sessionId === sessionId && x.update.sessionUpdate === "subagent_update");
    const child = (announce!.update as { sessionId: string }).sessionId;
    expect(chunks(a, child)).toContain("KAPPA-REPORT");
    const plans = a.updates.filter((x) => x.sessionId === sessionId && x.update.sessionUpdate === "plan").map((x) => (x.update as { entries: PlanEntry[] }).entries);
    expect(plans.map((p) => p.map((e) => e.status))).toEqual([["pending"], ["in_progress"], ["completed"]]);
    expect(plans[0]![0]!.content).toBe("check the auth");
    expect(plans.at(-1)![0]).toEqual({ content: `general [${child}]: check the auth`, priority: "medium", status: "completed" });
    a.proc.stdin.end();
    expect(await a.exited).toBe(0);

    // 2. Another client (no subagent capability) loads the child by its id: its own history is replayed under that id.
    const b = startAcpAgent(env);
    await b.conn.agent.request("initialize", { protocolVersion: 1 });
    await b.conn.agent.request("session/load", { sessionId: child, cwd: repo, mcpServers: [] });
    const replayed = b.updates.filter((x) => x.sessionId === child);
    expect(replayed.filter((x) => x.update.sessionUpdate === "user_message_chunk").map((x) => updateText(x.update))[0]).toContain("CHILD-KAPPA");
    expect(replayed.find((x) => x.update.sessionUpdate === "tool_call" && x.update.toolCallId === "b_kappa")?.update).toMatchObject({ kind: "execute", status: "completed" });
    expect(chunks(b, child)).toContain("KAPPA-REPORT");
    expect(b.updates.every((x) => x.sessionId === child)).toBe(true); // the parent's conversation is not replayed

    // 3. A prompt on the child resumes it: the model sees its earlier history, its question is asked on the child's id.
    const before = server.requests.length;
    expect((await b.conn.agent.request("session/prompt", { sessionId: child, prompt: [{ type: "text", text: "KAPPA-MORE: check the password too" }] })).stopReason).toBe("end_turn");
    const resumed = server.requests.slice(before).find((r) => JSON.stringify(r.body.messages).includes("KAPPA-MORE"));
    expect(JSON.stringify(resumed!.body.messages)).toContain("KAPPA-REPORT");
    expect(b.permissions).toHaveLength(1);
    expect(b.permissions[0]!).toMatchObject({ sessionId: child, toolCall: { toolCallId: "b_more" } });
    expect(b.permissions[0]!.toolCall.title).toMatch(/^bash: echo KAPPA-AGAIN/); // asked on the child's own session: no "general [id]:" label
    expect(chunks(b, child)).toContain("KAPPA-SECOND");
    expect(b.updates.find((x) => x.sessionId === child && x.update.sessionUpdate === "tool_call_update" && x.update.toolCallId === "b_more" && x.update.status === "completed")).toBeDefined();

    // 4. The resumed child's report reaches the main agent before the parent's next prompt.
    await b.conn.agent.request("session/load", { sessionId, cwd: repo, mcpServers: [] });
    expect((await b.conn.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "PARENT-AFTER: anything new?" }] })).stopReason).toBe("end_turn");
    expect(chunks(b, sessionId)).toContain("PARENT-SAW-IT");
    const parentRequest = server.requests.find((r) => JSON.stringify(r.body.messages).includes("PARENT-AFTER"));
    expect(JSON.stringify(parentRequest!.body.messages)).toContain("KAPPA-SECOND");

    // 5. session/cancel on the loaded child stops its prompt.
    const stalled = b.conn.agent.request("session/prompt", { sessionId: child, prompt: [{ type: "text", text: "KAPPA-STALL: once more" }] });
    await waitFor(() => server.requests.some((r) => JSON.stringify(r.body.messages.at(-1)).includes("KAPPA-STALL")), "the stalled request");
    await expect(b.conn.agent.request("session/prompt", { sessionId: child, prompt: [{ type: "text", text: "again" }] })).rejects.toThrow(/already running a prompt/);
    await b.conn.agent.notify("session/cancel", { sessionId: child });
    expect((await stalled).stopReason).toBe("cancelled");
    b.proc.stdin.end();
    expect(await b.exited).toBe(0);
  });
});
