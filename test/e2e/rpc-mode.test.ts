/**
 * End to end, the JSON control channel: the built CLI (`node dist/cli.js --mode rpc`) as a real
 * child process against the loopback Messages-API server, driven through its stdin and read from
 * its stdout — two prompts in one session, steering a running child and the main agent, approvals
 * answered over stdin, one child aborted while another finishes, malformed and unknown commands,
 * and stdin closed mid-run (no process left, session and child resumable).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, makeLoginRepo } from "../helpers/cli.js";
import { ensureBuilt } from "../helpers/build.js";
import { git, GIT_ENV } from "../helpers/temp-git.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic, type FakeResponse } from "../helpers/fake-anthropic-server.js";

type Line = Record<string, any>;
type Body = { system?: unknown; messages: Array<{ role: string; content: unknown }> };

/** Text of a message's content (text blocks and tool results joined). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string; content?: unknown }>).map((b) => b.text ?? (b.content !== undefined ? contentText(b.content) : "")).join("\n");
}
const firstUser = (b: Body) => contentText(b.messages.find((m) => m.role === "user")!.content);
const lastUser = (b: Body) => contentText(b.messages.filter((m) => m.role === "user").at(-1)!.content);
const turnOf = (b: Body) => b.messages.filter((m) => m.role === "assistant").length;
const isChild = (b: Body) => JSON.stringify(b.system ?? "").includes("# Subagent mode");
const allText = (b: Body) => b.messages.map((m) => contentText(m.content)).join("\n");

/** The CLI in rpc mode: send commands, wait for lines (no clocks: each wait ends on the line it looks for, or on exit). */
class RpcClient {
  readonly lines: Line[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  private readonly proc: ChildProcess;
  private readonly waiters = new Set<() => void>();
  private done = false;

  constructor(args: string[], env: Record<string, string>) {
    this.proc = spawn(process.execPath, [CLI, "--mode", "rpc", ...args], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    this.proc.stdout!.on("data", (d) => {
      buffer += d;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        this.lines.push(JSON.parse(buffer.slice(0, nl)) as Line); // every stdout line must be JSON
        buffer = buffer.slice(nl + 1);
      }
      this.wake();
    });
    this.proc.stderr!.on("data", (d) => (this.stderr += d));
    this.exited = new Promise((resolve) =>
      this.proc.on("close", (code) => {
        this.done = true;
        this.wake();
        resolve(code);
      }),
    );
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Writes one command (an object as JSON, a string as is). */
  send(command: object | string): void {
    this.proc.stdin!.write(`${typeof command === "string" ? command : JSON.stringify(command)}\n`);
  }

  /** Sends the process a signal. */
  kill(sig: NodeJS.Signals): void {
    this.proc.kill(sig);
  }

  /** Closes stdin (the client is done). */
  end(): void {
    this.proc.stdin!.end();
  }

  /** The first line from index `from` on that matches; rejects when the process exits without one. */
  waitFor(match: (l: Line) => boolean, what: string, from = 0): Promise<Line> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.lines.slice(from).find(match);
        if (found) {
          this.waiters.delete(check);
          resolve(found);
        } else if (this.done) {
          this.waiters.delete(check);
          reject(new Error(`no line for ${what}; stderr:\n${this.stderr}\nlines:\n${this.lines.map((l) => JSON.stringify(l).slice(0, 300)).join("\n")}`));
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  /** The `response` to the command with `id`. */
  response(id: string | number): Promise<Line> {
    return this.waitFor((l) => l.type === "response" && l.id === id, `the response to ${id}`);
  }
}

/** A child's event wrapped as the main stream carries it. */
const childEvent = (l: Line, childId: string, type: string) => l.type === "subagent_event" && l.childId === childId && l.event.type === type;

describe("ink --mode rpc (a real CLI process, loopback Messages API)", () => {
  let server: FakeAnthropic;
  let repo = "";
  const dirs: string[] = [];

  beforeAll(async () => {
    ensureBuilt();
    server = await startFakeAnthropic();
    repo = makeLoginRepo();
    dirs.push(repo);
  });
  afterAll(async () => {
    await server?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A fresh INK_HOME and the environment for the CLI. */
  function env(): { home: string; env: Record<string, string> } {
    const home = mkdtempSync(join(tmpdir(), "ink-rpc-home-"));
    dirs.push(home);
    // The tool pids these tests check are host pids: bash runs unsandboxed here (the sandbox has its own tests).
    return { home, env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url, INK_HOME: home, INK_BASH_SANDBOX: "off" } };
  }

  function route(fn: (b: Body) => FakeResponse | undefined): void {
    server.reset();
    server.setRouter(fn as (body: any) => FakeResponse | undefined);
    server.setFallback(sseTurn([{ text: "UNEXPECTED-REQUEST" }]));
  }

  it("runs two prompts in one session (the second queued behind the first) and reports its state", async () => {
    route((b) => (lastUser(b) === "first question" ? sseTurn([{ text: "ANSWER-ONE" }]) : lastUser(b) === "second question" ? sseTurn([{ text: "ANSWER-TWO" }]) : undefined));
    const { env: e } = env();
    const rpc = new RpcClient(["--cwd", repo], e);
    const ready = await rpc.waitFor((l) => l.type === "ready", "ready");
    expect(ready.commands).toContain("resume_child");
    rpc.send({ type: "prompt", text: "first question", id: "p1" });
    rpc.send({ type: "prompt", text: "second question", id: "p2" });
    expect((await rpc.response("p1")).data).toEqual({ queued: false });
    expect((await rpc.response("p2")).data).toEqual({ queued: true });
    expect(await rpc.waitFor((l) => l.type === "prompt_end" && l.id === "p1", "p1 ends")).toMatchObject({ reason: "done", turns: 1 });
    expect(await rpc.waitFor((l) => l.type === "prompt_end" && l.id === "p2", "p2 ends")).toMatchObject({ reason: "done" });
    // One conversation: the second request carries the first exchange.
    expect(server.requests).toHaveLength(2);
    expect(allText(server.requests[1]!.body)).toContain("ANSWER-ONE");
    const texts = rpc.lines.filter((l) => l.type === "text_delta").map((l) => l.text).join("");
    expect(texts).toBe("ANSWER-ONEANSWER-TWO");
    rpc.send({ type: "get_state", id: 3 });
    const state = (await rpc.response(3)).data;
    expect(state).toMatchObject({ sessionId: ready.sessionId, running: false, queuedPrompts: 0, runningChildren: [], pendingApprovals: [] });
    rpc.end();
    expect(await rpc.exited).toBe(0);
    const closed = rpc.lines.at(-1)!;
    expect(closed).toMatchObject({ type: "closed", sessionId: ready.sessionId, saved: true });
    const file = readFileSync(closed.sessionPath, "utf8");
    expect(file).toContain("first question");
    expect(file).toContain("ANSWER-TWO");
  }, 60_000);

  it("asks approvals over stdin with the whole request (diff, command), takes a denial's reason to the model, and steers the main agent", async () => {
    route((b) => {
      if (lastUser(b) === "tidy up") return sseTurn([{ toolUse: { id: "e1", name: "edit", input: { path: "README.md", oldText: "# shop", newText: "# shop (tidied)" } } }]);
      if (turnOf(b) === 1) return sseTurn([{ toolUse: { id: "b1", name: "bash", input: { command: "echo main-ran > ran.txt" } } }]);
      if (turnOf(b) === 2) return sseTurn([{ text: "MAIN-DONE" }]);
      return undefined;
    });
    const { env: e } = env();
    const rpc = new RpcClient(["--cwd", repo], e);
    rpc.send({ type: "prompt", text: "tidy up", id: "p" });
    const edit = await rpc.waitFor((l) => l.type === "approval_request" && l.tool === "edit", "the edit's approval");
    expect(edit).toMatchObject({ agent: { id: "main", depth: 0 }, cwd: repo, toolCallId: "e1", arguments: { path: "README.md" } });
    expect(edit.diff).toBe("--- README.md\n+++ README.md\n@@ -1,1 +1,1 @@\n-# shop\n+# shop (tidied)");
    rpc.send({ type: "approve", requestId: "nope", id: "bad" });
    expect((await rpc.response("bad")).error).toContain(`no approval request "nope" is waiting (waiting: ${edit.requestId})`);
    rpc.send({ type: "deny", requestId: edit.requestId, reason: "keep the README as it is", id: "d" });
    expect(await rpc.response("d")).toMatchObject({ success: true });
    const bash = await rpc.waitFor((l) => l.type === "approval_request" && l.tool === "bash", "the bash approval");
    expect(bash).toMatchObject({ command: "echo main-ran > ran.txt", cwd: repo, agent: { id: "main" } });
    // The denial's reason reached the model as the edit's result.
    expect(contentText(server.requests[1]!.body.messages.at(-1)!.content)).toContain("keep the README as it is");
    // While the run waits on the approval, a steer queues for the main agent's next turn boundary.
    rpc.send({ type: "steer", text: "MAIN-STEER-NOTE", id: "s" });
    expect(await rpc.response("s")).toMatchObject({ success: true });
    rpc.send({ type: "approve", requestId: bash.requestId, id: "a" });
    await rpc.waitFor((l) => l.type === "prompt_end" && l.id === "p", "the run's end");
    expect(rpc.lines.find((l) => l.type === "steered")).toMatchObject({ text: "MAIN-STEER-NOTE", from: "user" });
    const third = server.requests[2]!.body as Body;
    expect(contentText(third.messages.at(-1)!.content)).toContain("MAIN-STEER-NOTE"); // after the bash result, never between
    expect(existsSync(join(repo, "ran.txt"))).toBe(true);
    expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("# shop\n");
    rmSync(join(repo, "ran.txt"));
    // Idle: a steer has nothing to reach.
    rpc.send({ type: "steer", text: "late", id: "s2" });
    expect((await rpc.response("s2")).error).toContain("the main agent is not running");
    rpc.end();
    expect(await rpc.exited).toBe(0);
  }, 60_000);

  it("steers a running child by id: the message enters its history at its next turn boundary", async () => {
    route((b) => {
      if (!isChild(b) && turnOf(b) === 0) return sseTurn([{ toolUse: { id: "task-1", name: "task", input: { prompt: "CHILD-STEER investigate" } } }]);
      if (!isChild(b)) return sseTurn([{ text: "MAIN-DONE" }]);
      if (turnOf(b) === 0) return sseTurn([{ toolUse: { id: "cb1", name: "bash", input: { command: "echo child-ran" } } }]);
      return sseTurn([{ text: "CHILD-REPORT" }]);
    });
    const { env: e } = env();
    const rpc = new RpcClient(["--cwd", repo], e);
    rpc.send({ type: "prompt", text: "delegate it", id: "p" });
    const start = await rpc.waitFor((l) => l.type === "subagent_start", "the child");
    expect(start.parentToolCallId).toBe("task-1");
    const ask = await rpc.waitFor((l) => l.type === "approval_request", "the child's approval");
    expect(ask).toMatchObject({ agent: { id: start.childId, depth: 1 }, command: "echo child-ran", cwd: repo });
    rpc.send({ type: "list_children", id: "l" });
    expect((await rpc.response("l")).data.children).toEqual([expect.objectContaining({ childId: start.childId, parentToolCallId: "task-1", status: "running", prompt: "CHILD-STEER investigate" })]);
    rpc.send({ type: "steer", child: start.childId, text: "ALSO-CHECK-BILLING", id: "s" });
    expect(await rpc.response("s")).toMatchObject({ success: true, data: { child: start.childId } });
    rpc.send({ type: "approve", requestId: ask.requestId });
    await rpc.waitFor((l) => l.type === "prompt_end", "the run's end");
    // Every child event is tagged with the child id and the parent's task call id.
    const steered = await rpc.waitFor((l) => childEvent(l, start.childId, "steered"), "the child's steered event");
    expect(steered).toMatchObject({ parentToolCallId: "task-1", event: { text: "ALSO-CHECK-BILLING", from: "user" } });
    for (const l of rpc.lines.filter((x) => x.type === "subagent_event")) expect([l.childId, l.parentToolCallId]).toEqual([start.childId, "task-1"]);
    const childSecond = server.requests.map((r) => r.body as Body).find((b) => isChild(b) && turnOf(b) === 1)!;
    expect(contentText(childSecond.messages.at(-1)!.content)).toContain("ALSO-CHECK-BILLING");
    expect(allText(childSecond)).toContain("child-ran");
    rpc.send({ type: "steer", child: start.childId, text: "too late", id: "s2" });
    expect((await rpc.response("s2")).error).toContain(`child "${start.childId}" is not running`);
    rpc.end();
    expect(await rpc.exited).toBe(0);
  }, 60_000);

  it("aborts one child while another finishes; the main agent gets both results", async () => {
    route((b) => {
      if (!isChild(b) && turnOf(b) === 0)
        return sseTurn([{ toolUse: { id: "t-slow", name: "task", input: { prompt: "SLOW-CHILD" } } }, { toolUse: { id: "t-fast", name: "task", input: { prompt: "FAST-CHILD" } } }]);
      if (!isChild(b)) return sseTurn([{ text: "MAIN-SUMMARY" }]);
      if (firstUser(b) === "SLOW-CHILD") return sseTurn([{ toolUse: { id: "sb", name: "bash", input: { command: "echo slow" } } }]);
      if (turnOf(b) === 0) return sseTurn([{ toolUse: { id: "fb", name: "bash", input: { command: "echo fast" } } }]);
      return sseTurn([{ text: "FAST-REPORT" }]);
    });
    const { env: e } = env();
    const rpc = new RpcClient(["--cwd", repo], e);
    rpc.send({ type: "prompt", text: "two at once", id: "p" });
    const slow = await rpc.waitFor((l) => l.type === "subagent_start" && l.parentToolCallId === "t-slow", "the slow child");
    const fast = await rpc.waitFor((l) => l.type === "subagent_start" && l.parentToolCallId === "t-fast", "the fast child");
    const ask = await rpc.waitFor((l) => l.type === "approval_request" && l.agent.id === fast.childId, "the fast child's approval");
    const slowAsk = await rpc.waitFor((l) => l.type === "approval_request" && l.agent.id === slow.childId, "the slow child's approval");
    rpc.send({ type: "abort", child: "no-such-child", id: "x" });
    expect((await rpc.response("x")).error).toMatch(/child "no-such-child" is not running \(running: .*\)/);
    rpc.send({ type: "abort", child: slow.childId, id: "a" });
    expect(await rpc.response("a")).toMatchObject({ success: true });
    const slowEnd = await rpc.waitFor((l) => l.type === "subagent_end" && l.childId === slow.childId, "the slow child's end");
    expect(slowEnd.summary.status).toBe("aborted");
    // Its waiting question went with it; the other child's still waits.
    expect(rpc.lines.find((l) => l.type === "approval_cancelled")).toMatchObject({ requestId: slowAsk.requestId });
    rpc.send({ type: "get_state", id: "st" });
    expect((await rpc.response("st")).data).toMatchObject({ running: true, runningChildren: [fast.childId], pendingApprovals: [ask.requestId] });
    rpc.send({ type: "approve", requestId: ask.requestId });
    const fastEnd = await rpc.waitFor((l) => l.type === "subagent_end" && l.childId === fast.childId, "the fast child's end");
    expect(fastEnd.summary.status).toBe("ok");
    expect(await rpc.waitFor((l) => l.type === "prompt_end", "the run's end")).toMatchObject({ reason: "done" });
    const last = server.requests.map((r) => r.body as Body).filter((b) => !isChild(b)).at(-1)!;
    const results = last.messages.at(-1)!.content as Array<{ tool_use_id: string; is_error?: boolean; content: unknown }>;
    expect(results.find((r) => r.tool_use_id === "t-fast")!.is_error ?? false).toBe(false);
    expect(contentText(results.find((r) => r.tool_use_id === "t-fast")!.content)).toContain("FAST-REPORT");
    expect(results.find((r) => r.tool_use_id === "t-slow")).toMatchObject({ is_error: true });
    rpc.send({ type: "list_children", id: "l" });
    const children = (await rpc.response("l")).data.children as Line[];
    expect(children.map((c) => [c.childId, c.status])).toEqual([
      [slow.childId, "aborted"],
      [fast.childId, "ok"],
    ]);
    rpc.end();
    expect(await rpc.exited).toBe(0);
  }, 60_000);

  it("answers malformed and unknown commands with an error naming the field, and goes on", async () => {
    route(() => undefined);
    const { env: e } = env();
    const rpc = new RpcClient(["--cwd", repo], e);
    rpc.send("this is not json");
    rpc.send({ type: "prompt", id: "m1" });
    rpc.send({ type: "prompt", text: 42, id: "m2" });
    rpc.send({ type: "deny", id: "m3" });
    rpc.send({ type: "frobnicate", id: "m4" });
    rpc.send({ type: "get_state", id: "ok" });
    const notJson = await rpc.waitFor((l) => l.type === "response" && l.success === false && /^not JSON/.test(l.error), "the not-JSON error");
    expect(notJson.id).toBeUndefined();
    expect(await rpc.response("m1")).toMatchObject({ command: "prompt", success: false, error: 'prompt: field "text" is required' });
    expect((await rpc.response("m2")).error).toMatch(/^prompt: field "text" /);
    expect((await rpc.response("m3")).error).toBe('deny: field "requestId" is required');
    expect((await rpc.response("m4")).error).toBe('unknown command "frobnicate"; known commands: prompt, steer, abort, approve, deny, get_state, list_children, resume_child, list_branches, merge, merge_hand, list_turns, rewind');
    expect(await rpc.response("ok")).toMatchObject({ success: true });
    rpc.end();
    expect(await rpc.exited).toBe(0);
    expect(rpc.stderr).toBe("");
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it("ends cleanly when stdin closes mid-run: no process left, the session continues with --continue and the child resumes", async () => {
    const sleepy = "echo PID=$$; exec sleep 300";
    route((b) => {
      if (!isChild(b) && firstUser(b) === "start the long job" && turnOf(b) === 0) return sseTurn([{ toolUse: { id: "t1", name: "task", input: { prompt: "SLEEPY-CHILD" } } }]);
      if (isChild(b) && turnOf(b) === 0) return sseTurn([{ toolUse: { id: "sb", name: "bash", input: { command: sleepy } } }]);
      if (isChild(b) && lastUser(b).endsWith("finish now")) return sseTurn([{ text: "RESUMED-REPORT" }]);
      if (!isChild(b) && lastUser(b) === "what happened?") return sseTurn([{ text: "MAIN-AGAIN" }]);
      return undefined;
    });
    const { env: e } = env();
    const rpc = new RpcClient(["--cwd", repo, "--allow", "bash"], e);
    const ready = await rpc.waitFor((l) => l.type === "ready", "ready");
    rpc.send({ type: "prompt", text: "start the long job", id: "p" });
    const start = await rpc.waitFor((l) => l.type === "subagent_start", "the child");
    const update = await rpc.waitFor((l) => childEvent(l, start.childId, "tool_update") && /PID=\d+/.test(l.event.text), "the sleeping command");
    const pid = Number(/PID=(\d+)/.exec(update.event.text)![1]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    rpc.end();
    expect(await rpc.exited).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/); // the tool's process is gone
    expect(rpc.lines.find((l) => l.type === "subagent_end")).toMatchObject({ childId: start.childId, summary: { status: "aborted" } });
    expect(rpc.lines.at(-1)).toMatchObject({ type: "closed", sessionId: ready.sessionId, saved: true });

    // The same session again: --continue reopens it, the stopped child is listed and resumes.
    const again = new RpcClient(["--cwd", repo, "--continue"], e);
    expect(await again.waitFor((l) => l.type === "ready", "ready")).toMatchObject({ sessionId: ready.sessionId });
    again.send({ type: "list_children", id: "l" });
    const [child] = (await again.response("l")).data.children as Line[];
    expect(child).toMatchObject({ childId: start.childId, status: "aborted", parentToolCallId: "t1" });
    expect(child!.sessionId).toBeTruthy();
    again.send({ type: "resume_child", child: "20200101-000000-000000", text: "hello", id: "r0" });
    expect(await again.waitFor((l) => l.type === "resume_end" && l.id === "r0", "the refused resume")).toMatchObject({ isError: true, error: expect.stringContaining("20200101-000000-000000") });
    again.send({ type: "resume_child", child: start.childId, text: "finish now", id: "r" });
    const resumed = await again.response("r");
    expect(resumed).toMatchObject({ success: true, data: { child: start.childId } });
    expect(await again.waitFor((l) => l.type === "resume_end" && l.id === "r", "the resumed child's end")).toMatchObject({ isError: false });
    const childResumed = server.requests.map((r) => r.body as Body).find((b) => isChild(b) && lastUser(b).endsWith("finish now"));
    expect(childResumed, JSON.stringify(server.requests.map((r) => r.body.messages), null, 1).slice(-3000)).toBeDefined();
    expect(allText(childResumed!)).toContain("SLEEPY-CHILD");
    again.send({ type: "prompt", text: "what happened?", id: "p2" });
    expect(await again.waitFor((l) => l.type === "prompt_end" && l.id === "p2", "the second run")).toMatchObject({ reason: "done" });
    const mainAgain = server.requests.map((r) => r.body as Body).find((b) => !isChild(b) && lastUser(b).endsWith("what happened?"))!;
    expect(allText(mainAgain)).toContain("start the long job");
    expect(allText(mainAgain)).toContain("RESUMED-REPORT"); // the person-resumed child's report goes with the next prompt
    again.end();
    expect(await again.exited).toBe(0);
  }, 60_000);

  it.each(["SIGTERM", "SIGHUP"] as const)("%s mid-run ends the session as a closed stdin does: a closed event, then exit 0", async (signal) => {
    route((b) => {
      if (!isChild(b) && turnOf(b) === 0) return sseTurn([{ toolUse: { id: "t1", name: "task", input: { prompt: "SLEEPY-CHILD" } } }]);
      if (isChild(b) && turnOf(b) === 0) return sseTurn([{ toolUse: { id: "sb", name: "bash", input: { command: "echo PID=$$; exec sleep 300" } } }]);
      return undefined;
    });
    const { env: e } = env();
    const rpc = new RpcClient(["--cwd", repo, "--allow", "bash"], e);
    rpc.send({ type: "prompt", text: "start the long job", id: "p" });
    const start = await rpc.waitFor((l) => l.type === "subagent_start", "the child");
    const update = await rpc.waitFor((l) => childEvent(l, start.childId, "tool_update") && /PID=\d+/.test(l.event.text), "the sleeping command");
    const pid = Number(/PID=(\d+)/.exec(update.event.text)![1]);
    rpc.kill(signal);
    expect(await rpc.exited).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(rpc.lines.find((l) => l.type === "prompt_end")).toMatchObject({ id: "p", reason: "aborted" });
    expect(rpc.lines.at(-1)).toMatchObject({ type: "closed", saved: true });
  }, 60_000);
  it("merge_hand: the demo's three worktree workers, merge all stops at the conflict, merge_hand has its worker resolve it and merges the rest", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "ink-rpc-merge-"));
    dirs.push(cwd);
    git(cwd, "init", "-q", "-b", "main");
    writeFileSync(join(cwd, "NOTES.md"), "# Notes\n");
    git(cwd, "add", "-A");
    git(cwd, "commit", "-qm", "init");
    const { env: e } = env();
    const ident = Object.fromEntries(Object.entries(GIT_ENV).filter(([k]) => k.startsWith("GIT_"))) as Record<string, string>;
    const rpc = new RpcClient(["--cwd", cwd, "--provider", "demo", "--yolo"], { ...e, ...ident, INK_DEMO_DELAY_MS: "0" });
    rpc.send({ type: "merge_hand", id: "early" });
    expect((await rpc.response("early")).error).toContain("no merge stopped at a conflict");
    rpc.send({ type: "prompt", text: "add notes to NOTES.md, TODO.md and NOTES.md in worktrees", id: "p" });
    expect(await rpc.waitFor((l) => l.type === "prompt_end" && l.id === "p", "the workers")).toMatchObject({ reason: "done" });
    rpc.send({ type: "merge", branches: "all", id: "m" });
    const stopped = await rpc.response("m");
    expect(stopped).toMatchObject({ success: false, conflict: { files: ["NOTES.md"] } });
    expect(stopped.merged).toHaveLength(2);
    const from = rpc.lines.length;
    rpc.send({ type: "merge_hand", id: "h" });
    const handed = await rpc.response("h");
    expect(handed).toMatchObject({ success: true, data: { merged: [stopped.conflict.branch], childError: null } });
    // the worker's resumed run streamed on the channel under the call the response names
    expect(rpc.lines.slice(from).some((l) => l.type === "subagent_start" && l.parentToolCallId === handed.data.toolCallId)).toBe(true);
    expect(readFileSync(join(cwd, "NOTES.md"), "utf8")).not.toContain("<<<<<<<");
    expect(git(cwd, "branch", "--list", "ink/*").trim()).toBe("");
    expect(git(cwd, "status", "--porcelain")).toBe("");
    rpc.end();
    expect(await rpc.exited).toBe(0);
  }, 60_000);
});
