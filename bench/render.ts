/**
 * `render`: the real app (dist/cli.js) in tmux 120×40 against a loopback Messages-API server
 * (test/helpers/fake-anthropic-server.ts). Each scenario types one prompt and measures, from Enter
 * to the answer's last line on screen with the prompt box back: CPU s of the app, bytes written to
 * the terminal (pipe-pane), frames (synchronized-output blocks, ESC[?2026h; a patch of a cell or two is
 * written without them, so the frames drawn are given too), full clears (ESC[2J and
 * ESC[3J) and peak RSS. Scenarios: a 20,000-token answer (also with 100 / 1,000 / 5,000 finished
 * messages already in the transcript, via --resume, and in `--inline`), a paced answer (100 tokens/s for 20 s; also
 * `--inline`, and full-screen at 80×24, where the transcript scrolls a row every few tokens), and
 * 1 main + 8 children each streaming at 50 tokens/s (also below 5,000 messages), and the same for
 * 51 s in full-screen and in --inline mode (the figures issue #29 compares: bytes and % of a core).
 * The paced answer also runs below one finished 20,000-token answer, and both in `--inline` mode:
 * the cost of a frame must not follow the size of what is above (the "below" figure's note gives
 * its CPU as a multiple of the same answer on an empty screen).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic, turnEvents, type FakeAnthropic, type FakeResponse, type SseEvent } from "../test/helpers/fake-anthropic-server.js";
import { type ByteProfile, bytesProfile, profileExtra } from "./bytes-profile.js";
import { formatSummary, summarizeProfileFile } from "./cpu-profile.js";
import { historySession, longAnswerSession } from "./history-session.js";
import { parseFrameLine, type FrameRecord } from "../components/terminal/frame-phases.js";
import { BELOW, CHILDREN_51, PACED, scenarioWanted } from "./scenario-names.js";
import { CLI, median, percentile, type Figure } from "./stats.js";
import { count, cpuSeconds, killTmuxServer, panePid, peakRssMb, threadCpuSeconds, tmux, waitForScreen } from "./tmux.js";

/** About 4 characters a token; one delta carries this many characters (~10 tokens). */
const DELTA_CHARS = 40;
export const END = "END-OF-ANSWER";

/** A markdown answer of about `tokens` tokens: paragraphs of ~150-character lines, lists and code blocks, ending with END. */
export function answerText(tokens: number): string {
  const parts: string[] = [];
  let chars = 0;
  for (let i = 0; chars < tokens * 4; i++) {
    const block =
      i % 5 === 3
        ? `\`\`\`ts\nexport function handler${i}(req: Request): Response {\n  const user = verify(req);\n  return redirect(user, ${i});\n}\n\`\`\`\n\n`
        : i % 5 === 1
          ? `- item ${i}: the session store keeps one append-only file per session\n- item ${i}b: the index makes listing flat at any size\n\n`
          : `Paragraph ${i}. The login is handled in src/auth/login.ts, which verifies the request and redirects the user after a successful check; the tests cover it.\nA second line of the same paragraph says a little more about the code and wraps at about one hundred and fifty characters here.\n\n`;
    parts.push(block);
    chars += block.length;
  }
  parts.push(`${END}\n`);
  return parts.join("");
}

/** An SSE turn streaming `text` in DELTA_CHARS pieces, `delayMs` apart. */
export function textStream(text: string, delayMs: number): FakeResponse {
  const events = turnEvents([{ text: "" }], { usage: { output: Math.round(text.length / 4) } });
  const stop = events.findIndex((e) => e.event === "content_block_stop");
  const deltas: SseEvent[] = [];
  for (let i = 0; i < text.length; i += DELTA_CHARS) {
    deltas.push({ event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(i, i + DELTA_CHARS) } } });
  }
  events.splice(stop, 0, ...deltas);
  return { kind: "sse", events, delayMs };
}

interface Scenario {
  name: string;
  /** Finished messages in the transcript before the prompt. */
  history: number;
  /** Instead of `history` messages: one question and this (long) answer above the prompt. */
  longAnswer?: string;
  /** CLI arguments added (e.g. `--inline`). */
  args?: string[];
  /** The scenario whose CPU this one's is compared with (its name). */
  baseline?: string;
  /** Queues the server's answers for one run. */
  script: (server: FakeAnthropic) => void;
  runs: number;
  /** Terminal size (default 120×40). */
  size?: [number, number];
  /** A CPU target reads this scenario's CPU: a profiled run says what it went to (see `profiling`). */
  cpuTarget?: boolean;
}

