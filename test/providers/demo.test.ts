import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage, ToolCall, ToolResult } from "../../src/protocol/messages.js";
import { toolCallsOf } from "../../src/protocol/messages.js";
import { DEMO_DISCLOSURE, createDemoProvider, extractKeywords, resolveDemoDelay } from "../../src/providers/demo.js";
import { ProviderError } from "../../src/protocol/provider-error.js";
import type { ModelRequest, ProviderEvent, ToolSpec } from "../../src/protocol/provider.js";

const spec = (name: string, description = `${name} tool`): ToolSpec => ({ name, description, inputSchema: { type: "object" } });
const INVESTIGATOR_TOOLS = ["read", "grep", "find", "ls"].map((n) => spec(n));
const TASK_WITH_SCOUT = spec("task", "Delegate a sub-task to a subagent.\nAvailable agents:\n- scout: Read-only investigator (read, grep, find, ls)");
const TASK_PLAIN = spec("task", "Delegate a sub-task to a general-purpose subagent.");
const MAIN_SYSTEM = "You are Ink, a coding agent.";
const CHILD_SYSTEM = `${MAIN_SYSTEM}\n\n# Subagent mode\n\nYou are a one-shot subagent.`;

function request(messages: AgentMessage[], tools: ToolSpec[] = INVESTIGATOR_TOOLS, system = MAIN_SYSTEM, signal?: AbortSignal): ModelRequest {
  return { system, messages, tools, model: "demo", maxTokens: 4096, signal };
}

async function run(req: ModelRequest, delayMs = 0): Promise<{ events: ProviderEvent[]; message: AssistantMessage }> {
  const stream = createDemoProvider({ delayMs }).stream(req);
  const events: ProviderEvent[] = [];
  for await (const e of stream) events.push(e);
  return { events, message: await stream.result() };
}

const textOf = (m: AssistantMessage): string => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
const results = (calls: ToolCall[], contents: Array<string | { content: string; isError: boolean }>): AgentMessage => ({
  role: "toolResult",
  results: calls.map((c, i): ToolResult => {
    const r = contents[i]!;
    return typeof r === "string" ? { toolCallId: c.id, toolName: c.name, content: r, isError: false } : { toolCallId: c.id, toolName: c.name, ...r };
  }),
});

const LOGIN_PROMPT: AgentMessage = { role: "user", content: "where is the login handled?" };
const GREP_OUT = [
  "test/auth/login.test.ts:5:import { handleLogin } from '../../src/auth/login.js';",
  "src/auth/login.ts:3:export function handleLogin(req: Request): Response {",
  "src/auth/login.ts:14:  return redirectAfterLogin(user);",
  "package-lock.json:120:    \"login-helper\": \"1.0.0\",",
  "docs/usage.md:9:Users login with their email.",
].join("\n");
const FIND_OUT = "src/auth/login.ts\ntest/auth/login.test.ts";
const READ_OUT = [
  "     1\timport { verify } from './verify.js';",
  "     2\t",
  "     3\texport function handleLogin(req: Request): Response {",
  "     4\t  const user = verify(req);",
  "     5\t  return redirectAfterLogin(user);",
  "     6\t}",
  "     7\t",
  "     8\tclass LoginError extends Error {}",
].join("\n");

/** Plays the investigator through its three turns, feeding the given tool outputs. */
async function investigate(system = MAIN_SYSTEM) {
  const history: AgentMessage[] = [LOGIN_PROMPT];
  const t1 = await run(request(history, INVESTIGATOR_TOOLS, system));
  history.push(t1.message);
  const c1 = toolCallsOf(t1.message);
  history.push(results(c1, c1.map((c) => (c.name === "grep" ? GREP_OUT : FIND_OUT))));
  const t2 = await run(request(history, INVESTIGATOR_TOOLS, system));
  history.push(t2.message);
  const c2 = toolCallsOf(t2.message);
  history.push(results(c2, c2.map(() => READ_OUT)));
  const t3 = await run(request(history, INVESTIGATOR_TOOLS, system));
  return { t1, t2, t3, c1, c2 };
}

