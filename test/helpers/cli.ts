/** Spawns the built CLI (dist/cli.js, the esbuild bundle) and a temp git repo with a login module, for e2e tests. */
import { writeTree } from "../tools/context.js";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { ensureBuilt } from "./build.js";
import { startFakeAnthropic, type FakeAnthropic } from "./fake-anthropic-server.js";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.js");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion; `onSpawn` gets the child process (e.g. to send it a signal); `stdin` is piped in (else stdin is closed). */
export function runCli(args: string[], opts: { env?: Record<string, string | undefined>; onSpawn?: (child: ReturnType<typeof spawn>) => void; cwd?: string; stdin?: string | Buffer } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ANTHROPIC_API_KEY: "", ANTHROPIC_BASE_URL: "", INK_DEMO_DELAY_MS: "0", ...opts.env };
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd: opts.cwd, stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    opts.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A temp git repo (one commit) with a login module, its test and unrelated files. */
export function makeLoginRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), "ink-repo-"));
  const files: Record<string, string> = {
    "src/auth/login.ts": 'import { verifyPassword } from "./password.js";\n\nexport async function handleLogin(user: string, password: string) {\n  if (!verifyPassword(password, user)) throw new Error("invalid credentials");\n  return { user };\n}\n',
    "src/auth/password.ts": "export function verifyPassword(password: string, hash: string) {\n  return password === hash;\n}\n",
    "src/billing/invoice.ts": "export function total(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0);\n}\n",
    "test/login.test.ts": 'import { handleLogin } from "../src/auth/login.js";\n\ntest("rejects a bad password", async () => {\n  await expect(handleLogin("a", "b")).rejects.toThrow();\n});\n',
    "README.md": "# shop\n",
  };
  writeTree(dir, files);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  return dir;
}

/** What cliFixture gives a test file: a loopback Messages-API server, a login repo, an INK_HOME. */
export interface CliFixture {
  /** The loopback server (unless `server: false`). */
  server: FakeAnthropic;
  repo: string;
  home: string;
  /** A directory for a terminal's recorded bytes (with `bytes`; else ""). */
  out: string;
}

/**
 * Registers beforeAll/afterAll for an e2e file that runs the CLI against the loopback server:
 * the returned object is filled before the first test and everything is removed after the last.
 * `name` names the temp directories (`ink-<name>-home-…`); `build` makes sure dist/cli.js is built
 * first; `server: false` starts no server; `bytes` adds a directory for recorded bytes; `tmux`
 * (the file's tmux server) is killed after the last test.
 */
export function cliFixture(opts: { name?: string; build?: boolean; server?: boolean; bytes?: boolean; tmux?: { kill(): void } } = {}): CliFixture {
  const fx = { out: "" } as CliFixture;
  const prefix = opts.name ? `ink-${opts.name}-` : "ink-";
  beforeAll(async () => {
    if (opts.build) ensureBuilt();
    if (opts.server !== false) fx.server = await startFakeAnthropic();
    fx.repo = makeLoginRepo();
    fx.home = mkdtempSync(join(tmpdir(), `${prefix}home-`));
    if (opts.bytes) fx.out = mkdtempSync(join(tmpdir(), `${prefix}bytes-`));
  });
  afterAll(async () => {
    opts.tmux?.kill();
    await fx.server?.close();
    // The killed CLI may still be writing its session as it exits (its SessionEnd hooks get 1.5 s,
    // longer on a loaded machine): removal is tried again until it stays removed, for up to 20 s.
    for (const dir of [fx.repo, fx.home, fx.out]) if (dir) await removeWhenQuiet(dir);
  });
  return fx;
}

/** Removes `dir`, trying again every 200 ms while something still writes into it; throws after `ms`. */
async function removeWhenQuiet(dir: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOTEMPTY" || Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
