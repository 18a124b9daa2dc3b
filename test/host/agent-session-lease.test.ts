/** The main session's lease: when another process takes its lock over, it stops writing, stops the run, says so, and loses nothing it holds. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { processStartTime } from "../../src/session/process-identity.js";
import { readLock } from "../../src/session/lock.js";

const dirs: string[] = [];
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) p.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n");

it("another live process takes the lock over mid-run: this session stops writing and its run, warns naming the new holder, and keeps every message in memory", async () => {
  const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  procs.push(other);
  let takeOver: () => void = () => undefined;
  const tookOver = new Promise<void>((resolve) => (takeOver = resolve));
  const provider = createScriptedProvider((request) => {
    if (request.messages.length === 1) return { toolCalls: [{ name: "ls", arguments: {} }] };
    takeOver(); // the file holds user, assistant and toolResult now; the next answer streams slowly
    return { text: "this answer is never saved", delayMs: 20_000 };
  });
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {}, leaseIntervalMs: 20 });
  const events: AgentEvent[] = [];
  let linesAtLoss = -1;
  const running = session.prompt("list", {
    onEvent: (e) => {
      events.push(e);
      if (e.type === "warning" && e.source === "lock") linesAtLoss = lines(session.sessionPath!).length;
    },
  });
  await tookOver;
  // The other process's lock, as acquireLock writes it: its pid, host, start time and its own token.
  const lockPath = `${session.sessionPath!}.lock`;
  const now = new Date().toISOString();
  writeFileSync(lockPath, `${JSON.stringify({ pid: other.pid, hostname: hostname(), startedAt: now, owner: "main session", token: "the-other-one", procStart: processStartTime(other.pid!), heartbeatAt: now })}\n`);
  const result = await running;

  expect(result.reason).toBe("aborted");
  const warning = events.find((e) => e.type === "warning" && e.source === "lock") as Extract<AgentEvent, { type: "warning" }>;
  expect(warning.message).toContain(`was taken over by process ${other.pid} (main session) since ${now}`);
  expect(warning.message).toContain("stopped writing the session file and stopped the run");
  // Nothing written after the loss, though the run recorded more in memory.
  const saved = lines(session.sessionPath!);
  expect(saved.length).toBe(linesAtLoss);
  expect(saved.map((l) => JSON.parse(l).message?.role).filter(Boolean)).toEqual(["user", "assistant", "toolResult"]);
  expect(session.history.slice(0, 3).map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
  // A later prompt does not write either: the other process owns the file now.
  await session.prompt("again");
  expect(lines(session.sessionPath!)).toEqual(saved);
  expect(session.history.some((m) => m.role === "user" && m.content === "again")).toBe(true);
  // The new holder's lock is left alone, also when this session closes.
  session.close();
  expect(readLock(lockPath)).toMatchObject({ pid: other.pid, token: "the-other-one" });
});

it("the sessions directory removed mid-run: the lease takes the lock again and the run goes on; the file is recreated with every entry", async () => {
  let removeDir: () => void = () => undefined;
  const removed = new Promise<void>((resolve) => (removeDir = resolve));
  let relock: () => void = () => undefined;
  const relocked = new Promise<void>((resolve) => (relock = resolve));
  const provider = createScriptedProvider((request) => {
    if (request.messages.length === 1) return { toolCalls: [{ name: "ls", arguments: {} }] };
    removeDir();
    return { text: "still here", waitFor: relocked };
  });
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {}, leaseIntervalMs: 20 });
  const events: AgentEvent[] = [];
  const running = session.prompt("list", { onEvent: (e) => events.push(e) });
  await removed;
  const lockPath = `${session.sessionPath!}.lock`;
  const token = readLock(lockPath)!.token;
  rmSync(session.store!.dir, { recursive: true });
  for (let i = 0; i < 400 && !readLock(lockPath); i++) await new Promise((r) => setTimeout(r, 10));
  expect(readLock(lockPath)).toMatchObject({ pid: process.pid, token });
  relock();
  const result = await running;
  expect(result.reason).toBe("done");
  expect(events.filter((e) => e.type === "warning" && e.source === "lock")).toEqual([]);
  expect(lines(session.sessionPath!).map((l) => JSON.parse(l).message?.role).filter(Boolean)).toEqual(["user", "assistant", "toolResult", "assistant"]);
  session.close();
  expect(readLock(lockPath)).toBeUndefined();
});

it("after close no lease renewal runs: the released lock stays gone", async () => {
  const provider = createScriptedProvider(() => ({ text: "hi" }));
  const session = new AgentSession({ cwd: temp("ink-cwd-"), inkHome: temp("ink-home-"), provider, model: "m", interactive: true, approval: {}, leaseIntervalMs: 5 });
  await session.prompt("hello");
  const lockPath = `${session.sessionPath!}.lock`;
  expect(readLock(lockPath)).toMatchObject({ pid: process.pid });
  session.close();
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 10)); // several lease intervals
  expect(readLock(lockPath)).toBeUndefined();
});
