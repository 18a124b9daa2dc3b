/**
 * `sessions`: listing with 10 / 1,000 / 10,000 session files (the index warm, and rebuilt from
 * scratch), `ink -p --continue` with 10 and 10,000 sessions, and load + repair of a 10,000-entry
 * session file.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INDEX_FILE } from "../src/session/session-index.js";
import { SessionStore } from "../src/session/store.js";
import { CLI, spawnMedian, timeMedian, timeSpawn, type Figure } from "./stats.js";

const DAY = 86_400_000;

/** Writes `n` finished-looking session files (header + a few entries) for `cwd` into `inkHome`, all older than now. */
export function writeSessionFiles(inkHome: string, n: number, cwd: string): void {
  const dir = join(inkHome, "sessions");
  mkdirSync(dir, { recursive: true });
  const base = Date.now() - 30 * DAY;
  for (let i = 0; i < n; i++) {
    const id = `20250101-${String(Math.floor(i / 100000)).padStart(6, "0")}-${i.toString(16).padStart(6, "0")}`;
    const at = new Date(base + i * 1000).toISOString();
    const header = { type: "header", version: 1, id, kind: i % 4 === 3 ? "child" : "main", cwd: i % 2 ? cwd : `${cwd}-other`, provider: "demo", model: "demo", fingerprint: "f".repeat(16), toolNames: ["read", "bash", "grep", "find", "ls", "edit", "write", "task"], createdAt: at, prompt: `filler session ${i}: where is the login handled?` };
    const lines = [header, { type: "message", message: { role: "user", content: `filler ${i}` }, at }, { type: "message", message: { role: "assistant", content: [{ type: "text", text: "an answer of a few words" }], stopReason: "end_turn", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } }, at }, { type: "status", status: "done", at }];
    const path = join(dir, `${id}.jsonl`);
    writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const t = new Date(base + i * 1000);
    utimesSync(path, t, t);
  }
}

/** A session file of `entries` message entries ending in an unanswered tool call (so loading repairs it); returns its id. */
function writeLongSession(inkHome: string, entries: number, cwd: string): string {
  const dir = join(inkHome, "sessions");
  mkdirSync(dir, { recursive: true });
  const id = "20250202-000000-0long0";
  const at = new Date().toISOString();
  const lines: unknown[] = [{ type: "header", version: 1, id, kind: "main", cwd, provider: "demo", model: "demo", fingerprint: "f", toolNames: ["read"], createdAt: at, prompt: "long" }];
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };
  for (let i = 0; lines.length - 1 < entries; i++) {
    lines.push({ type: "message", message: { role: "user", content: `question ${i}: ${"lorem ipsum ".repeat(10)}` }, at });
    lines.push({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "reading" }, { type: "toolCall", id: `t${i}`, name: "read", arguments: { path: `f${i}.ts` } }], stopReason: "tool_use", usage }, at });
    lines.push({ type: "message", message: { role: "toolResult", results: [{ toolCallId: `t${i}`, toolName: "read", content: `content of f${i}\n`.repeat(8), isError: false }] }, at });
    lines.push({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `answer ${i} ${"dolor sit amet ".repeat(8)}` }], stopReason: "end_turn", usage }, at });
  }
  lines.length = entries; // ends mid-exchange
  lines.push({ type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: "dangling", name: "read", arguments: { path: "x" } }], stopReason: "tool_use", usage }, at });
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return id;
}

/** The sessions figures, medians of `runs`. */
export async function sessionFigures(runs: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  const cwd = mkdtempSync(join(tmpdir(), "ink-bench-cwd-"));
  const homes: string[] = [];
  try {
    for (const n of [10, 1000, 10_000]) {
      const home = mkdtempSync(join(tmpdir(), "ink-bench-sessions-"));
      homes.push(home);
      writeSessionFiles(home, n, cwd);
      const store = new SessionStore(home);
      const cold = await timeMedian(runs, () => {
        rmSync(join(store.dir, INDEX_FILE), { force: true });
        store.list({ cwd, kind: "main" });
      });
      store.list();
      let rows = 0;
      const warm = await timeMedian(runs, () => (rows = store.list({ cwd, kind: "main" }).length));
      figures.push({ group: "sessions", name: `list ${n.toLocaleString("en")} sessions (index warm)`, median: warm, unit: "ms", runs, extra: { rows } });
      if (n === 10_000) figures.push({ group: "sessions", name: `list ${n.toLocaleString("en")} sessions (index rebuilt)`, median: cold, unit: "ms", runs });
    }

    // ink -p --continue: a real session made by the CLI is the newest; the rest are filler.
    const continued: Record<number, number> = {};
    for (const n of [10, 10_000]) {
      const home = mkdtempSync(join(tmpdir(), "ink-bench-continue-"));
      homes.push(home);
      writeSessionFiles(home, n - 1, cwd);
      const env = { INK_HOME: home, INK_DEMO_DELAY_MS: "0" };
      await timeSpawn([CLI, "-p", "hello", "--provider", "demo", "--cwd", cwd], env);
      // One --continue first: it builds the index of the filler files (and the latest-session
      // record) once, so the median is of steady runs and not of that one-time build.
      await timeSpawn([CLI, "-p", "warm up", "--continue", "--provider", "demo", "--cwd", cwd], env);
      continued[n] = await spawnMedian(runs, [CLI, "-p", "hello again", "--continue", "--provider", "demo", "--cwd", cwd], env);
      figures.push({ group: "sessions", name: `ink -p --continue, ${n.toLocaleString("en")} sessions (demo model)`, median: continued[n]!, unit: "ms", runs });
    }
    figures.at(-1)!.note = `${(continued[10_000]! / continued[10]!).toFixed(2)}× the 10-session run`;

    const home = mkdtempSync(join(tmpdir(), "ink-bench-long-"));
    homes.push(home);
    const id = writeLongSession(home, 10_000, cwd);
    const store = new SessionStore(home);
    let repaired = false;
    const load = await timeMedian(runs, () => (repaired = store.load(id).repaired));
    if (!repaired) throw new Error("the 10,000-entry session was expected to need a repair");
    figures.push({ group: "sessions", name: "load + repair a 10,000-entry session", median: load, unit: "ms", runs });
  } finally {
    for (const h of homes) rmSync(h, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
  return figures;
}


