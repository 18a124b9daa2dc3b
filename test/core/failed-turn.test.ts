import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { SessionStore } from "../../src/session/store.js";
import { httpError, sseTurn, startFakeAnthropic, type FakeAnthropic, type FakeResponse } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
const dirs: string[] = [];
const temp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
beforeAll(async () => (server = await startFakeAnthropic()));
afterAll(async () => server.close());
afterEach(() => {
  server.reset();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function session(inkHome = temp("ink-home-"), resume?: string, cwd = temp("ink-cwd-")) {
  const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url, baseDelayMs: 1, maxDelayMs: 2, maxRetries: 1 });
  return new AgentSession({ cwd, inkHome, provider, model: "claude-test", interactive: true, approval: { mode: "yolo" } as never, resume });
}

/** Roles alternate and every tool_use has exactly one tool_result in the next message. */
function expectValid(messages: Array<{ role: string; content: Array<{ type: string; id?: string; tool_use_id?: string }> }>) {
  expect(messages[0]!.role).toBe("user");
  messages.forEach((m, i) => {
    if (i > 0) expect(m.role).not.toBe(messages[i - 1]!.role);
    const uses = m.content.filter((b) => b.type === "tool_use").map((b) => b.id);
    if (uses.length) expect(messages[i + 1]!.content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id)).toEqual(uses);
  });
}

const failures: Array<[string, FakeResponse[]]> = [
  ["a 400", [httpError(400, "invalid_request_error", "messages.0: bad block")]],
  ["a 401", [httpError(401, "authentication_error", "invalid x-api-key")]],
  ["an exhausted 529 window", [httpError(529, "overloaded_error", "Overloaded"), httpError(529, "overloaded_error", "Overloaded")]],
];

describe("recovery after a failed request", () => {
  it.each(failures)("after %s the next request does not contain the failed prompt and is valid", async (_name, responses) => {
    const s = session();
    server.enqueue(sseTurn([{ text: "first answer" }]), ...responses, sseTurn([{ text: "recovered" }]));
    await s.prompt("hello");
    await expect(s.prompt("FAILED PROMPT")).rejects.toThrow();
    expect(s.lastFailure).toMatchObject({ prompt: "FAILED PROMPT", withdrawn: true });
    await s.prompt("next one");
    const last = server.requests.at(-1)!.body;
    expect(JSON.stringify(last.messages)).not.toContain("FAILED PROMPT");
    expect(last.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
    expectValid(last.messages);
    // the file says what happened, and a resumed session does not bring the failed prompt back
    const file = readFileSync(s.sessionPath!, "utf8");
    expect(file).toContain('"status":"prompt_failed"');
    expect(file).toContain("FAILED PROMPT");
    s.close();
    const loaded = new SessionStore(s.store!.dir.replace(/\/sessions$/, "")).load(s.sessionId);
    expect(JSON.stringify(loaded.messages)).not.toContain("FAILED PROMPT");
  });

  it("after a network reset the session goes on", async () => {
    const s = session();
    server.enqueue({ kind: "stall" }, { kind: "stall" });
    // A closed server socket mid-stream: close the server's connections once the request arrived.
    const run = s.prompt("FAILED PROMPT");
    const kill = setInterval(() => {
      if (server.requests.length > 0) {
        clearInterval(kill);
        void server.close();
      }
    }, 5);
    await expect(run).rejects.toThrow();
    expect(s.lastFailure?.withdrawn).toBe(true);
    expect(s.history).toEqual([]);
    server = await startFakeAnthropic();
  });

  it("a failure in the middle of a tool loop keeps the completed tool results", async () => {
    const cwd = temp("ink-cwd-");
    const s = session(undefined, undefined, cwd);
    server.enqueue(
      sseTurn([{ toolUse: { id: "tu1", name: "ls", input: {} } }]),
      httpError(400, "invalid_request_error", "boom"),
      sseTurn([{ text: "ok" }]),
    );
    await expect(s.prompt("list files")).rejects.toThrow();
    expect(s.lastFailure).toMatchObject({ withdrawn: false });
    await s.prompt("go on");
    const last = server.requests.at(-1)!.body;
    expect(JSON.stringify(last.messages)).toContain("list files");
    expect(JSON.stringify(last.messages)).toContain('"tool_use_id":"tu1"');
    expectValid(last.messages);
  });
});
