/** The checkpoint store (issue #40): snapshots in a shadow git store, per-turn listing, file rewind, the person's later change refused, the bound. */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { CheckpointStore } from "../../src/checkpoints/store.js";
import { git, tempDir } from "../helpers/temp-git.js";

const main = { id: "main", label: "main" };
const child = { id: "c1", label: "general" };

function project(): string {
  const cwd = tempDir("ink-cp-cwd-");
  git(cwd, "init", "-q");
  writeFileSync(join(cwd, "a.ts"), "one\ntwo\n");
  writeFileSync(join(cwd, "b.ts"), "b\n");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-qm", "init");
  return cwd;
}
const turnInfo = (prompt: string) => ({ historyLength: 0, head: "", prompt });

it("records each change with its turn, agent, files and +/- lines, outside the project and without touching the person's index", async () => {
  const cwd = project();
  const inkHome = tempDir("ink-cp-home-");
  writeFileSync(join(cwd, "staged.ts"), "s\n");
  git(cwd, "add", "staged.ts");
  const indexBefore = readFileSync(join(cwd, ".git", "index"));
  const store = new CheckpointStore({ inkHome, sessionId: "s1", cwd });
  await store.beginTurn(turnInfo("fix a"));
  await store.before("e1", main, "edit", ["a.ts"]);
  writeFileSync(join(cwd, "a.ts"), "one\nTWO\nthree\n");
  await store.after("e1");
  await store.before("b1", child, "bash");
  writeFileSync(join(cwd, "new.ts"), "x\ny\n");
  await store.after("b1");
  const [turn] = store.turns();
  expect(turn!.prompt).toBe("fix a");
  expect(turn!.changes).toEqual([
    { agent: main, files: [{ path: "a.ts", added: 2, removed: 1 }] },
    { agent: child, files: [{ path: "new.ts", added: 2, removed: 0 }] },
  ]);
  expect(existsSync(join(inkHome, "checkpoints", "s1", "git", "HEAD"))).toBe(true);
  expect(readFileSync(join(cwd, ".git", "index")).equals(indexBefore)).toBe(true);
  expect(git(cwd, "status", "--porcelain")).toContain("A  staged.ts");
  // a resumed session reads the same store
  expect(new CheckpointStore({ inkHome, sessionId: "s1", cwd }).turns()).toEqual(store.turns());
});

it("rewinds files to just before a turn: edited files back, created files removed, earlier turns kept", async () => {
  const cwd = project();
  const store = new CheckpointStore({ inkHome: tempDir("ink-cp-home-"), sessionId: "s1", cwd });
  await store.beginTurn(turnInfo("first"));
  await store.before("e1", main, "edit", ["a.ts"]);
  writeFileSync(join(cwd, "a.ts"), "turn1\n");
  await store.after("e1");
  await store.beginTurn(turnInfo("second"));
  await store.before("e2", main, "write", ["a.ts"]);
  writeFileSync(join(cwd, "a.ts"), "turn2\n");
  await store.after("e2");
  await store.before("b2", child, "bash");
  writeFileSync(join(cwd, "made.ts"), "made\n");
  writeFileSync(join(cwd, "b.ts"), "b changed\n");
  await store.after("b2");
  const r = await store.rewindFiles(2);
  expect(r.changedSince).toEqual([]);
  expect(r.restored.sort()).toEqual(["a.ts", "b.ts", "made.ts"]);
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("turn1\n");
  expect(readFileSync(join(cwd, "b.ts"), "utf8")).toBe("b\n");
  expect(existsSync(join(cwd, "made.ts"))).toBe(false);
  // and then back to before the first turn
  await store.rewindFiles(1);
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("one\ntwo\n");
});

it("names a file the person changed since and writes nothing without force", async () => {
  const cwd = project();
  const store = new CheckpointStore({ inkHome: tempDir("ink-cp-home-"), sessionId: "s1", cwd });
  await store.beginTurn(turnInfo("t"));
  await store.before("e1", main, "edit", ["a.ts"]);
  writeFileSync(join(cwd, "a.ts"), "agent\n");
  await store.after("e1");
  await store.before("e2", main, "edit", ["b.ts"]);
  writeFileSync(join(cwd, "b.ts"), "agent b\n");
  await store.after("e2");
  writeFileSync(join(cwd, "a.ts"), "person\n");
  const refused = await store.rewindFiles(1);
  expect(refused).toEqual({ restored: [], changedSince: ["a.ts"] });
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("person\n");
  expect(readFileSync(join(cwd, "b.ts"), "utf8")).toBe("agent b\n");
  const forced = await store.rewindFiles(1, { force: true });
  expect(forced.restored.sort()).toEqual(["a.ts", "b.ts"]);
  expect(readFileSync(join(cwd, "a.ts"), "utf8")).toBe("one\ntwo\n");
});