interface RunResult {
  cpuS: number;
  /** Of `cpuS`: the main thread's user and system (kernel: the terminal writes, reads, timers) seconds; the rest is other threads' (V8's GC and compiler, libuv). */
  mainUserS: number;
  mainSystemS: number;
  wallS: number;
  bytes: number;
  /** The bytes by kind (bench/bytes-profile.ts). */
  profile: ByteProfile;
  frames: number;
  clears: number;
  peakRssMb: number;
  /** Each frame drawn in the measured window: its time and phases (ms; INK_BENCH_FRAMES). */
  drawn: FrameRecord[];
  /** The app's pid, and the measured window on the monotonic clock (µs), to read a CPU profile of the run over. */
  pid: number;
  window: { fromUs: number; toUs: number };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Starts the app (dist/cli.js, --yolo, up to 8 children) in tmux session `name` (`size`, default 120×40) against
 * `server`, with `INK_HOME` and `--cwd` given, `env` added, `nodeArgs` before INK_BENCH_NODE_ARGS
 * (extra node flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a scenario) and `args`
 * after the CLI's; copies what it writes to the terminal into `terminalBytes` when given. Resolves
 * with the app's pid once its prompt box is on screen.
 */
export async function launchApp(name: string, o: { server: FakeAnthropic; inkHome: string; cwd: string; env?: Record<string, string>; nodeArgs?: string[]; args?: string[]; terminalBytes?: string; size?: [number, number] }): Promise<number> {
  const vars = { INK_HOME: o.inkHome, ...o.env, ANTHROPIC_API_KEY: "bench", ANTHROPIC_BASE_URL: o.server.url, INK_MODEL: "claude-fake" };
  const env = Object.entries(vars).map(([k, v]) => `${k}=${quote(v)}`).join(" ");
  const nodeArgs = [...(o.nodeArgs ?? []), ...(process.env.INK_BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean)].map(quote);
  const app = [quote(process.execPath), ...nodeArgs, quote(CLI), "--cwd", quote(o.cwd), "--yolo", "--max-children", "8", ...(o.args ?? [])].join(" ");
  const [columns, rows] = o.size ?? [120, 40];
  tmux("new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), `sh -c ${quote(`read _; exec env -u CI ${env} ${app}`)}`);
  if (o.terminalBytes) tmux("pipe-pane", "-o", "-t", name, `cat >> ${quote(o.terminalBytes)}`);
  tmux("send-keys", "-t", name, "Enter");
  await waitForScreen(name, (s) => s.includes("Ask Ink"), "the prompt box");
  return panePid(name);
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** One run of `scenario`; with `nodeArgs` (e.g. --cpu-prof) given to the app. */
async function runOnce(server: FakeAnthropic, scenario: Scenario, index: number, nodeArgs?: string[]): Promise<RunResult> {
  server.reset();
  scenario.script(server);
  const inkHome = mkdtempSync(join(tmpdir(), "ink-bench-render-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "ink-bench-render-cwd-"));
  writeFileSync(join(cwd, "README.md"), "# bench\n");
  const out = join(inkHome, "terminal.bytes");
  writeFileSync(out, "");
  const framesFile = join(inkHome, "frames.txt");
  writeFileSync(framesFile, "");
  const resume = scenario.longAnswer ? ["--resume", longAnswerSession(inkHome, cwd, scenario.longAnswer)] : scenario.history > 0 ? ["--resume", historySession(inkHome, cwd, scenario.history)] : [];
  const name = `r${index}`;
  try {
    const pid = await launchApp(name, { server, inkHome, cwd, env: { INK_BENCH_FRAMES: framesFile }, nodeArgs, args: [...resume, ...(scenario.args ?? [])], terminalBytes: out, size: scenario.size });
    await new Promise((r) => setTimeout(r, 300)); // let the start-up frames settle
    const cpu0 = cpuSeconds(pid);
    const threads0 = threadCpuSeconds(pid);
    const bytes0 = statSync(out).size;
    const frames0 = statSync(framesFile).size;
    const t0 = performance.now();
    const fromUs = monotonicUs();
    tmux("send-keys", "-t", name, "-l", "explain the login flow");
    tmux("send-keys", "-t", name, "Enter");
    await waitForScreen(name, (s) => s.includes(END) && s.includes("Ask Ink"), "the end of the answer", 300_000, 200);
    const wallS = (performance.now() - t0) / 1000;
    const toUs = monotonicUs();
    const cpuS = cpuSeconds(pid) - cpu0;
    const threads = threadCpuSeconds(pid);
    const rss = peakRssMb(pid);
    await new Promise((r) => setTimeout(r, 200)); // pipe-pane catches up
    const written = readFileSync(out).subarray(bytes0).toString("latin1");
    // INK_BENCH_BYTES_DIR: keep everything the app wrote to the terminal, one file a run.
    const keep = process.env.INK_BENCH_BYTES_DIR;
    if (keep) writeFileSync(join(keep, `${scenario.name.replace(/[^\w.-]+/g, "_")}.${index}.bytes`), readFileSync(out));
    // (Lines are written ~0.1 s after their frame, with the GC pauses in it: the wait above covers that.)
    const lines = readFileSync(framesFile, "utf8").slice(frames0).split("\n").filter(Boolean);
    // …and each measured frame's time and phases (ms), one a line, in the order drawn (frame-phases.ts `frameLine`).
    if (keep) writeFileSync(join(keep, `${scenario.name.replace(/[^\w.-]+/g, "_")}.${index}.frames`), lines.join("\n"));
    return { pid, window: { fromUs, toUs }, drawn: lines.map(parseFrameLine), cpuS, mainUserS: threads.mainUser - threads0.mainUser, mainSystemS: threads.mainSystem - threads0.mainSystem, wallS, bytes: written.length, profile: bytesProfile(written), frames: count(written, "\u001b[?2026h"), clears: count(written, "\u001b[2J") + count(written, "\u001b[3J"), peakRssMb: rss };
  } finally {
    await stopAndRemove(name, [inkHome, cwd]);
  }
}

/**
 * Stops the app of session `name` (tmux closes its terminal: SIGHUP), waits up to 10 s for the
 * process to be gone — it saves its session as it exits — then removes `dirs`.
 */
export async function stopAndRemove(name: string, dirs: string[]): Promise<void> {
  let pid: number | undefined;
  try {
    pid = panePid(name);
    tmux("kill-session", "-t", name);
  } catch {
    // already gone
  }
  for (let waited = 0; pid !== undefined && existsSync(`/proc/${pid}`) && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

/**
 * Whether a scenario gets a profiled run: INK_BENCH_PROFILE=0 never, =1 (or a directory, where the profiles are kept)
 * every scenario run, unset the scenarios a CPU target reads in the full bench (not `--quick`).
 */
function profiling(sc: Scenario, quick: boolean): boolean {
  const opt = process.env.INK_BENCH_PROFILE;
  if (opt === "0") return false;
  return opt ? true : !quick && sc.cpuTarget === true;
}

/**
 * One more run of `scenario` with the app under `--cpu-prof`, not counted in the scenario's figures (profiling costs
 * CPU), its profile summarised over the measured window (bench/cpu-profile.ts): the areas its busy time went to, what
 * a missed CPU target names as its limit. INK_BENCH_PROFILE=<directory> keeps the profile there.
 */
async function profiledRun(server: FakeAnthropic, scenario: Scenario, index: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "ink-bench-cpuprof-"));
  try {
    const r = await runOnce(server, scenario, index, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
    // The main thread's profile (CPU.<date>.<time>.<pid>.<thread 0>.<n>.cpuprofile); a worker thread writes its own.
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile") && f.includes(`.${r.pid}.0.`));
    if (!file) throw new Error("the app wrote no CPU profile");
    const keep = process.env.INK_BENCH_PROFILE;
    if (keep && keep !== "1" && existsSync(keep)) writeFileSync(join(keep, `${scenario.name.replace(/[^\w.-]+/g, "_")}.${index}.cpuprofile`), readFileSync(join(dir, file)));
    return formatSummary(summarizeProfileFile(join(dir, file), { window: r.window }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The prompt the main agent gives child `part` in the 8-children scenarios. */
export const childPrompt = (part: number) => `look at part ${part} of the code base`;
/** The last line of a child's report. */
export const CHILD_DONE = "child report done";
/** A child's report: `tokens` tokens (2,500: ~51 s) streamed at 50 tokens/s. */
export const childStream = (tokens: number) => textStream(answerText(tokens).replace(`${END}\n`, `${CHILD_DONE}\n`), 200);
/** The main agent's answer once its children reported, ending with `marker`. */
export const childrenFinal = (marker = END) => textStream(`All eight children reported.\n${marker}\n`, 5);

/** 1 main agent delegating to 8 children, each streaming `tokens` (~500: ~10 s) at 50 tokens/s, then the main answer. */
export function eightChildren(server: FakeAnthropic, marker = END, tokens = 500): void {
  const calls = Array.from({ length: 8 }, (_, i) => ({ toolUse: { id: `toolu_${i}`, name: "task", input: { prompt: childPrompt(i) } } }));
  server.enqueue({ kind: "sse", events: turnEvents([{ text: "Delegating." }, ...calls]) });
  for (let i = 0; i < 8; i++) server.enqueue(childStream(tokens));
  server.enqueue(childrenFinal(marker));
}

/** The paced answer's text: ~2,000 tokens, streamed at 100 tokens/s. */
export const pacedStream = () => textStream(answerText(2_000), 100);

/** The paced answer on an empty screen and below one finished 20,000-token answer (`big`, its end marker renamed), full-screen and --inline, `runs` times each. */
function pacedScenarios(big: string, runs: number): Scenario[] {
  const script = (s: FakeAnthropic) => s.enqueue(pacedStream());
  const above = big.replace(END, "end of the earlier answer");
  return [
    { name: PACED, history: 0, script, runs, cpuTarget: true },
    { name: BELOW, history: 0, longAnswer: above, script, runs, baseline: PACED, cpuTarget: true },
    { name: `${PACED}, --inline`, history: 0, args: ["--inline"], script, runs, cpuTarget: true },
    { name: `${BELOW}, --inline`, history: 0, longAnswer: above, args: ["--inline"], script, runs, baseline: `${PACED}, --inline`, cpuTarget: true },
  ];
}

/**
 * Where the time of the frames at or above the `p`-th percentile went (the frames that make the p99
 * figure): the frames drawn, their count, and the mean of their time and of each phase (frame-phases.ts), as figure
 * extras `framesDrawn`, `p99Frames`, `p99FrameMs`, `p99RowsMs`, `p99CellsMs`, `p99DiffMs`, `p99WriteMs`, `p99LayoutMs`,
 * `p99GcMs`, `p99WaitedMs`; and `frameP99OwnMs`, the p99 of the frames' time less the time each waited for a CPU.
 */
export function slowFrameSplit(records: readonly FrameRecord[], p: number): Record<string, number> {
  if (records.length === 0) return {};
  const cut = percentile(records.map((r) => r.total), p);
  const slow = records.filter((r) => r.total >= cut);
  const mean = (f: (r: FrameRecord) => number) => slow.reduce((sum, r) => sum + f(r), 0) / slow.length;
  return {
    framesDrawn: records.length,
    p99Frames: slow.length,
    p99FrameMs: mean((r) => r.total),
    p99RowsMs: mean((r) => r.rows),
    p99CellsMs: mean((r) => r.cells),
    p99DiffMs: mean((r) => r.diff),
    p99WriteMs: mean((r) => r.write),
    p99LayoutMs: mean((r) => r.layout),
    p99GcMs: mean((r) => r.gc),
    p99WaitedMs: mean((r) => r.waited),
    // The p99 of what the frames took less their wait for a CPU: the frames' own time, without the machine's load (the
    // wait is read just outside the frame's clock, so a frame that waited all along comes out at 0, not below).
    frameP99OwnMs: percentile(records.map((r) => Math.max(0, r.total - r.waited)), p),
  };
}

/** `85 KB` below a megabyte, else `1.15 MB`. */
export function formatBytes(n: number): string {
  return n < 1e6 ? `${(n / 1e3).toFixed(0)} KB` : `${(n / 1e6).toFixed(2)} MB`;
}

/** The scenarios; `quick` runs each once (the others run the 20k answer, the paced answers and the 51 s children 3 times). */
function scenarios(quick: boolean): Scenario[] {
  const big = answerText(20_000);
  const fast = (server: FakeAnthropic) => server.enqueue(textStream(big, 2));
  const paced = (server: FakeAnthropic) => server.enqueue(pacedStream());
  const runs = quick ? 1 : 3;
  const list: Scenario[] = [
    { name: "20,000-token answer (~4,000 tokens/s)", history: 0, script: fast, runs },
    ...[100, 1000, 5000].map((h) => ({ name: `20,000-token answer, ${h.toLocaleString("en")} messages above`, history: h, script: fast, runs: 1 })),
    { name: "20,000-token answer (~4,000 tokens/s), --inline", history: 0, args: ["--inline"], script: fast, runs: 1 },
    ...pacedScenarios(big, runs),
    { name: "paced answer, scroll-heavy at 80×24", history: 0, script: paced, runs: 1, size: [80, 24] },
    { name: "1 main + 8 children (50 tokens/s each, ~10 s)", history: 0, runs: 1, script: eightChildren },
    { name: "1 main + 8 children, 5,000 messages above", history: 5000, runs: 1, script: eightChildren },
    // 2,500 tokens a child at 50 tokens/s: ~51 s from the prompt to the answer (issue #29's figures).
    { name: `${CHILDREN_51}, full-screen`, history: 0, runs, script: (s) => eightChildren(s, END, 2_500), cpuTarget: true },
    { name: `${CHILDREN_51}, --inline`, history: 0, runs, args: ["--inline"], script: (s) => eightChildren(s, END, 2_500), cpuTarget: true },
  ];
  // INK_BENCH_SCENARIO: only the scenarios whose name contains it (or is it, after a "=").
  return list.filter((sc) => scenarioWanted(sc.name));
}

/**
 * The render figures; a scenario that fails is reported with its error instead of numbers. `afterRun`, when given, is
 * called with the scenario's name after each measured run (Claude Code's run of the same scenario: interleaved).
 */
export async function renderFigures(quick: boolean, log: (line: string) => void, afterRun?: (scenario: string) => Promise<void>): Promise<Figure[]> {
  const server = await startFakeAnthropic();
  const figures: Figure[] = [];
  let index = 0;
  try {
    for (const sc of scenarios(quick)) {
      const results: RunResult[] = [];
      try {
        for (let i = 0; i < sc.runs; i++) {
          results.push(await runOnce(server, sc, index++));
          await afterRun?.(sc.name);
        }
      } catch (err) {
        log(`render: ${sc.name} failed: ${(err as Error).message.split("\n")[0]}`);
        figures.push({ group: "render", name: sc.name, median: Number.NaN, unit: "s", runs: 0, note: `failed: ${(err as Error).message.split("\n")[0]}` });
        continue;
      }
      let profile: string | undefined;
      if (profiling(sc, quick)) {
        try {
          profile = await profiledRun(server, sc, index++);
          log(`render: ${sc.name}: profile: ${profile}`);
        } catch (err) {
          profile = `no profile: ${(err as Error).message.split("\n")[0]}`;
        }
      }
      const m = (f: (r: RunResult) => number) => median(results.map(f));
      const records = results.flatMap((r) => r.drawn);
      const frameMs = records.map((f) => f.total);
      const p50 = percentile(frameMs, 50);
      const p99 = percentile(frameMs, 99);
      const cpu = m((r) => r.cpuS);
      const wall = m((r) => r.wallS);
      const base = sc.baseline ? figures.find((f) => f.name === `${sc.baseline}: CPU`) : undefined;
      const ratio = base && Number.isFinite(base.median) ? `; ${(cpu / base.median).toFixed(2)}× the CPU of "${sc.baseline}"` : "";
      figures.push({
        group: "render",
        name: `${sc.name}: CPU`,
        median: cpu,
        unit: "s",
        runs: results.length,
        extra: { mainUserS: m((r) => r.mainUserS), mainSystemS: m((r) => r.mainSystemS), otherThreadsS: m((r) => r.cpuS - r.mainUserS - r.mainSystemS), frameP50Ms: p50, frameP99Ms: p99, wallS: wall, cpuPercentOfOneCore: (100 * cpu) / wall, bytes: m((r) => r.bytes), ...profileExtra(results.map((r) => r.profile)), frames: m((r) => r.frames), clears: m((r) => r.clears), peakRssMb: m((r) => r.peakRssMb), ...slowFrameSplit(records, 99) },
        profile,
        note: `${((100 * cpu) / wall).toFixed(0)} % of a core over ${wall.toFixed(1)} s (main thread ${m((r) => r.mainUserS).toFixed(2)} s user + ${m((r) => r.mainSystemS).toFixed(2)} s system, other threads ${m((r) => r.cpuS - r.mainUserS - r.mainSystemS).toFixed(2)} s); ${m((r) => r.frames)} synchronized frames of ${m((r) => r.drawn.length)} drawn (a patch of a cell or two is written without the pair); ${m((r) => r.clears)} full clears; ${formatBytes(m((r) => r.bytes))} written; peak RSS ${m((r) => r.peakRssMb).toFixed(0)} MB; frame p50/p99 ${p50.toFixed(1)}/${p99.toFixed(1)} ms${ratio}`,
      });
    }
  } finally {
    killTmuxServer();
    await server.close();
  }
  return figures;
}
