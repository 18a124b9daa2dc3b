/**
 * `claude` (opt-in: `--only claude`, or INK_BENCH_CLAUDE=1 beside the other groups): Claude Code
 * measured in the same run as ours, so that bench/targets.ts divides by a figure of the same
 * machine and load. It installs `@anthropic-ai/claude-code` (INK_BENCH_CLAUDE_VERSION, default
 * below) into a cache outside the repository (~/.cache/ink-bench, reused; or INK_BENCH_CLAUDE_BIN
 * names a binary), runs its native binary in tmux 120×40 against the render bench's loopback
 * Messages-API server (answers routed by bench/claude-code-router.ts), with a private HOME and
 * config dir (onboarding, trust dialog, API key and bypass mode pre-accepted; non-essential traffic,
 * telemetry and updates off), for the render bench's scenarios with the same text, pacing and size:
 * the paced answer, the paced answer below one 20,000-token answer (a resumed session holding one
 * question and that answer, as ours resumes one) and 1 main + 8 children at 50 tokens/s for 51 s
 * (Claude Code's default, agents in the background; and, for comparison, in the foreground). Measured from
 * the Enter of the prompt to its answer's last line on screen: CPU of the process tree
 * (utime + stime, /proc), bytes written (pipe-pane), frames (ESC[?2026h), full clears, peak RSS.
 * A failed install or run is a row saying so; the rest of the bench is unaffected.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic, type FakeAnthropic } from "../test/helpers/fake-anthropic-server.js";
import { routeClaudeCode, type ClaudeScript } from "./claude-code-router.js";
import { answerText, CHILD_DONE, childPrompt, childrenFinal, childStream, END, formatBytes, pacedStream, stopAndRemove } from "./render.js";
import { BELOW, CHILDREN_51, PACED, scenarioWanted } from "./scenario-names.js";
import { median, type Figure } from "./stats.js";
import { claudeCodeFigureName } from "./targets.js";
import { count, killTmuxServer, panePid, peakRssMb, tmux, treeCpuSeconds, waitForScreen } from "./tmux.js";

const VERSION = process.env.INK_BENCH_CLAUDE_VERSION ?? "2.1.332";
const PROMPT = "explain the login flow";
const EARLIER = "repeat the earlier answer";
const EARLIER_END = "end of the earlier answer";
const API_KEY = "sk-ant-bench-0123456789abcdefghijklmnop";

/** Claude Code's native binary: INK_BENCH_CLAUDE_BIN, else the cached install (made on first use); a reason when there is none. */
function claudeBinary(log: (line: string) => void): { bin: string } | { skipped: string } {
  if (process.env.INK_BENCH_CLAUDE_BIN) return { bin: process.env.INK_BENCH_CLAUDE_BIN };
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "ink-bench", `claude-code-${VERSION}`);
  // The wrapper package's postinstall only copies this binary over its stub: run it directly.
  const bin = join(cache, "node_modules", "@anthropic-ai", `claude-code-${process.platform}-${process.arch}`, "claude");
  if (existsSync(bin)) return { bin };
  log(`claude: installing @anthropic-ai/claude-code@${VERSION} into ${cache} …`);
  mkdirSync(cache, { recursive: true });
  if (!existsSync(join(cache, "package.json"))) writeFileSync(join(cache, "package.json"), '{ "private": true }\n');
  const r = spawnSync("npm", ["install", "--prefix", cache, "--no-audit", "--no-fund", "--ignore-scripts", `@anthropic-ai/claude-code@${VERSION}`], { encoding: "utf8", timeout: 600_000 });
  if (existsSync(bin)) return { bin };
  const npmSays = `${r.stderr}`.split("\n").filter((l) => l.startsWith("npm error") && !l.includes("complete log")).slice(0, 2).join(" ");
  const why = r.error?.message ?? (npmSays || `npm exited ${r.status}`);
  return { skipped: `Claude Code ${VERSION} could not be installed (${why}); no same-run figures` };
}

/** A private HOME whose config has onboarding, the trust dialog of `cwd`, the API key and bypass mode accepted. */
function privateHome(home: string, cwd: string): Record<string, string> {
  const config = join(home, ".claude");
  mkdirSync(config, { recursive: true });
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    numStartups: 5,
    autoUpdates: false,
    bypassPermissionsModeAccepted: true,
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
  writeFileSync(join(config, ".claude.json"), JSON.stringify(state));
  const tmp = join(home, "tmp");
  mkdirSync(tmp);
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: config,
    CLAUDE_CODE_TMPDIR: tmp,
    ANTHROPIC_API_KEY: API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    // --dangerously-skip-permissions (as our --yolo) is refused as root outside a sandbox; the bench's terminal is one.
    IS_SANDBOX: "1",
  };
}