describe("extractKeywords", () => {
  it("drops stop words and filler, keeps the topic", () => {
    expect(extractKeywords("where is the login handled?")).toEqual(["login"]);
    expect(extractKeywords("How does the session store work? Please find the code")).toEqual(["session", "store"]);
  });
  it("keeps identifiers as written, ahead of plain words", () => {
    expect(extractKeywords("where is runAgentLoop called for retries")).toEqual(["runAgentLoop", "retries"]);
    expect(extractKeywords("what reads max_tokens")).toEqual(["max_tokens", "reads"]);
  });
  it("prefers quoted terms and returns nothing for a greeting", () => {
    expect(extractKeywords("Find the tests (and fixtures) that cover `login`: test file paths")).toEqual(["login"]);
    expect(extractKeywords("hello!")).toEqual([]);
    expect(extractKeywords("")).toEqual([]);
  });
  it("keeps intent words only when nothing more topical is left", () => {
    expect(extractKeywords("where are the tests for billing?")).toEqual(["billing"]);
    expect(extractKeywords("where is the config loaded?")).toEqual(["config"]);
  });
});

describe("demo provider: investigator mode", () => {
  it("turn 1 emits grep and find calls for the keyword in one message", async () => {
    const { message, events } = await run(request([LOGIN_PROMPT]));
    const calls = toolCallsOf(message);
    expect(calls.find((c) => c.name === "grep")?.arguments).toEqual({ pattern: "login", ignoreCase: true });
    expect(calls.find((c) => c.name === "find")?.arguments).toEqual({ pattern: "**/*{login,Login}*" });
    expect(message.stopReason).toBe("tool_use");
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
    for (const c of calls) {
      expect(events).toContainEqual({ type: "toolcall_start", id: c.id, name: c.name });
      expect(events).toContainEqual({ type: "toolcall_end", call: c });
      const json = events.filter((e) => e.type === "toolcall_delta" && e.id === c.id).map((e) => (e.type === "toolcall_delta" ? e.partialJson : "")).join("");
      expect(JSON.parse(json)).toEqual(c.arguments);
    }
    const usage = events.find((e) => e.type === "usage");
    expect(usage?.type === "usage" && usage.usage.input > 0 && usage.usage.output > 0).toBe(true);
  });

  it("turn 2 reads the best file near its first match; turn 3 names the file and the function", async () => {
    const { c2, t3 } = await investigate();
    expect(c2.length).toBeGreaterThanOrEqual(1);
    expect(c2.every((c) => c.name === "read")).toBe(true);
    expect(c2[0]!.arguments).toMatchObject({ path: "src/auth/login.ts", limit: 80 });
    expect(c2.map((c) => c.arguments.path)).not.toContain("package-lock.json");
    const answer = textOf(t3.message);
    expect(t3.message.stopReason).toBe("end_turn");
    expect(toolCallsOf(t3.message)).toEqual([]);
    expect(answer).toContain("`src/auth/login.ts`");
    expect(answer).toContain("handleLogin");
    expect(answer).toMatch(/lines 3, 14/);
    expect(answer.trim().split("\n").pop()).toMatch(/`src\/auth\/login\.ts` \(`handleLogin`, line 3\)\.$/);
  });

  it("prefers test files when the prompt asks for tests", async () => {
    const history: AgentMessage[] = [{ role: "user", content: "Find the tests (and fixtures) that cover `login`" }];
    const t1 = await run(request(history, INVESTIGATOR_TOOLS, CHILD_SYSTEM));
    const c1 = toolCallsOf(t1.message);
    history.push(t1.message, results(c1, c1.map((c) => (c.name === "grep" ? GREP_OUT : FIND_OUT))));
    const t2 = await run(request(history, INVESTIGATOR_TOOLS, CHILD_SYSTEM));
    expect(toolCallsOf(t2.message)[0]?.arguments.path).toBe("test/auth/login.test.ts");
  });

  it("says clearly when nothing matches, and suggests what to try", async () => {
    const history: AgentMessage[] = [{ role: "user", content: "where is the frobnicator?" }];
    const t1 = await run(request(history));
    const c1 = toolCallsOf(t1.message);
    history.push(t1.message, results(c1, c1.map(() => "")));
    const t2 = await run(request(history));
    expect(toolCallsOf(t2.message)).toEqual([]);
    expect(textOf(t2.message)).toMatch(/found nothing matching `frobnicator`/);
    expect(textOf(t2.message)).toMatch(/try/i);
  });

  it("answers a greeting without tool calls", async () => {
    const { message } = await run(request([{ role: "user", content: "hello" }]));
    expect(toolCallsOf(message)).toEqual([]);
    expect(message.stopReason).toBe("end_turn");
    expect(textOf(message)).toMatch(/where is the login handled/);
  });

  it("answers gracefully after results of tools it did not ask for", async () => {
    const call: ToolCall = { type: "toolCall", id: "x-1", name: "bash", arguments: { command: "ls" } };
    const history: AgentMessage[] = [
      LOGIN_PROMPT,
      { role: "assistant", content: [call], stopReason: "tool_use", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
      results([call], ["src\nREADME.md"]),
    ];
    const { message } = await run(request(history));
    expect(toolCallsOf(message)).toEqual([]);
    expect(textOf(message)).toMatch(/did not plan to use \(bash\)/);
  });
});

describe("demo provider: delegating mode", () => {
  const delegateTurn1 = (task: ToolSpec, content = "where is the login handled and configured?") => run(request([{ role: "user", content }], [...INVESTIGATOR_TOOLS, task]));

  it("turn 1 starts 2–3 parallel task calls with agent scout when scout is listed", async () => {
    const { message } = await delegateTurn1(TASK_WITH_SCOUT);
    const calls = toolCallsOf(message);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBeLessThanOrEqual(3);
    expect(calls.every((c) => c.name === "task" && c.arguments.agent === "scout")).toBe(true);
    expect(calls.every((c) => Object.keys(c.arguments).sort().join() === "agent,description,prompt")).toBe(true);
    expect(new Set(calls.map((c) => c.arguments.prompt)).size).toBe(calls.length);
    expect(String(calls[0]!.arguments.prompt)).toContain("login");
  });

  it("detects scout from the system prompt too, and omits agent when there is no scout", async () => {
    const fromSystem = await run(request([LOGIN_PROMPT], [TASK_PLAIN], `${MAIN_SYSTEM}\n\nAgents:\n- scout: read-only investigator`));
    expect(toolCallsOf(fromSystem.message).every((c) => c.arguments.agent === "scout")).toBe(true);
    const { message } = await delegateTurn1(TASK_PLAIN, "where is the login handled?");
    const calls = toolCallsOf(message);
    expect(calls).toHaveLength(2);
    expect(calls.every((c) => Object.keys(c.arguments).sort().join() === "description,prompt")).toBe(true);
    expect(calls.map((c) => c.arguments.description)).toEqual(["implementation of login", "tests of login"]);
  });

  it("turn 2 summarises the reports, quotes their paths and names the failed child", async () => {
    const history: AgentMessage[] = [LOGIN_PROMPT];
    const t1 = await run(request(history, [TASK_WITH_SCOUT]));
    const calls = toolCallsOf(t1.message);
    const footer = (status: string) =>
      `[task] ${status} · 3 turns · 1.2s · tokens 120 in / 40 out\n[task] child session abc123 (history: /home/u/.ink/sessions/abc123.jsonl); it has ended — continue it with task({resume: "abc123", prompt: "..."}) now or in a later session (after --continue or --resume too), as long as its system prompt, tools, model and working directory are unchanged`;
    history.push(
      t1.message,
      results(calls, [
        `**Findings**\n1. \`src/auth/login.ts\` — matches on lines 3, 14\n\n**Conclusion:** the code for \`login\` is in \`src/auth/login.ts\` (\`handleLogin\`, line 3).\n\n${footer("ok")}`,
        { content: `[task] stopped: the child timed out after 60000 ms (3 turns).\n\n${footer("timeout")}`, isError: true },
      ]),
    );
    const { message } = await run(request(history, [TASK_WITH_SCOUT]));
    const text = textOf(message);
    expect(toolCallsOf(message)).toEqual([]);
    expect(text).toContain("`src/auth/login.ts`");
    expect(text).toContain("handleLogin");
    expect(text).toMatch(/Tests\*\* — timed out/);
    expect(text).toMatch(/timed out after 60000 ms/);
    expect(text).not.toContain("abc123.jsonl");
    expect(text.trim().split("\n").pop()).toMatch(/^\*\*Conclusion:\*\* .*`src\/auth\/login\.ts`.*1 of 2 subagents failed/);
  });

  it("'covered by' names a file named as a test before a helper that sits in a test folder", async () => {
    const history: AgentMessage[] = [LOGIN_PROMPT];
    const t1 = await run(request(history, [TASK_WITH_SCOUT]));
    const calls = toolCallsOf(t1.message);
    history.push(
      t1.message,
      results(calls, [
        "**Conclusion:** the code for `login` is in `src/auth/login.ts` (`handleLogin`, line 3).",
        "**Conclusion:** the tests for `login` are in `test/helpers/fake-login-server.ts`.\n\nFiles: `test/helpers/fake-login-server.ts`, `test/auth/login.test.ts`",
      ]),
    );
    const text = textOf((await run(request(history, [TASK_WITH_SCOUT]))).message);
    expect(text.trim().split("\n").pop()).toBe("**Conclusion:** `login` lives mainly in `src/auth/login.ts`, covered by `test/auth/login.test.ts`.");
  });

  it("marks a child that crashed after writing a partial report", async () => {
    const history: AgentMessage[] = [{ role: "user", content: "where are sessions and login handled?" }];
    const t1 = await run(request(history, [TASK_PLAIN]));
    const calls = toolCallsOf(t1.message);
    expect(calls).toHaveLength(3);
    history.push(
      t1.message,
      results(calls, [
        "Sessions live in `src/session/store.ts`.",
        "Tests: `test/session/store.test.ts`\n\n[task] child failed after 2 turns: socket hang up; partial result above.",
        "Docs: `docs/sessions.md`.",
      ]),
    );
    const text = textOf((await run(request(history, [TASK_PLAIN]))).message);
    expect(text).toMatch(/Tests\*\* — partial/);
    expect(text).toMatch(/child failed after 2 turns: socket hang up/i);
    expect(text).toContain("`docs/sessions.md`");
    expect(text).toMatch(/covered by `test\/session\/store\.test\.ts`.*1 of 3 subagents failed/);
  });

  it("retries once without agent when the profile is unknown", async () => {
    const history: AgentMessage[] = [LOGIN_PROMPT];
    const t1 = await run(request(history, [TASK_WITH_SCOUT]));
    const calls = toolCallsOf(t1.message);
    const unknown = { content: 'unknown agent "scout". No agents are defined (create .ink/agents/*.md or ~/.ink/agents/*.md).', isError: true };
    history.push(t1.message, results(calls, calls.map(() => unknown)));
    const t2 = await run(request(history, [TASK_WITH_SCOUT]));
    const retries = toolCallsOf(t2.message);
    expect(retries.map((c) => c.arguments)).toEqual(calls.map((c) => ({ prompt: c.arguments.prompt })));
    history.push(t2.message, results(retries, retries.map(() => unknown)));
    const t3 = await run(request(history, [TASK_WITH_SCOUT]));
    expect(toolCallsOf(t3.message)).toEqual([]);
    expect(textOf(t3.message)).toMatch(/none of the 2 subagents could finish/);
  });
});

describe("demo provider: disclosure, determinism, streaming", () => {
  it("discloses the offline model once per main conversation, never in a subagent", async () => {
    const main = await investigate();
    expect(textOf(main.t1.message).startsWith(`${DEMO_DISCLOSURE}\n`)).toBe(true);
    expect(textOf(main.t2.message)).not.toContain(DEMO_DISCLOSURE);
    expect(textOf(main.t3.message)).not.toContain(DEMO_DISCLOSURE);
    const child = await investigate(CHILD_SYSTEM);
    for (const t of [child.t1, child.t2, child.t3]) expect(textOf(t.message)).not.toContain(DEMO_DISCLOSURE);
  });

  it("is deterministic: the same request gives the same events and message", async () => {
    const a = await investigate();
    const b = await investigate();
    expect(b.t1).toEqual(a.t1);
    expect(b.t3).toEqual(a.t3);
  });

  it("streams text in several deltas that add up to the message text", async () => {
    const { events, message } = await run(request([LOGIN_PROMPT]));
    const deltas = events.filter((e) => e.type === "text_delta").map((e) => (e.type === "text_delta" ? e.text : ""));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(textOf(message));
  });

  it("fails with kind aborted when the signal aborts mid-stream", async () => {
    const controller = new AbortController();
    const stream = createDemoProvider({ delayMs: 2 }).stream(request([LOGIN_PROMPT], INVESTIGATOR_TOOLS, MAIN_SYSTEM, controller.signal));
    let seen = 0;
    for await (const e of stream) {
      if (e.type === "text_delta" && ++seen === 1) controller.abort();
    }
    const err = await stream.result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("aborted");
    expect(seen).toBe(1);
  });

  it("fails with kind aborted when the signal is already aborted", async () => {
    const stream = createDemoProvider({ delayMs: 0 }).stream(request([LOGIN_PROMPT], INVESTIGATOR_TOOLS, MAIN_SYSTEM, AbortSignal.abort()));
    await expect(stream.result()).rejects.toMatchObject({ kind: "aborted" });
  });

  it("takes the delay from the option, else INK_DEMO_DELAY_MS, else 15 ms, and rejects bad values clearly", () => {
    expect(resolveDemoDelay(0, { INK_DEMO_DELAY_MS: "40" })).toBe(0);
    expect(resolveDemoDelay(undefined, { INK_DEMO_DELAY_MS: "40" })).toBe(40);
    expect(resolveDemoDelay(undefined, {})).toBe(15);
    expect(() => resolveDemoDelay(undefined, { INK_DEMO_DELAY_MS: "fast" })).toThrow(/INK_DEMO_DELAY_MS .*"fast"/);
    expect(() => createDemoProvider({ delayMs: -1 })).toThrow(/delayMs must be a number ≥ 0/);
  });

  it("reports itself as the demo provider", () => {
    const provider = createDemoProvider({ delayMs: 0 });
    expect([provider.name, provider.defaultModel, provider.contextWindow("demo")]).toEqual(["demo", "demo", 200000]);
  });
});

describe("demo follow-ups", () => {
  it("a bare 'continue' reuses the earlier request's keywords; a greeting does not", async () => {
    const { requestKeywords } = await import("../../src/providers/demo-keywords.js");
    expect(requestKeywords("please finish the investigation", ["where is the login handled?"])).toEqual(["login"]);
    expect(requestKeywords("continue", ["hello", "where is the billing code?"])).toEqual(["billing"]);
    expect(requestKeywords("hello", ["where is the login handled?"])).toEqual([]);
    expect(requestKeywords("and the invoices?", ["where is the login handled?"])).toEqual(["invoices"]);
  });
});
