/**
 * `ink -p "/rewind …"` and `ink -p "/merge …"` (issue #40, "ink -p gets the same as an op"): with
 * --continue or --resume they do on that saved session what the TUI's commands do, print the answer
 * and exit 0; a refusal exits 1 with the reason; without a saved session they say how to name one.
 * The real CLI against a loopback Messages API; the model is never asked.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/build.js";
import { makeLoginRepo, runCli } from "../helpers/cli.js";
import { scriptByPrompt } from "../helpers/acp-client.js";
import { sseTurn, startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic-server.js";

let server: FakeAnthropic;
let repo: string;
let home: string;
beforeAll(async () => {
  ensureBuilt();
  server = await startFakeAnthropic();
  repo = makeLoginRepo();
  home = mkdtempSync(join(tmpdir(), "ink-p-rw-home-"));
});
afterAll(async () => {
  await server?.close();
  for (const dir of [repo, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const ink = (...args: string[]) => runCli(["--cwd", repo, ...args], { env: { INK_HOME: home, INK_CLAUDE_HOME: join(home, "no-claude"), ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url } });
const modelCalls = () => server.requests.filter((r) => r.path.startsWith("/v1/messages")).length;

it("lists the turns and rewinds the files of a continued session; a bad turn, /merge hand with no conflict and a fresh session exit 1 with the reason", async () => {
  scriptByPrompt(server, { "EDIT-IT": [sseTurn([{ toolUse: { id: "w1", name: "write", input: { path: "README.md", content: "# changed by the agent\n" } } }]), sseTurn([{ text: "edited" }])] });
  const edit = await ink("-p", "EDIT-IT please", "--yolo");
  expect(edit.code).toBe(0);
  expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("# changed by the agent\n");
  const sessionId = /session (\S+) saved/.exec(edit.stderr)![1]!;
  const calls = modelCalls();

  const listed = await ink("-p", "/rewind", "--continue");
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(`turn 1 "EDIT-IT please" — main: README.md +1 −1`);

  const bad = await ink("-p", "/rewind 7", "--resume", sessionId);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("ink: error: /rewind: no checkpoint for turn 7: turns 1–1 are kept");

  const json = await ink("-p", "/rewind 1 files", "--continue", "--output", "json");
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout.trim())).toEqual({ type: "command_result", command: "rewind", ok: true, text: "rewound to before turn 1: restored 1 file (README.md)" });
  expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("# shop\n");

  const branches = await ink("-p", "/merge", "--continue");
  expect(branches.code).toBe(0);
  expect(branches.stdout).toContain("No kept worktree branches in this session");
  const hand = await ink("-p", "/merge hand", "--continue");
  expect(hand.code).toBe(1);
  expect(hand.stderr).toContain("ink: error: /merge hand: no merge stopped at a conflict in this session");

  const fresh = await ink("-p", "/rewind");
  expect(fresh.code).toBe(1);
  expect(fresh.stderr).toContain('-p "/rewind" works on a saved session');
  expect(fresh.stderr).toContain("--continue");
  expect(modelCalls()).toBe(calls);
}, 120_000); // seven runs of the CLI

it("the listing names a child that changed files by its description and short id, as the panes do", async () => {
  scriptByPrompt(server, {
    "DELEGATE-IT": [sseTurn([{ toolUse: { id: "t1", name: "task", input: { description: "rewrite the readme", prompt: "KID-WRITE the readme" } } }]), sseTurn([{ text: "delegated" }])],
    "KID-WRITE": [sseTurn([{ toolUse: { id: "w1", name: "write", input: { path: "README.md", content: "# changed by the child\n" } } }]), sseTurn([{ text: "written" }])],
  });
  const run = await ink("-p", "DELEGATE-IT please", "--yolo");
  expect(run.code).toBe(0);
  expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("# changed by the child\n");
  const listed = await ink("-p", "/rewind", "--continue");
  expect(listed.code).toBe(0);
  const line = listed.stdout.split("\n").find((l) => l.includes("DELEGATE-IT please"));
  expect(line).toMatch(/ — general · rewrite the readme \[[0-9a-z]{4,8}\]: README\.md \+1 −1$/);
  expect((await ink("-p", "/rewind 1 files", "--continue")).code).toBe(0); // a clean tree for the next test
}, 60_000);

it("/merge says on stderr that it started merging before git works, then prints what it merged", async () => {
  scriptByPrompt(server, {
    "WORKTREE-IT": [sseTurn([{ toolUse: { id: "t2", name: "task", input: { description: "write the notes", prompt: "KID-NOTES now", worktree: true } } }]), sseTurn([{ text: "delegated" }])],
    "KID-NOTES": [sseTurn([{ toolUse: { id: "w2", name: "write", input: { path: "NOTES.md", content: "# notes\n" } } }]), sseTurn([{ text: "noted" }])],
  });
  expect((await ink("-p", "WORKTREE-IT please", "--yolo")).code).toBe(0);
  const merged = await ink("-p", "/merge all", "--continue");
  expect(merged.stderr).toContain("ink: merging 1 branch…\n");
  expect(merged, merged.stderr).toMatchObject({ code: 0 });
  expect(merged.stdout).toContain("/merge: merged");
  expect(readFileSync(join(repo, "NOTES.md"), "utf8")).toBe("# notes\n");
}, 60_000);
