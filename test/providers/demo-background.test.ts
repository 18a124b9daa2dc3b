import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import { formatBackgroundReports } from "../../src/protocol/background-report.js";
import type { AgentMessage } from "../../src/protocol/messages.js";
import type { ModelRequest, ToolSpec } from "../../src/protocol/provider.js";
import { steerContent } from "../../src/protocol/steer-message.js";
import { createDemoProvider, planDemoReply } from "../../src/providers/demo.js";
import { writeTree } from "../tools/context.js";

const tool = (name: string): ToolSpec => ({ name, description: name, inputSchema: { type: "object", properties: {} } });
const MAIN_TOOLS = [tool("task"), tool("task_wait"), tool("read")];

function request(messages: AgentMessage[], system = "You are Ink."): ModelRequest {
  return { system, messages, tools: MAIN_TOOLS, model: "demo" } as ModelRequest;
}

describe("the demo model delegates in the background when asked", () => {
  it("'in the background' starts every child with background: true and a description; the phrase is no search term", () => {
    const reply = planDemoReply(request([{ role: "user", content: "in the background, find where sessions are locked", timestamp: 0 } as AgentMessage]));
    expect(reply.calls.length).toBeGreaterThanOrEqual(2);
    for (const call of reply.calls) {
      expect(call.arguments.background).toBe(true);
      expect(String(call.arguments.description)).toMatch(/of sessions$/);
      expect(String(call.arguments.prompt)).not.toMatch(/background/);
    }
    expect(reply.text).toMatch(/in the background; their reports will come here/);
    // Without the phrase the children run in the foreground, as before.
    const fg = planDemoReply(request([{ role: "user", content: "find where sessions are locked", timestamp: 0 } as AgentMessage]));
    expect(fg.calls.every((c) => c.arguments.background === undefined)).toBe(true);
  });

  it("after the calls return 'running in the background' its turn ends, saying the reports will come", () => {
    const messages = [
      { role: "user", content: "in the background, find where sessions are locked", timestamp: 0 },
      { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "task", arguments: { prompt: "Find where `sessions` are implemented", background: true } }], timestamp: 0 },
      { role: "toolResult", results: [{ toolCallId: "c1", content: "[task] child 20261204-1-abc is running in the background; its report will be delivered when it ends.", isError: false }], timestamp: 0 },
    ] as unknown as AgentMessage[];
    const reply = planDemoReply(request(messages));
    expect(reply.calls).toEqual([]);
    expect(reply.text).toContain("`20261204-1-abc`");
    expect(reply.text).toMatch(/reports will come here by themselves/);
  });

  it("answers a delivered report with its task, status, key line and files", () => {
    const note = formatBackgroundReports([
      { childId: "kid-1", prompt: "Find where `lock` is implemented: entry points", status: "ok", isError: false, output: "Conclusion: the lock lives in `src/session/lock.ts` (acquireLock, line 3).\n[task] ok · 2 turns" },
    ]);
    const reply = planDemoReply(request([{ role: "user", content: "go", timestamp: 0 }, { role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: 0 }, { role: "user", content: note, timestamp: 0 }] as unknown as AgentMessage[]));
    expect(reply.calls).toEqual([]);
    expect(reply.text).toContain("**Implementation** (`kid-1`) — done");
    expect(reply.text).toContain("The lock lives in `src/session/lock.ts`");
    expect(reply.text).toContain("Files: `src/session/lock.ts`");
  });

  it("reports delivered while a foreground investigation ran are answered after that investigation's own summary, which is not lost", () => {
    const note = formatBackgroundReports([{ childId: "kid-9", prompt: "Find the tests (and fixtures) that cover `login`", status: "ok", isError: false, output: "The tests for login are in `test/login.test.ts` (line 1)." }]);
    const messages = [
      { role: "user", content: "where are sessions saved?", timestamp: 0 },
      { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "task", arguments: { prompt: "Find where `sessions` and `saved` are implemented" } }], timestamp: 0 },
      { role: "toolResult", results: [{ toolCallId: "c1", content: "Conclusion: sessions are saved in `src/session/store.ts` (line 4).\n[task] ok · 2 turns", isError: false }], timestamp: 0 },
      { role: "user", content: note, timestamp: 0 },
    ] as unknown as AgentMessage[];
    const reply = planDemoReply(request(messages));
    expect(reply.calls).toEqual([]);
    expect(reply.text).toMatch(/Here is what the subagents found for `sessions`/);
    expect(reply.text).toContain("src/session/store.ts");
    expect(reply.text.indexOf("A background subagent has reported:")).toBeGreaterThan(reply.text.indexOf("src/session/store.ts"));
    expect(reply.text).toContain("**Tests** (`kid-9`) — done");
  });

  it("a child sent a message while working takes it into account and goes on with its task: both topics are searched", () => {
    const system = "# Subagent mode\nYou are a subagent.";
    const messages = [
      { role: "user", content: "Find where `sessions` are implemented", timestamp: 0 },
      { role: "assistant", content: [{ type: "text", text: "Plan: search." }], timestamp: 0 },
      { role: "user", content: steerContent("also look at the lock files", "user"), timestamp: 0 },
    ] as unknown as AgentMessage[];
    const reply = planDemoReply({ system, messages, tools: [tool("grep"), tool("find"), tool("read")], model: "demo" } as ModelRequest);
    const patterns = reply.calls.map((c) => String(c.arguments.pattern ?? ""));
    expect(patterns.some((p) => /lock/.test(p))).toBe(true);
    expect(patterns.some((p) => /session/.test(p))).toBe(true);
  });
});

describe("the demo's background delegation end to end (real session, real tools, print mode)", () => {
  let cwd = "";
  let inkHome = "";
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), "ink-demo-bg-"));
    inkHome = mkdtempSync(join(tmpdir(), "ink-demo-bg-home-"));
    writeTree(cwd, {
      "src/session/lock.ts": "export function acquireLock(path: string) {\n  return { path };\n}\n",
      "test/session/lock.test.ts": "import { acquireLock } from '../../src/session/lock.js';\n\ntest('lock', () => acquireLock('x'));\n",
    });
  });
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(inkHome, { recursive: true, force: true });
  });

  it("the main turn ends at once, each child's report is delivered by itself and summarised", async () => {
    const session = new AgentSession({ cwd, inkHome, provider: createDemoProvider({ delayMs: 0 }), model: "demo", interactive: false, approval: {} });
    const stdout: string[] = [];
    const stderr: string[] = [];
    await runPrintMode(session, "in the background, find where the lock is acquired", { json: false, signal: new AbortController().signal, io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) } }).finally(() => session.close());
    const log = stderr.join("");
    expect(log.match(/works in the background/g)?.length).toBeGreaterThanOrEqual(2);
    expect(log).toMatch(/↩ reports? of /);
    const reportsSeen = session.history.filter((m) => m.role === "user" && typeof m.content === "string" && m.content.includes("<background-report")).length;
    expect(reportsSeen).toBeGreaterThanOrEqual(1);
    expect(stdout.join("")).toMatch(/background subagents? (has|have) reported/);
    expect(stdout.join("")).toContain("src/session/lock.ts");
  });
});
