import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, sseTurn, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";
import { CLI, makeLoginRepo, runCli } from "../helpers/cli.js";

let repo: string;
let inkHome: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test builds first)`);
  repo = makeLoginRepo();
  inkHome = mkdtempSync(join(tmpdir(), "ink-home-"));
});
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(inkHome, { recursive: true, force: true });
});

describe("ink -p with the demo model", () => {
  it("answers where the login is handled, from two concurrent children's reports", async () => {
    const run = await runCli(["-p", "where is the login handled?", "--cwd", repo], { env: { INK_HOME: inkHome } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("src/auth/login.ts");
    expect(run.stdout).toContain("handleLogin");
    const lines = run.stderr.split("\n");
    const starts = lines.map((l, i) => (/▶ started/.test(l) ? i : -1)).filter((i) => i >= 0);
    const ends = lines.map((l, i) => (/■ finished .*: ok/.test(l) ? i : -1)).filter((i) => i >= 0);
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(ends.length).toBe(starts.length);
    // concurrent: the second child started before the first one ended
    expect(starts[1]!).toBeLessThan(ends[0]!);
    expect(run.stderr).toMatch(/offline demo model/i);
    // child sessions were saved under INK_HOME
    expect(readdirSync(join(inkHome, "sessions")).filter((f) => f.endsWith(".jsonl")).length).toBeGreaterThanOrEqual(3);
  });

  it("--output json prints every event of the whole tree as JSON lines", async () => {
    const run = await runCli(["-p", "where is the login handled?", "--cwd", repo, "--output", "json"], { env: { INK_HOME: inkHome } });
    expect(run.code).toBe(0);
    const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; event?: { type: string } });
    expect(events[0]!.type).toBe("agent_start");
    expect(events.filter((e) => e.type === "subagent_start").length).toBeGreaterThanOrEqual(2);
    expect(events.some((e) => e.type === "subagent_event" && e.event?.type === "tool_end")).toBe(true);
    expect(events.at(-1)!.type).toBe("agent_end");
  });

  it("bad input: unknown flag and unknown provider exit 1 with a clear message", async () => {
    const bad = await runCli(["-p", "x", "--frobnicate"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/frobnicate.*\n.*ink --help/s);
    const provider = await runCli(["-p", "x", "--provider", "openai"]);
    expect(provider.code).toBe(1);
    expect(provider.stderr).toContain('unknown provider "openai"; choose one of: anthropic, demo');
    const nokey = await runCli(["-p", "x", "--provider", "anthropic"]);
    expect(nokey.code).toBe(1);
    expect(nokey.stderr).toContain("needs ANTHROPIC_API_KEY");
  });
});

describe("ink -p against an Anthropic-compatible server", () => {
  let server: FakeAnthropic;
  beforeAll(async () => {
    server = await startFakeAnthropic();
  });
  afterAll(() => server.close());

  const env = () => ({ INK_HOME: inkHome, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });

  it("streams the server's answer to stdout", async () => {
    server.reset();
    server.enqueue(sseTurn([{ text: "The login lives in src/auth/login.ts, says the server." }]));
    const run = await runCli(["-p", "where is the login handled?", "--cwd", repo], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("The login lives in src/auth/login.ts, says the server.");
    expect(server.requests[0]!.body.messages[0]).toMatchObject({ role: "user" });
    expect(JSON.stringify(server.requests[0]!.body.messages[0])).toContain("where is the login handled?");
  });

  it("--thinking turns on extended thinking with the level's budget; a bad level is a usage error", async () => {
    server.reset();
    server.enqueue(sseTurn([{ thinking: "pondering", signature: "sig" }, { text: "thought about it" }]));
    const run = await runCli(["-p", "think", "--cwd", repo, "--thinking", "high"], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("thought about it");
    expect(server.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 32000 });
    const bad = await runCli(["-p", "think", "--thinking", "extreme"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--thinking: "extreme" is not a thinking level; use off, minimal/);
  });

  it("headless refuses bash without --allow (the model sees why) and runs it with --allow bash", async () => {
    server.reset();
    server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "bash", input: { command: "echo hi-from-bash" } } }]), sseTurn([{ text: "ok" }]));
    const refused = await runCli(["-p", "run it", "--cwd", repo], { env: env() });
    expect(refused.code).toBe(0);
    const sent = JSON.stringify(server.requests[1]!.body.messages.at(-1));
    expect(sent).toContain("needs approval");
    expect(sent).toContain("--allow bash");
    server.reset();
    server.enqueue(sseTurn([{ toolUse: { id: "tu_1", name: "bash", input: { command: "echo hi-from-bash" } } }]), sseTurn([{ text: "ok" }]));
    const allowed = await runCli(["-p", "run it", "--cwd", repo, "--allow", "bash"], { env: env() });
    expect(allowed.code).toBe(0);
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1))).toContain("hi-from-bash");
  });

  it("an API error exits 1 with the API's message; SIGINT exits 130", async () => {
    server.reset();
    server.enqueue({ kind: "http_error", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "model: unknown model foo" } } });
    const failed = await runCli(["-p", "x", "--cwd", repo, "--model", "foo"], { env: env() });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("unknown model foo");
    server.reset();
    server.enqueue({ kind: "stall" });
    let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
    const pending = runCli(["-p", "x", "--cwd", repo], { env: env(), onSpawn: (c) => (child = c) });
    // wait until the request reached the server, then interrupt
    for (let i = 0; i < 200 && server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(server.requests.length).toBe(1);
    child!.kill("SIGINT");
    const interrupted = await pending;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain("interrupted");
  });

  it("Claude Code's effortLevel (.claude/settings.json of a trusted project) goes as the effort to a model that takes one when no thinking is set", async () => {
    const project = mkdtempSync(join(tmpdir(), "ink-effort-"));
    try {
      mkdirSync(join(project, ".claude"));
      writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ effortLevel: "low" }));
      server.reset();
      server.enqueue(sseTurn([{ text: "ok" }]), sseTurn([{ text: "ok" }]), sseTurn([{ text: "ok" }]));
      expect((await runCli(["-p", "x", "--cwd", project, "--trust", "--model", "claude-opus-4-6"], { env: env() })).code).toBe(0);
      expect((await runCli(["-p", "x", "--cwd", project, "--trust", "--model", "claude-opus-4-6", "--thinking", "high"], { env: env() })).code).toBe(0);
      expect((await runCli(["-p", "x", "--cwd", project, "--trust", "--model", "claude-sonnet-4-5"], { env: env() })).code).toBe(0);
      expect(server.requests.map((r) => r.body.output_config)).toEqual([{ effort: "low" }, { effort: "high" }, undefined]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("--model opus with a stale cached list answers at once and exits without waiting for a slow model list; a list in time is cached", async () => {
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const cache = join(home, "cache", "models.json");
    const opus = (id: string, createdAt: string) => ({ type: "model", id, display_name: id, created_at: createdAt, line: "opus", lifecycle: "active" });
    mkdirSync(join(home, "cache"));
    writeFileSync(cache, JSON.stringify({ [server.url]: { source: server.url, fetchedAt: 0, models: [{ id: "claude-opus-9-0", line: "opus", createdAt: "2026-09-01T00:00:00Z" }] } }));
    try {
      server.reset();
      server.setModels([opus("claude-opus-9-1", "2026-11-01T00:00:00Z")], { delayMs: 30_000 });
      server.enqueue(sseTurn([{ text: "ok" }]));
      const started = Date.now();
      const slow = await runCli(["-p", "x", "--cwd", repo, "--model", "opus"], { env: { ...env(), INK_HOME: home } });
      expect(slow.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.requests[0]!.body.model).toBe("claude-opus-9-0");
      expect(await server.modelRequests[0]!.finished).toBe("client_closed");
      expect(JSON.parse(readFileSync(cache, "utf8"))[server.url].fetchedAt).toBe(0);
      // A list that comes while the run lasts is cached for the next run.
      server.reset();
      server.setModels([opus("claude-opus-9-1", "2026-11-01T00:00:00Z")]);
      server.enqueue(sseTurn([{ text: "ok" }], { delayMs: 100 }));
      expect((await runCli(["-p", "x", "--cwd", repo, "--model", "opus"], { env: { ...env(), INK_HOME: home } })).code).toBe(0);
      const fresh = JSON.parse(readFileSync(cache, "utf8"))[server.url];
      expect(fresh.fetchedAt).toBeGreaterThan(started);
      expect(fresh.models.map((m: { id: string }) => m.id)).toEqual(["claude-opus-9-1"]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("ink -p with project agent profiles", () => {
  it("skips untrusted project profiles with a notice; --trust loads scout and remembers; an edit needs re-trust", async () => {
    const { copyFileSync, mkdirSync, appendFileSync } = await import("node:fs");
    const project = makeLoginRepo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    mkdirSync(join(project, ".ink", "agents"), { recursive: true });
    copyFileSync(join(import.meta.dirname, "..", "..", ".ink", "agents", "scout.md"), join(project, ".ink", "agents", "scout.md"));
    const ask = (...flags: string[]) => runCli(["-p", "where is the login handled?", "--cwd", project, ...flags], { env: { INK_HOME: home } });

    const untrusted = await ask();
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toMatch(/Skipped 1 project agent profile.*not trusted.*--trust/);
    expect(untrusted.stderr).toContain("started general");
    expect(untrusted.stderr).not.toContain("started scout");

    const trusted = await ask("--trust");
    expect(trusted.stderr).toContain("started scout");
    expect(trusted.stdout).toContain("src/auth/login.ts");

    const remembered = await ask();
    expect(remembered.stderr).toContain("started scout");

    appendFileSync(join(project, ".ink", "agents", "scout.md"), "\nAlso check the docs.\n");
    const edited = await ask();
    expect(edited.stderr).toMatch(/scout\.md changed since you trusted this project/);
    expect(edited.stderr).not.toContain("started scout");
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
});

describe("ink --continue / --resume", () => {
  it("continues the last main session of the directory with its history; --resume without id lists sessions", async () => {
    const project = makeLoginRepo();
    const home = mkdtempSync(join(tmpdir(), "ink-home-"));
    const env = { INK_HOME: home };
    const first = await runCli(["-p", "where is the login handled?", "--cwd", project], { env });
    const id = /session (\S+) saved/.exec(first.stderr)![1]!;
    const second = await runCli(["-p", "and the billing?", "--cwd", project, "--continue"], { env });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`session ${id} saved`);
    const { readFileSync } = await import("node:fs");
    const lines = readFileSync(join(home, "sessions", `${id}.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const prompts = lines.filter((l) => l.type === "message" && l.message.role === "user" && typeof l.message.content === "string").map((l) => l.message.content);
    expect(prompts).toEqual(["where is the login handled?", "and the billing?"]);

    const list = await runCli(["-p", "x", "--cwd", project, "--resume"], { env });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain("--resume needs a session id");
    expect(list.stderr).toContain(id);
    expect(list.stderr).toContain("where is the login handled?");

    const child = lines.find((l) => l.type === "task_record").record.sessionId;
    const wrong = await runCli(["-p", "x", "--cwd", project, "--resume", child], { env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`session ${child} is a child session`);
    const missing = await runCli(["-p", "x", "--cwd", project, "--resume", "20200101-000000-aaaaaa"], { env });
    expect(missing.stderr).toMatch(/unknown session "20200101-000000-aaaaaa": there is no .* in .*sessions/);
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
});
