/**
 * The TUI draws its first full frame before it reads any saved session: the real CLI in a pty
 * (util-linux `script`), with a preload that logs every file under $INK_HOME/sessions that fs
 * opens, reads, lists or stats, and the moment the prompt box ("Ask Ink") is first written.
 * - `ink --resume` (the picker) lists the sessions only after the first frame;
 * - `ink --continue` finds the newest session from the index, reading no other session file;
 * - an MCP server of settings.json is started after the first frame.
 * Skipped without `script`.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INDEX_FILE } from "../../src/session/session-index.js";
import { SessionStore } from "../../src/session/store.js";
import { BUILT_CLI, ensureBuilt } from "../helpers/build.js";

const hasScript = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
let dir = "";

const PRELOAD = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const log = process.env.INK_TEST_FS_LOG;
const sessions = process.env.INK_HOME + "/sessions";
const note = (line) => fs.appendFileSync(log, line + "\\n");
for (const name of ["openSync", "readFileSync", "readdirSync", "statSync"]) {
  const original = fs[name];
  fs[name] = function (path, ...rest) {
    if (typeof path === "string" && path.startsWith(sessions)) note(name + " " + path.slice(sessions.length + 1));
    return original.call(this, path, ...rest);
  };
}
syncBuiltinESMExports();
const write = process.stdout.write.bind(process.stdout);
let drawn = false;
process.stdout.write = (chunk, ...rest) => {
  if (!drawn && String(chunk).replace(/\\u001b\\[[0-9;?]*[ -\\/]*[@-~]/g, "").includes("Ask Ink")) {
    drawn = true;
    note("FRAME");
  }
  return write(chunk, ...rest);
};
`;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "ink-first-frame-"));
  writeFileSync(join(dir, "preload.mjs"), PRELOAD);
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the TUI with `args` in a pty until `done(log)` holds (then Ctrl-C twice); returns the fs log lines. */
function runTui(name: string, args: string[], done: (log: string[]) => boolean, home: string, cwd: string): Promise<string[]> {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, "");
  const read = () => readFileSync(log, "utf8").split("\n").filter(Boolean);
  const command = [process.execPath, "--import", join(dir, "preload.mjs"), BUILT_CLI, "--cwd", cwd, ...args].map(quote).join(" ");
  const child = spawn("script", ["-qfec", `stty rows 40 cols 120; exec ${command}`, "/dev/null"], {
    env: { ...process.env, INK_HOME: home, INK_TEST_FS_LOG: log, ANTHROPIC_API_KEY: "", ANTHROPIC_BASE_URL: "", INK_DEMO_DELAY_MS: "0" },
    stdio: ["pipe", "ignore", "ignore"],
  });
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const lines = read();
      if (done(lines)) {
        clearInterval(timer);
        child.stdin.write("\u0003");
        setTimeout(() => child.stdin.write("\u0003"), 200);
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
        child.on("close", () => resolve(read()));
      } else if (Date.now() - started > 20_000) {
        clearInterval(timer);
        child.kill("SIGKILL");
        reject(new Error(`timed out; fs log:\n${lines.join("\n")}`));
      }
    }, 50);
  });
}

/** `n` finished main sessions for `cwd` in a new INK_HOME (index written, as runs leave it). */
function homeWithSessions(n: number, cwd: string): { home: string; ids: string[] } {
  const home = mkdtempSync(join(dir, "home-"));
  const store = new SessionStore(home);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = store.create({ kind: "main", cwd, provider: "demo", model: "demo", fingerprint: "f", toolNames: [], prompt: `saved task ${i}` });
    const lock = store.lock(w.id);
    w.append({ type: "message", message: { role: "user", content: `saved task ${i}` } });
    lock.release();
    ids.push(w.id);
  }
  return { home, ids };
}

const sessionReads = (lines: string[]) => lines.filter((l) => l !== "FRAME" && l.endsWith(".jsonl"));

describe.skipIf(!hasScript)("first TUI frame before any session scan", () => {
  it("the --resume picker reads the saved sessions only after the first frame", async () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const { home } = homeWithSessions(12, cwd);
    rmSync(join(home, "sessions", INDEX_FILE)); // the listing has to read every file
    const lines = await runTui("picker", ["--resume"], (l) => l.includes("FRAME") && sessionReads(l).length >= 12, home, cwd);
    const frame = lines.indexOf("FRAME");
    expect(frame).toBeGreaterThanOrEqual(0);
    expect(sessionReads(lines.slice(0, frame))).toEqual([]);
    expect(new Set(sessionReads(lines.slice(frame)).map((l) => l.split(" ")[1])).size).toBe(12);
    expect(existsSync(join(home, "sessions", INDEX_FILE))).toBe(true);
  });

  it("--continue finds the newest session from the index, without reading the other session files", async () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const { home, ids } = homeWithSessions(12, cwd);
    const newest = new SessionStore(home).list({ cwd })[0]!.id;
    const lines = await runTui("continue", ["--continue"], (l) => l.includes("FRAME"), home, cwd);
    const before = sessionReads(lines.slice(0, lines.indexOf("FRAME")));
    const others = before.filter((l) => !l.includes(newest));
    expect(others).toEqual([]);
    expect(ids).toContain(newest);
    expect(lines.some((l) => l.includes(INDEX_FILE))).toBe(true);
  });

  it("an MCP server from settings.json is started only after the first frame (one that never answers does not hold it up)", async () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const home = mkdtempSync(join(dir, "home-"));
    const log = join(dir, "mcp.log"); // the log runTui("mcp", …) reads
    // A server that notes when it was started, then never answers initialize.
    const server = join(dir, "silent-mcp.cjs");
    writeFileSync(server, `require("node:fs").appendFileSync(process.env.INK_TEST_FS_LOG, "MCP STARTED\\n"); setInterval(() => {}, 1000);`);
    writeFileSync(join(home, "settings.json"), JSON.stringify({ mcpServers: { slow: { command: process.execPath, args: [server], env: { INK_TEST_FS_LOG: log } } } }));
    const lines = await runTui("mcp", [], (l) => l.includes("FRAME") && l.includes("MCP STARTED"), home, cwd);
    expect(lines.indexOf("FRAME")).toBeGreaterThanOrEqual(0);
    expect(lines.indexOf("FRAME")).toBeLessThan(lines.indexOf("MCP STARTED"));
  });
});