/**
 * Writes a Claude Code session of `cwd` into `configDir` holding one question and `answer` (the
 * transcript lines Claude Code 2.1 writes, without its attachments); returns its id, for --resume.
 */
function claudeSession(configDir: string, cwd: string, answer: string): string {
  const sessionId = randomUUID();
  const dir = join(configDir, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(dir, { recursive: true });
  const base = { isSidechain: false, userType: "external", entrypoint: "cli", cwd, sessionId, version: VERSION, gitBranch: "HEAD", timestamp: new Date().toISOString() };
  const question = randomUUID();
  const lines = [
    { ...base, parentUuid: null, type: "user", uuid: question, message: { role: "user", content: EARLIER } },
    {
      ...base,
      parentUuid: question,
      type: "assistant",
      uuid: randomUUID(),
      requestId: "req_bench",
      message: { id: "msg_bench", type: "message", role: "assistant", model: "claude-fake", content: [{ type: "text", text: answer }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: Math.round(answer.length / 4) } },
    },
  ];
  writeFileSync(join(dir, `${sessionId}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return sessionId;
}

interface ClaudeScenario {
  /** The render scenario's name this one matches. */
  name: string;
  script: ClaudeScript;
  /** A long answer above the prompt: a resumed session holding it (ending with EARLIER_END). */
  longAnswer?: string;
  /** Environment added. */
  env?: Record<string, string>;
  /** For comparison only (no target divides by it): run once. */
  once?: boolean;
}

function scenarios(): ClaudeScenario[] {
  const above = answerText(20_000).replace(END, EARLIER_END);
  const children = { prompt: PROMPT, count: 8, childPrompt, child: () => childStream(2_500), done: CHILD_DONE, final: () => childrenFinal() };
  const list: ClaudeScenario[] = [
    { name: PACED, script: { answers: { [PROMPT]: pacedStream } } },
    { name: BELOW, longAnswer: above, script: { answers: { [PROMPT]: pacedStream } } },
    { name: CHILDREN_51, script: { answers: {}, children } },
    // For comparison only (no target uses it): Claude Code runs agents in the background by default, showing
    // none of their progress until each finishes; in the foreground the main turn waits and shows each one live, as ours.
    { name: `${CHILDREN_51}, agents in the foreground`, script: { answers: {}, children }, env: { CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: "1" }, once: true },
  ];
  return list.filter((sc) => scenarioWanted(sc.name));
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function type(name: string, text: string): Promise<void> {
  tmux("send-keys", "-t", name, "-l", text);
  await sleep(100);
  tmux("send-keys", "-t", name, "Enter");
}

async function runOnce(bin: string, server: FakeAnthropic, sc: ClaudeScenario, index: number): Promise<Figure["extra"] & {}> {
  server.reset();
  server.setRouter((body) => routeClaudeCode(body, sc.script));
  const home = mkdtempSync(join(tmpdir(), "ink-bench-claude-home-"));
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "ink-bench-claude-cwd-")));
  writeFileSync(join(cwd, "README.md"), "# bench\n");
  const out = join(home, "terminal.bytes");
  writeFileSync(out, "");
  const vars = { ...privateHome(home, cwd), ...sc.env, ANTHROPIC_BASE_URL: server.url };
  const resume = sc.longAnswer ? ` --resume ${claudeSession(join(home, ".claude"), cwd, sc.longAnswer)}` : "";
  const env = Object.entries(vars).map(([k, v]) => `${k}=${quote(v)}`).join(" ");
  const name = `c${index}`;
  try {
    const app = `cd ${quote(cwd)} && exec env -u CI -u ANTHROPIC_AUTH_TOKEN -u CLAUDE_CODE_OAUTH_TOKEN ${env} ${quote(bin)} --dangerously-skip-permissions${resume}`;
    tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", `sh -c ${quote(`read _; ${app}`)}`);
    tmux("pipe-pane", "-o", "-t", name, `cat >> ${quote(out)}`);
    tmux("send-keys", "-t", name, "Enter");
    await waitForScreen(name, (s) => s.includes("bypass permissions") && (!sc.longAnswer || s.includes(EARLIER_END)), "Claude Code's prompt", 60_000);
    const pid = panePid(name);
    await sleep(1000); // let the start-up frames settle
    const cpu0 = treeCpuSeconds(pid);
    const bytes0 = statSync(out).size;
    const t0 = performance.now();
    await type(name, PROMPT);
    await waitForScreen(name, (s) => s.includes(END), "the end of the answer", 300_000, 200);
    const wallS = (performance.now() - t0) / 1000;
    const cpuS = treeCpuSeconds(pid) - cpu0;
    const rss = peakRssMb(pid);
    await sleep(200); // pipe-pane catches up
    const written = readFileSync(out).subarray(bytes0).toString("latin1");
    const keep = process.env.INK_BENCH_BYTES_DIR;
    if (keep) writeFileSync(join(keep, `claude-code.${sc.name.replace(/[^\w.-]+/g, "_")}.${index}.bytes`), readFileSync(out));
    return { cpuS, wallS, cpuPercentOfOneCore: (100 * cpuS) / wallS, bytes: written.length, frames: count(written, "\u001b[?2026h"), clears: count(written, "\u001b[2J") + count(written, "\u001b[3J"), peakRssMb: rss, requests: server.requests.length };
  } finally {
    await stopAndRemove(name, [home, cwd]);
  }
}

/** Claude Code's runs of the scenarios, made one at a time (beside ours, interleaved), and their figures at the end. */
export interface ClaudeCodeRuns {
  /** Runs Claude Code once on the scenario the render scenario `renderName` is measured against, when there is one. */
  runFor: (renderName: string) => Promise<void>;
  /** Runs each scenario until it has `runs` runs, then gives the figures (medians of the runs; one skipped row when Claude Code cannot run) and stops. */
  finish: (runs: number) => Promise<Figure[]>;
}

/**
 * Claude Code's runs of the scenarios (INK_BENCH_SCENARIO filters them as the render group's). The render group calls
 * `runFor` after each run of ours, so each of Claude Code's runs is made in the same minute as one of ours (the
 * machine is shared: its load moves both programs by ±15 % from minute to minute); `finish` completes the count (the
 * scenarios no run of ours asked for, e.g. its agents in the foreground, or all of them with `--only claude`).
 */
export async function claudeCodeRuns(log: (line: string) => void): Promise<ClaudeCodeRuns> {
  const found = claudeBinary(log);
  if ("skipped" in found) {
    log(`claude: ${found.skipped}`);
    return { runFor: async () => {}, finish: async () => [{ group: "claude", name: `Claude Code ${VERSION}`, median: Number.NaN, unit: "s", runs: 0, note: `skipped: ${found.skipped}` }] };
  }
  const server = await startFakeAnthropic();
  const list = scenarios();
  const results = new Map<string, NonNullable<Figure["extra"]>[]>(list.map((sc) => [sc.name, []]));
  const failed = new Map<string, string>();
  let index = 0;
  const run = async (sc: ClaudeScenario) => {
    if (failed.has(sc.name)) return;
    try {
      const r = await runOnce(found.bin, server, sc, index++);
      log(`claude: ${sc.name}: ${r.cpuS!.toFixed(2)} s CPU, ${formatBytes(r.bytes!)}, ${r.requests} requests`);
      results.get(sc.name)!.push(r);
    } catch (err) {
      log(`claude: ${sc.name} failed: ${(err as Error).message}`);
      failed.set(sc.name, (err as Error).message.split("\n")[0]!);
    }
  };
  return {
    runFor: async (renderName) => {
      const sc = list.find((c) => renderName === c.name || renderName === `${c.name}, full-screen`);
      if (sc) await run(sc);
    },
    finish: async (runs) => {
      try {
        for (const sc of list) while (!failed.has(sc.name) && results.get(sc.name)!.length < (sc.once ? 1 : runs)) await run(sc);
      } finally {
        killTmuxServer();
        await server.close();
      }
      return list.map((sc): Figure => {
        const rs = results.get(sc.name)!;
        const why = failed.get(sc.name);
        if (rs.length === 0) return { group: "claude", name: claudeCodeFigureName(sc.name), median: Number.NaN, unit: "s", runs: 0, note: `failed: ${why}` };
        const keys = Object.keys(rs[0]!);
        const r = Object.fromEntries(keys.map((k) => [k, median(rs.map((x) => x[k]!))]));
        return {
          group: "claude",
          name: claudeCodeFigureName(sc.name),
          median: r.cpuS!,
          unit: "s",
          runs: rs.length,
          extra: r,
          note: `Claude Code ${VERSION}, same run: ${r.cpuPercentOfOneCore!.toFixed(0)} % of a core over ${r.wallS!.toFixed(1)} s; ${r.frames} frames; ${r.clears} full clears; ${formatBytes(r.bytes!)} written; peak RSS ${r.peakRssMb!.toFixed(0)} MB${rs.length > 1 ? ` (medians of ${rs.length} runs: CPU ${rs.map((x) => x.cpuS!.toFixed(2)).join(", ")} s)` : ""}${why ? `; a later run failed: ${why}` : ""}`,
        };
      });
    },
  };
}
