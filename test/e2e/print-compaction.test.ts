/**
 * Print mode prints the final answer whatever happened during the run: a threshold compaction
 * after `--continue` (the history shrinks below where the run began), and a huge saved session
 * (5,000 messages, ~50 MB) resumed with `--continue`, which must be brought within the window.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { httpError, sseTurn } from "../helpers/fake-anthropic-server.js";
import { cliFixture, makeLoginRepo, runCli } from "../helpers/cli.js";
import { SessionStore } from "../../src/session/store.js";
import type { AgentMessage } from "../../src/protocol/messages.js";

const fx = cliFixture();
/** Writes a main session of `count` messages (alternating user/assistant) for `cwd`; returns its id. */
function savedSession(cwd: string, count: number, filler: string): string {
  const writer = new SessionStore(fx.home).create({ kind: "main", cwd, provider: "anthropic", model: "claude-sonnet-4-5", fingerprint: "x", toolNames: [], prompt: "old" });
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (let i = 0; i < count; i += 2) {
    const user: AgentMessage = { role: "user", content: `question ${i}: ${filler}` };
    const assistant: AgentMessage = { role: "assistant", content: [{ type: "text", text: `answer ${i}: ${filler}` }], stopReason: "end_turn", usage };
    writer.append({ type: "message", message: user });
    writer.append({ type: "message", message: assistant });
  }
  return writer.id;
}
const env = () => ({ INK_HOME: fx.home, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fx.server.url });

/** True when the request is the summariser's (compaction) call. */
const isSummaryCall = (body: { system?: unknown }) => JSON.stringify(body.system ?? "").includes("working memory of a coding agent");

describe("print mode always prints the final answer", () => {
  it("after a threshold compaction in a continued session", async () => {
    const project = makeLoginRepo();
    writeFileSync(join(project, "big.txt"), "a line of the big file that fills the context\n".repeat(5_000));
    const earlier = savedSession(project, 10, "earlier");
    fx.server.reset();
    // Two reads of a big file (~50k tokens), then a turn reporting a context near the 200k window: the next turn
    // compacts, and the history ends up shorter than it was when this run began.
    fx.server.enqueue(
      sseTurn([{ toolUse: { id: "tu_1", name: "read", input: { path: "big.txt" } } }]),
      sseTurn([{ toolUse: { id: "tu_2", name: "read", input: { path: "big.txt", offset: 2001 } } }]),
      sseTurn([{ toolUse: { id: "tu_3", name: "ls", input: { path: "src" } } }], { usage: { input: 190_000 } }),
      sseTurn([{ text: "summary of the work so far" }]),
      sseTurn([{ text: "The login is in src/auth/login.ts." }]),
    );
    const run = await runCli(["-p", "where is the login?", "--cwd", project, "--continue"], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`session ${earlier} saved`);
    expect(run.stderr).toContain("context compacted");
    expect(fx.server.requests.filter((r) => isSummaryCall(r.body)).length).toBe(1);
    expect(run.stdout.trim()).toBe("The login is in src/auth/login.ts.");
    rmSync(project, { recursive: true, force: true });
  });

  it("after retried overloads and a child's run (the child's answer is not the one printed)", async () => {
    fx.server.reset();
    fx.server.enqueue(
      httpError(529, "overloaded_error", "Overloaded", { "retry-after": "0" }),
      sseTurn([{ toolUse: { id: "tu_1", name: "task", input: { prompt: "find the login" } } }]),
      httpError(429, "rate_limit_error", "slow down", { "retry-after": "0" }),
      sseTurn([{ text: "the child's report: src/auth/login.ts" }]),
      httpError(529, "overloaded_error", "Overloaded", { "retry-after": "0" }),
      sseTurn([{ text: "The login is handled in src/auth/login.ts." }]),
    );
    const run = await runCli(["-p", "where is the login?", "--cwd", fx.repo], { env: env() });
    expect(run.code).toBe(0);
    expect(fx.server.requests).toHaveLength(6);
    expect(run.stderr.match(/retrying/g)?.length).toBeGreaterThanOrEqual(2);
    expect(run.stdout.trim()).toBe("The login is handled in src/auth/login.ts.");
  });

  it("a 5,000-message session resumed with --continue is brought within the window and answers", async () => {
    const project = makeLoginRepo();
    savedSession(project, 5_000, "lorem ipsum dolor sit amet ".repeat(370)); // ~10 KB a message
    fx.server.reset();
    fx.server.setFallback(sseTurn([{ text: "fallback" }]));
    fx.server.enqueue(sseTurn([{ text: "summary of 5,000 messages" }]), sseTurn([{ text: "Still here: the answer." }]));
    const run = await runCli(["-p", "one more question", "--cwd", project, "--continue"], { env: env() });
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("Still here: the answer.");
    const main = fx.server.requests.filter((r) => !isSummaryCall(r.body));
    expect(main.length).toBe(1);
    // What was sent fits the 200k-token window (~4 characters a token).
    expect(JSON.stringify(main[0]!.body.messages).length / 4).toBeLessThan(200_000);
    expect(main[0]!.body.messages[0].role).toBe("user");
    expect(JSON.stringify(main[0]!.body.messages.at(-1))).toContain("one more question");
    rmSync(project, { recursive: true, force: true });
  }, 60_000);
});
