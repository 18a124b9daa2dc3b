/** The session's one event stream (SessionClient.subscribe) and the ops the adapters read facts by: notices, spend, history, task records. */
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { McpServerConfig } from "../../src/mcp/config.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { writeFakeMcpServer } from "../mcp/fake-mcp-server.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const script = writeFakeMcpServer();
const crashing: McpServerConfig = { name: "db", source: "test", transport: "stdio", command: process.execPath, args: [script], env: { MODE: "crash-start" }, startupTimeoutMs: 10_000 };

const session = (extra: Partial<ConstructorParameters<typeof AgentSession>[0]> = {}) =>
  new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider: createScriptedProvider(() => ({ text: "hello back" })), model: "m", interactive: false, approval: {}, ...extra });

const notices = (events: AgentEvent[]) => events.flatMap((e) => (e.type === "notice" ? [e.text] : []));

describe("AgentSession.subscribe", () => {
  it("gives a new subscriber the notices so far, then each later one once; nothing after unsubscribing", async () => {
    const s = session({ mcpServers: [crashing] });
    const first: AgentEvent[] = [];
    const off = s.subscribe((e) => first.push(e));
    expect(notices(first)).toEqual(s.notices);
    const before = first.length;
    await s.submit({ type: "start_mcp" });
    const late = notices(first.slice(before));
    expect(late).toHaveLength(1);
    expect(late[0]).toContain('MCP server "db"');
    // A later subscriber gets it among the notices so far, and it comes to no one twice.
    const second: AgentEvent[] = [];
    const off2 = s.subscribe((e) => second.push(e));
    expect(notices(second)).toEqual(s.notices);
    expect(notices(second).filter((t) => t.includes('MCP server "db"'))).toHaveLength(1);
    off();
    off2();
    s.close();
  });

  it("sends a spend event for each addition to the usage ledger, not for the rows a resumed file restored", async () => {
    const s = session();
    const events: AgentEvent[] = [];
    const off = s.subscribe((e) => events.push(e));
    s.ledger.add({ agent: "c1", run: "t1", model: "x" }, { input: 3, output: 2, cacheRead: 0, cacheWrite: 0 });
    s.ledger.restore([{ agent: "main", usage: { input: 50, output: 5, cacheRead: 0, cacheWrite: 0 } }]);
    off();
    s.ledger.add({ agent: "main" }, { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 });
    expect(events.filter((e) => e.type === "spend")).toEqual([{ type: "spend", agent: "c1", run: "t1", model: "x", usage: { input: 3, output: 2, cacheRead: 0, cacheWrite: 0 } }]);
    s.close();
  });
});

describe("the ops the adapters read facts by", () => {
  it("get_history is a copy of the conversation; list_task_records the resumed file's records; get_state names yolo's refusal and the checkpoint bound", async () => {
    const s = session();
    await s.submit({ type: "prompt", text: "hi" });
    const history = s.submit({ type: "get_history" });
    expect(history).toEqual(s.history);
    expect(history).not.toBe(s.history);
    expect(s.submit({ type: "list_task_records" })).toEqual([]);
    expect(s.submit({ type: "get_state" })).toMatchObject({ yoloDisabled: false, checkpointBound: s.checkpointBound });
    expect(s.checkpointBound).toBeDefined();
    s.close();
  });

  it("approve and deny reach the answerer the session was made with (the front end whose ask put the question)", () => {
    const answers: unknown[] = [];
    const s = session({ answerApproval: (id, approved, reason) => (answers.push([id, approved, reason]), id === "gone" ? `no approval request "${id}" is waiting` : undefined) });
    s.submit({ type: "approve", requestId: "a1" });
    s.submit({ type: "deny", requestId: "a2", reason: "not now" });
    expect(() => s.submit({ type: "approve", requestId: "gone" })).toThrow('no approval request "gone" is waiting');
    expect(answers).toEqual([["a1", true, undefined], ["a2", false, "not now"], ["gone", true, undefined]]);
    s.close();
  });
});