it("keeps at most maxTurns turns: the oldest turns and the snapshots only they used are dropped", async () => {
  const cwd = project();
  const inkHome = tempDir("ink-cp-home-");
  const store = new CheckpointStore({ inkHome, sessionId: "s1", cwd, maxTurns: 3 });
  for (let t = 1; t <= 8; t++) {
    await store.beginTurn(turnInfo(`turn ${t}`));
    await store.before(`e${t}`, main, "write", [`f${t}.ts`]);
    writeFileSync(join(cwd, `f${t}.ts`), `content of turn ${t} ${"x".repeat(5000 + t)}\n`);
    await store.after(`e${t}`);
    expect(store.turns().length).toBeLessThanOrEqual(3);
  }
  expect(store.turns().map((t) => t.turn)).toEqual([6, 7, 8]);
  const gitDir = join(inkHome, "checkpoints", "s1", "git");
  const refs = execFileSync("git", ["--git-dir", gitDir, "for-each-ref", "--format=%(refname)"], { encoding: "utf8" }).trim().split("\n");
  // turn 6's pre, 6/7's post, 7/8's post… : never more than two trees per kept change
  expect(refs.length).toBeLessThanOrEqual(6);
  expect(new CheckpointStore({ inkHome, sessionId: "s1", cwd }).turns().map((t) => t.turn)).toEqual([6, 7, 8]);
});

it("keeps the objects under maxBytes by dropping the oldest turns", async () => {
  const cwd = project();
  const store = new CheckpointStore({ inkHome: tempDir("ink-cp-home-"), sessionId: "s1", cwd, maxBytes: 300 * 1024 });
  for (let t = 1; t <= 10; t++) {
    await store.beginTurn(turnInfo(`turn ${t}`));
    await store.before(`e${t}`, main, "write", ["big.txt"]);
    writeFileSync(join(cwd, "big.txt"), randomBytes(80 * 1024).toString("base64")); // incompressible: ~80 KB a version
    await store.after(`e${t}`);
  }
  await store.enforceBound();
  expect(await store.sizeBytes()).toBeLessThanOrEqual(300 * 1024);
  expect(store.turns().length).toBeGreaterThan(0);
  expect(store.turns().length).toBeLessThan(10);
});

it("removes the checkpoint folders of deleted sessions at start (not the current one, a live one, or one changed within the grace)", async () => {
  const { mkdirSync, utimesSync } = await import("node:fs");
  const { AgentSession } = await import("../../src/host/agent-session.js");
  const { createScriptedProvider } = await import("../../src/providers/scripted.js");
  const cwd = project();
  const inkHome = tempDir("ink-cp-home-");
  const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
  const folder = (id: string, age?: Date) => {
    const dir = join(inkHome, "checkpoints", id);
    mkdirSync(join(dir, "git"), { recursive: true });
    writeFileSync(join(dir, "index.jsonl"), "");
    if (age) {
      utimesSync(join(dir, "index.jsonl"), age, age);
      utimesSync(dir, age, age);
    }
    return dir;
  };
  mkdirSync(join(inkHome, "sessions"), { recursive: true });
  writeFileSync(join(inkHome, "sessions", "20260101-000000-aaaaaa.jsonl"), "");
  const live = folder("20260101-000000-aaaaaa", old);
  const deleted = folder("20260101-000000-bbbbbb", old);
  const fresh = folder("20260101-000000-cccccc");
  const notOurs = join(inkHome, "checkpoints", "something-else");
  mkdirSync(notOurs, { recursive: true });
  utimesSync(notOurs, old, old);
  const session = new AgentSession({ cwd, inkHome, provider: createScriptedProvider(() => ({ text: "ok" })), model: "m", interactive: true, approval: {} });
  try {
    expect(existsSync(deleted)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(notOurs)).toBe(true);
  } finally {
    session.close();
  }
});
