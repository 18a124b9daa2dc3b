import { EventEmitter } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resumeCommand } from "../src/host/launch-command.js";
import { AgentSession } from "../src/host/agent-session.js";
import { createScriptedProvider } from "../src/providers/scripted.js";
import { heapTuned } from "./terminal/heap-tuning.js";
import { FRAME_FLUSH_MS, frameRecorder, runTui } from "./run-tui.js";
import { parseFrameLine } from "./terminal/frame-phases.js";
import { tuiSessionFactory } from "../src/cli/main.js";
import { stripAnsi, waitUntil } from "./testing/wait-for-frame.js";

// Ink draws only a final frame when it believes it runs in CI; these tests watch it draw live.
vi.hoisted(() => {
  for (const key of Object.keys(process.env)) if (key === "CI" || key === "CONTINUOUS_INTEGRATION" || key.startsWith("CI_")) delete process.env[key];
});

/** A terminal's input as ink reads it: `type` queues a chunk and says it is readable. */
class FakeStdin extends EventEmitter {
  isTTY = true;
  /** Where setRawMode's calls are noted, in order with what was written (set by start). */
  journal?: string[];
  raw = false;
  private chunks: string[] = [];
  type(chunk: string) {
    this.chunks.push(chunk);
    this.emit("readable");
  }
  read = () => this.chunks.shift() ?? null;
  setRawMode(on: boolean) {
    this.raw = on;
    this.journal?.push(`raw ${on}`);
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** A terminal's output: everything written, in order. */
class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 30;
  written = "";
  isTTY?: boolean;
  journal?: string[];
  write = (data: string) => {
    this.written += data;
    this.journal?.push(`write ${JSON.stringify(data)}`);
    return true;
  };
  text = () => stripAnsi(this.written);
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Keys answer questions at once in these tests (the type-ahead guard has its own test below). */
const AT_ONCE = { armMs: 0, quietMs: 0, now: () => Date.now() };

function start(options: { untrustedProfiles?: string[]; openResumePicker?: boolean; inline?: boolean; approvalTiming?: typeof AT_ONCE }, before?: (home: string) => void, tty = false) {
  const home = mkdtempSync(join(tmpdir(), "ink-run-tui-"));
  dirs.push(home);
  before?.(home);
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  if (tty) stdout.isTTY = true;
  const journal: string[] = [];
  stdin.journal = stdout.journal = journal;
  const trustAsked: Array<boolean | undefined> = [];
  const provider = createScriptedProvider(() => ({ text: "ok" }));
  const done = runTui({
    approvalTiming: AT_ONCE,
    ...options,
    cwd: home,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    createSession: (ask, opts) => {
      trustAsked.push(opts?.trust);
      return new AgentSession({ cwd: home, inkHome: home, provider, model: provider.defaultModel, interactive: true, approval: { ask }, persist: true, resume: opts?.resume, trust: opts?.trust });
    },
  });
  return { stdin, stdout, trustAsked, done, journal };
}

/** Leaves the app with /exit and waits for runTui to resolve. */
async function exitApp(t: ReturnType<typeof start>): Promise<number> {
  await waitUntil(() => t.stdout.text().includes("Ask Ink"), { what: "the prompt" });
  t.stdin.type("/exit\r");
  return t.done;
}

describe("runTui", () => {
  it("Ctrl-C at the trust question skips the project's profiles and says so once, naming both ways to trust", async () => {
    const t = start({ untrustedProfiles: [".ink/agents/scout.md"] }, (home) => {
      mkdirSync(join(home, ".ink", "agents"), { recursive: true });
      writeFileSync(join(home, ".ink", "agents", "scout.md"), "---\nname: scout\ndescription: looks around\n---\nYou scout.\n");
    });
    await waitUntil(() => t.stdout.text().includes("Trust this project's 1 agent profile?"), { what: "the trust question" });
    expect(t.stdout.text()).toContain("(or Esc / Ctrl-C) skip them");
    t.stdin.type("\u0003");
    await waitUntil(() => t.trustAsked.length === 1, { what: "the session to be created" });
    expect(t.trustAsked).toEqual([false]);
    await waitUntil(() => t.stdout.text().includes("Ask Ink"), { what: "the prompt" });
    expect(t.stdout.text()).toContain("Skipped 1 project agent profile(s)");
    expect(t.stdout.text()).toContain("Run with --trust (or answer y to the trust question at start) to load them.");
    // Said once: the UI adds no note of its own (inline, both stood one above the other).
    expect(t.stdout.text().match(/skipped/gi)?.length).toBe(1);
    expect(await exitApp(t)).toBe(0);
  });

  it("keys typed while Ink starts never answer the trust question: `yes` typed at once goes to the prompt's draft (not sent), and the project stays untrusted", async () => {
    const t = start({ untrustedProfiles: [".claude/settings.json"], approvalTiming: { armMs: 400, quietMs: 1000, now: () => Date.now() } });
    t.stdin.type("yes\r");
    await waitUntil(() => t.stdout.text().includes("Trust this project's settings?"), { what: "the trust question" });
    await new Promise((r) => setTimeout(r, 100));
    expect(t.trustAsked).toEqual([]);
    t.stdin.type("\u0003");
    await waitUntil(() => t.trustAsked.length === 1, { what: "the session to be created" });
    expect(t.trustAsked).toEqual([false]);
    await waitUntil(() => t.stdout.text().includes("Ask Ink"), { what: "the prompt" });
    await waitUntil(() => /│ › yes +│/.test(t.stdout.text().split("Ask Ink").at(-1)!), { what: "the draft `yes` in the prompt" });
    // Not sent: the model was never asked.
    expect(t.stdout.text()).not.toContain("ok\n");
    t.stdin.type("\u0015/exit\r");
    expect(await t.done).toBe(0);
  });

  it("puts the terminal's input in raw mode and bracketed paste on before the first frame, at the trust question and the app (typed-ahead keys are not echoed onto the screen), and gives raw mode back at exit", async () => {
    const t = start({ untrustedProfiles: [".ink/agents/x.md"], inline: true }, undefined, true);
    await waitUntil(() => t.stdout.text().includes("Trust"), { what: "the trust question" });
    const firstFrame = (from: number, text: string) => t.journal.findIndex((e, i) => i >= from && e.startsWith("write") && e.includes(text));
    const question = firstFrame(0, "Trust");
    expect(t.journal.slice(0, question)).toContain("raw true");
    t.stdin.type("n");
    await waitUntil(() => t.stdout.text().includes("Ask Ink"), { what: "the prompt" });
    const answered = t.journal.lastIndexOf("raw false", firstFrame(0, "Ask Ink")); // the trust question's Ink gave raw mode back
    expect(answered).toBeGreaterThan(question);
    const app = firstFrame(answered, "Ask Ink");
    const between = t.journal.slice(answered, app);
    expect(between).toContain("raw true");
    expect(between).toContain(`write ${JSON.stringify("\u001b[?2004h")}`);
    t.stdin.type("/exit\r");
    expect(await t.done).toBe(0);
    expect(t.stdin.raw).toBe(false);
  });

  it("openResumePicker: with no saved session it says so instead of opening an empty picker", async () => {
    const t = start({ openResumePicker: true });
    await waitUntil(() => t.stdout.text().includes("no earlier saved sessions"), { what: "the notice" });
    expect(t.stdout.text()).not.toContain("Resume a session");
    expect(t.trustAsked).toEqual([undefined]);
    expect(await exitApp(t)).toBe(0);
  });

  it("tunes V8's heap for a long run (heap-tuning.ts) when the UI starts", async () => {
    const t = start({});
    expect(heapTuned()).toBe(true);
    expect(await exitApp(t)).toBe(0);
  });

  it("on exit says the session was NOT fully saved, and why, when its file could not be written (never 'Session saved')", async () => {
    const t = start({}, (home) => writeFileSync(join(home, "sessions"), "a file where the directory should be"));
    await waitUntil(() => t.stdout.text().includes("Ask Ink"), { what: "the prompt" });
    t.stdin.type("hello\r");
    await waitUntil(() => /not saved \(in memory\)(.|\n)*Enter send/.test(t.stdout.text().split("hello").at(-1)!), { what: "the status bar flag, idle again" });
    expect(await exitApp(t)).toBe(0);
    const end = t.stdout.text().split("Ask Ink").at(-1)!;
    expect(end).toMatch(/Session NOT fully saved \(EEXIST: \S+sessions \(or a parent\) is a file, not a directory\): \S+\.jsonl — resuming it will miss what was not written; free disk space or check INK_HOME/);
    expect(end).not.toContain("Session saved:");
  });
});

describe("runTui with the CLI's session factory (ink --continue)", () => {
  it("/clear after --continue starts a new conversation instead of refusing the session this Ink holds", async () => {
    const home = mkdtempSync(join(tmpdir(), "ink-run-tui-"));
    dirs.push(home);
    const provider = createScriptedProvider(() => ({ text: "ok" }));
    const base = { cwd: home, inkHome: home, provider, model: provider.defaultModel, interactive: true, approval: {}, persist: true };
    const earlier = new AgentSession(base);
    await earlier.prompt("EARLIER QUESTION");
    earlier.close();
    const created: AgentSession[] = [];
    const stdin = new FakeStdin();
    const stdout = new FakeStdout();
    const done = runTui({
      cwd: home,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      // What `ink --continue` passes: the command line's options name the session to reopen.
      createSession: tuiSessionFactory({ ...base, resume: earlier.sessionId }, (s) => created.push(s)),
    });
    try {
      await waitUntil(() => stdout.text().includes("EARLIER QUESTION") && stdout.text().includes("Ask Ink"), { what: "the continued session" });
      expect(created.map((s) => s.sessionId)).toEqual([earlier.sessionId]);
      stdin.type("/clear\r");
      await waitUntil(() => created.length === 2 && stdout.text().includes("new conversation"), { what: "the new conversation" });
      expect(stdout.text()).not.toMatch(/in use by process/);
      // The session left behind is named, as after /clear in a new one.
      expect(stdout.text().replace(/ *\n/g, " ")).toContain(`the previous one is saved: ${resumeCommand(earlier.sessionId)}`);
      expect(created[1]!.sessionId).not.toBe(earlier.sessionId);
      stdin.type("/exit\r");
      expect(await done).toBe(0);
    } finally {
      for (const s of created) s.close();
    }
  });
});

describe("frameRecorder (INK_BENCH_FRAMES)", () => {
  it("appends a line for each frame (its time, phases, GC within it and wait for a CPU) to the file when set, in batches; absent otherwise", async () => {
    expect(frameRecorder(undefined)).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), "ink-frames-"));
    try {
      const file = join(dir, "frames.txt");
      const record = frameRecorder(file)!;
      record({ renderTime: 1.23456 }); // a frame Ink drew: its time alone
      record({ renderTime: 20, start: performance.now(), phases: { rows: 2, cells: 1, diff: 12, write: 4, layout: 0.5 }, waited: 6 });
      expect(existsSync(file)).toBe(false); // written once the GC pauses within them are reported
      await new Promise((r) => setTimeout(r, FRAME_FLUSH_MS + 50));
      const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).map(parseFrameLine);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toEqual({ total: 1.235, rows: 0, cells: 0, diff: 0, write: 0, layout: 0, gc: 0, waited: 0 });
      expect(lines[1]).toMatchObject({ total: 20, rows: 2, cells: 1, diff: 12, write: 4, layout: 0.5, waited: 6 });
      expect(lines[1]!.gc).toBeGreaterThanOrEqual(0);
      expect(lines[1]!.gc).toBeLessThanOrEqual(20);
      // A file that cannot be written never breaks the UI.
      const broken = frameRecorder(join(dir, "missing", "x.txt"))!;
      expect(() => broken({ renderTime: 1 })).not.toThrow();
      await new Promise((r) => setTimeout(r, FRAME_FLUSH_MS + 50));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
