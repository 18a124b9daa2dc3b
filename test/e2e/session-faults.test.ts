/** A real CLI process against the loopback Anthropic server: sessions that survive their files, repair that keeps a sendable history, locks with clear ways out. */
import { execSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { CLI, makeLoginRepo, runCli } from "../helpers/cli.js";
import { bindReadOnly, fullDiskHome, mountReadOnly, type FullDiskHome } from "../helpers/full-disk.js";

let repo: string;
let server: FakeAnthropic;
let inkHome: string;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test builds first)`);
  repo = makeLoginRepo();
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
  rmSync(repo, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
});

const env = () => ({ INK_HOME: inkHome, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
const sessionFile = () => join(inkHome, "sessions", readdirSync(join(inkHome, "sessions")).find((f) => f.endsWith(".jsonl"))!);
const roles = (messages: Array<{ role: string }>) => messages.map((m) => m.role);

describe("sessions that survive their files", () => {
  it.each([
    ["a session file deleted", () => `rm -f ${join(inkHome, "sessions")}/*.jsonl`],
    ["the sessions directory removed", () => `rm -rf ${join(inkHome, "sessions")}`],
  ])("%s mid-run: one warning, the file is recreated, and --continue has every entry", async (_name, command) => {
    const rm = command();
    server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "bash", input: { command: rm } } }]), sseTurn([{ text: "first answer" }]));
    const run = await runCli(["-p", "delete it", "--cwd", repo, "--allow", "bash"], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("first answer");
    expect(run.stderr.match(/ink: warning: session file .* disappeared; recreated it /g)).toHaveLength(1);
    server.reset();
    server.enqueue(sseTurn([{ text: "second answer" }]));
    const again = await runCli(["-p", "and now?", "--cwd", repo, "--continue"], { env: env() });
    expect(again.code).toBe(0);
    const sent = server.requests[0]!.body.messages;
    expect(roles(sent)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(JSON.stringify(sent[0])).toContain("delete it");
    expect(JSON.stringify(sent[3])).toContain("first answer");
  });

  it("an unwritable sessions location: the session and its children run in memory with one visible warning", async () => {
    writeFileSync(join(inkHome, "sessions"), "a file where the sessions directory should be");
    const run = await runCli(["-p", "where is the login handled?", "--cwd", repo], { env: { INK_HOME: inkHome } }); // demo model: delegates to children
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("src/auth/login.ts");
    expect(run.stderr).toMatch(/ink: warning: session file .* cannot be created \(.*\); the session goes on in memory/);
    expect(run.stderr).toMatch(/▶ started/);
    expect(run.stderr).toMatch(/■ finished .*: ok/);
    expect(run.stderr).not.toMatch(/cannot save child session/);
  });

  it.for([
    ["the sessions directory", () => join(inkHome, "sessions")],
    ["INK_HOME itself (sessions/ cannot even be made)", () => inkHome],
  ] as const)("a read-only location (%s, a read-only mount): the session and its children run in memory with one warning each naming EROFS", async ([, where], ctx) => {
    const unmount = mountReadOnly(where());
    if (!unmount) return ctx.skip(); // mounting is not allowed here; the unwritable case above still runs
    try {
      server.enqueue(
        sseTurn([{ toolUse: { id: "tu_1", name: "task", input: { prompt: "look around" } } }]),
        sseTurn([{ text: "the child's report" }]),
        sseTurn([{ text: "final answer" }]),
      );
      const run = await runCli(["-p", "delegate", "--cwd", repo], { env: env() });
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe("final answer");
      expect(run.stderr.match(/warning: session file .* cannot be created \(EROFS.*\); the session goes on in memory/g)).toHaveLength(1);
      expect(run.stderr.match(/warning: child .*\[[0-9a-f]{6}\]: session file .* cannot be created \(EROFS/g)).toHaveLength(1);
      expect(run.stderr).toMatch(/■ finished .*: ok/);
      expect(run.stderr).toMatch(/ink: session \S+ was NOT fully saved \(EROFS/);
    } finally {
      unmount();
    }
  });

  it("--continue on a sessions directory that became read-only: the saved history is sent, the run answers without a lock and says it was not saved", async (ctx) => {
    server.enqueue(sseTurn([{ text: "first answer" }]));
    expect((await runCli(["-p", "first question", "--cwd", repo], { env: env() })).code).toBe(0);
    const before = readFileSync(sessionFile(), "utf8");
    const unmount = bindReadOnly(join(inkHome, "sessions"));
    if (!unmount) return ctx.skip(); // read-only mounts are not allowed here
    try {
      server.reset();
      server.enqueue(sseTurn([{ text: "second answer" }]));
      const again = await runCli(["-p", "second question", "--cwd", repo, "--continue"], { env: env() });
      expect(again.code).toBe(0);
      expect(again.stdout.trim()).toBe("second answer");
      expect(roles(server.requests[0]!.body.messages)).toEqual(["user", "assistant", "user"]);
      expect(JSON.stringify(server.requests[0]!.body.messages[1])).toContain("first answer");
      expect(again.stderr).toMatch(/ink: session \S+ runs without a lock: EROFS/);
      expect(again.stderr.match(/warning: session file .* cannot be written \(EROFS.*\); the session goes on in memory/g)).toHaveLength(1);
      expect(again.stderr).toMatch(/ink: session \S+ was NOT fully saved \(EROFS/);
      expect(readFileSync(sessionFile(), "utf8")).toBe(before);
    } finally {
      unmount();
    }
  });

  it("resuming a child (task resume) on a sessions directory that became read-only: the child runs in memory with its saved history", async (ctx) => {
    server.enqueue(
      sseTurn([{ toolUse: { id: "tu_1", name: "task", input: { prompt: "look around" } } }]),
      sseTurn([{ text: "first report" }]),
      sseTurn([{ text: "done" }]),
    );
    const first = await runCli(["-p", "delegate", "--cwd", repo], { env: env() });
    expect(first.code).toBe(0);
    const childId = /▶ started .*? \[(\S+)\]: /.exec(first.stderr)![1]!;
    const unmount = bindReadOnly(join(inkHome, "sessions"));
    if (!unmount) return ctx.skip(); // read-only mounts are not allowed here
    try {
      server.reset();
      server.enqueue(
        sseTurn([{ toolUse: { id: "tu_2", name: "task", input: { resume: childId, prompt: "look again" } } }]),
        sseTurn([{ text: "second report" }]),
        sseTurn([{ text: "done again" }]),
      );
      const again = await runCli(["-p", "resume the child", "--cwd", repo, "--continue"], { env: env() });
      expect(again.code).toBe(0);
      expect(again.stdout.trim()).toBe("done again");
      expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("first report"); // the child's saved history
      const taskResult = JSON.stringify(server.requests[2]!.body.messages.at(-1));
      expect(taskResult).toContain("second report");
      expect(taskResult).not.toMatch(/cannot be resumed|refused/i);
      expect(again.stderr).toMatch(new RegExp(`child .*\\[${childId.slice(-6)}\\]: session file .* cannot be written \\(EROFS`));
    } finally {
      unmount();
    }
  });

  describe.each(["tmpfs", "injected"] as const)("a full disk (%s)", (kind) => {
    let disk: FullDiskHome;
    beforeEach(() => {
      if (kind === "injected") process.env.INK_TEST_NO_TMPFS = "1";
      disk = fullDiskHome();
      delete process.env.INK_TEST_NO_TMPFS;
    });
    afterEach(() => disk.cleanup());

    it("the session and its child go on in memory with one warning each; once space is free again both are saved and --continue has every entry", async (ctx) => {
      if (kind === "tmpfs" && disk.kind !== "tmpfs") ctx.skip(); // mounting is not allowed here; the injected case still runs
      const env = { ...disk.env, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url };
      server.enqueue(
        sseTurn([{ toolUse: { id: "tu_1", name: "bash", input: { command: disk.fill } } }]),
        sseTurn([{ toolUse: { id: "tu_2", name: "task", input: { prompt: "look around" } } }]),
        sseTurn([{ toolUse: { id: "tu_c1", name: "bash", input: { command: disk.free } } }]), // the child frees the space
        sseTurn([{ text: "the child's report" }]),
        sseTurn([{ text: "final answer" }]),
      );
      const run = await runCli(["-p", "fill the disk", "--cwd", repo, "--yolo"], { env });
      expect(run.stderr).not.toMatch(/cannot save child session/);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe("final answer");
      expect(server.requests).toHaveLength(5);
      const taskResult = JSON.stringify(server.requests[4]!.body.messages.at(-1));
      expect(taskResult).toContain("the child's report");
      expect(taskResult).not.toContain("could not be saved"); // the child saved its transcript once space was back
      const childId = /child .*?\[[0-9a-f]{6}\]: session file \S*\/([^/\s]+)\.jsonl cannot be created/.exec(run.stderr)![1]!; // the person reads the short id; the file keeps the full one
      expect(run.stderr).toMatch(new RegExp(`child .*\\[${childId.slice(-6)}\\]: session file .*${childId}\\.jsonl is saved again`));
      expect(readFileSync(join(disk.home, "sessions", `${childId}.jsonl`), "utf8")).toContain("the child's report");
      const warnings = run.stderr.split("\n").filter((l) => l.includes("warning:"));
      const main = warnings.filter((l) => /session file .* cannot be written \(ENOSPC.*\); the session goes on in memory/.test(l));
      const child = warnings.filter((l) => /session file .* cannot be created \(ENOSPC.*\); the session goes on in memory/.test(l));
      expect(main).toHaveLength(1);
      expect(child).toHaveLength(1);
      expect(run.stderr).toMatch(/■ finished .*: ok/);
      expect(run.stderr).toMatch(/ink: warning: session file .* is saved again \(\d+ entries written from memory\)\n(.*\n)*ink: session \S+ saved; continue it/);
      expect(run.stderr).not.toContain("NOT fully saved");

      server.reset();
      server.enqueue(sseTurn([{ text: "second answer" }]));
      const again = await runCli(["-p", "and now?", "--cwd", repo, "--continue"], { env });
      expect(again.code).toBe(0);
      expect(again.stdout.trim()).toBe("second answer");
      const sent = server.requests[0]!.body.messages;
      expect(roles(sent)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant", "user"]);
      expect(JSON.stringify(sent[4])).toContain("the child's report");
      expect(JSON.stringify(sent[5])).toContain("final answer");
    });

    it("a disk that stays full: the answer is printed and stderr says the session was not fully saved; --continue later has what was saved", async (ctx) => {
      if (kind === "tmpfs" && disk.kind !== "tmpfs") ctx.skip();
      const env = { ...disk.env, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url };
      server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "bash", input: { command: disk.fill } } }]), sseTurn([{ text: "final answer" }]));
      const run = await runCli(["-p", "fill the disk", "--cwd", repo, "--yolo"], { env });
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe("final answer");
      expect(run.stderr).toMatch(/ink: session \S+ was NOT fully saved \(ENOSPC.*\); this run's answer is above, but --continue will miss what was not written — free disk space or check INK_HOME/);
      expect(run.stderr).not.toMatch(/saved; continue it/);

      server.reset();
      server.enqueue(sseTurn([{ text: "second answer" }]));
      execSync(disk.free);
      const again = await runCli(["-p", "and now?", "--cwd", repo, "--continue"], { env });
      expect(again.code).toBe(0);
      const sent = server.requests[0]!.body.messages as Array<{ role: string }>;
      expect(JSON.stringify(sent[0])).toContain("fill the disk");
      expect(sent[0]!.role).toBe("user");
      expect(roles(sent)).toEqual(["user", "assistant", "user"]); // the call whose result was never saved is closed
      expect(JSON.stringify(sent[2])).toContain("and now?");
    });
  });

  it("a malformed first message line: --continue sends a history that starts with a user turn and alternates", async () => {
    server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "ls", input: {} } }]), sseTurn([{ text: "first answer" }]));
    expect((await runCli(["-p", "list it", "--cwd", repo], { env: env() })).code).toBe(0);
    const path = sessionFile();
    const lines = readFileSync(path, "utf8").split("\n");
    lines[1] = '{"type":"message","message":{"role":"user","cont'; // damaged
    writeFileSync(path, lines.join("\n"));
    server.reset();
    server.enqueue(sseTurn([{ text: "second answer" }]));
    const again = await runCli(["-p", "go on", "--cwd", repo, "--continue"], { env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe("second answer");
    const sent = server.requests[0]!.body.messages as Array<{ role: string; content: unknown }>;
    expect(sent[0]!.role).toBe("user");
    expect(JSON.stringify(sent[0])).toContain("could not be read");
    expect(roles(sent)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  });
});

describe("locks with clear ways out", () => {
  async function oneSession(): Promise<string> {
    server.enqueue(sseTurn([{ text: "hi" }]));
    expect((await runCli(["-p", "hello", "--cwd", repo], { env: env() })).code).toBe(0);
    server.reset();
    return sessionFile();
  }

  it("a lock naming a live but unrelated process (a reused pid) is taken over, and the takeover is reported", async () => {
    const path = await oneSession();
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: other.pid, hostname: hostname(), startedAt: "2026-01-01T00:00:00.000Z", procStart: "1", token: "old" }));
      server.enqueue(sseTurn([{ text: "resumed" }]));
      const run = await runCli(["-p", "again", "--cwd", repo, "--continue"], { env: env() });
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe("resumed");
      expect(run.stderr).toMatch(new RegExp(`took over the lock of session .* from process ${other.pid} .*since 2026-01-01T00:00:00.000Z.*now belongs to another process`));
    } finally {
      other.kill();
    }
  });

  it("a live holder is refused naming who holds it since when", async () => {
    const path = await oneSession();
    const { processStartTime } = await import("../../src/session/process-identity.js");
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 50));
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: other.pid, hostname: hostname(), startedAt: "2026-01-01T00:00:00.000Z", procStart: processStartTime(other.pid!), owner: "main session" }));
      const run = await runCli(["-p", "again", "--cwd", repo, "--continue"], { env: env() });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`is in use by process ${other.pid} \\(main session\\) since 2026-01-01T00:00:00.000Z; wait for it to finish or stop it`));
    } finally {
      other.kill();
    }
  });

  it("an old-format lock (no process identity) naming a live unrelated process says what runs there and how to take it; --take-over-lock does", async () => {
    const path = await oneSession();
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      for (let i = 0; i < 100 && !readFileSync(`/proc/${other.pid}/cmdline`, "latin1").startsWith("sleep"); i++) await new Promise((r) => setTimeout(r, 10));
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: other.pid, hostname: hostname(), startedAt: "2025-05-05T00:00:00.000Z" }));
      const refused = await runCli(["-p", "again", "--cwd", repo, "--continue"], { env: env() });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`lock in an older format naming process ${other.pid} since 2025-05-05T00:00:00.000Z (pid ${other.pid} now runs: sleep 30)`);
      expect(refused.stderr).toContain("take the lock over with --take-over-lock");
      server.enqueue(sseTurn([{ text: "old lock taken" }]));
      const taken = await runCli(["-p", "again", "--cwd", repo, "--continue", "--take-over-lock"], { env: env() });
      expect(taken.code).toBe(0);
      expect(taken.stdout.trim()).toBe("old lock taken");
    } finally {
      other.kill();
    }
  });

  it("another host's lock is refused naming the host and since when, never 'delete the file'; --take-over-lock takes it over", async () => {
    const path = await oneSession();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 4242, hostname: "build-box-7", startedAt: "2026-03-04T05:06:07.000Z", heartbeatAt: "2026-03-04T06:00:00.000Z" }));
    const refused = await runCli(["-p", "again", "--cwd", repo, "--continue"], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("in use by process 4242 on host build-box-7 since 2026-03-04T05:06:07.000Z, last heartbeat 2026-03-04T06:00:00.000Z");
    expect(refused.stderr).toContain("--take-over-lock");
    expect(refused.stderr).not.toMatch(/delete/i);
    server.enqueue(sseTurn([{ text: "taken over" }]));
    const taken = await runCli(["-p", "again", "--cwd", repo, "--continue", "--take-over-lock"], { env: env() });
    expect(taken.code).toBe(0);
    expect(taken.stdout.trim()).toBe("taken over");
    expect(taken.stderr).toMatch(/took over the lock .* from process 4242 on build-box-7/);
  });
});
