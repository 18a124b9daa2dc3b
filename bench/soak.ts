/**
 * The soak (`INK_BENCH_SCENARIO=soak` picks it alone; any other filter leaves it out): one app
 * answering round after round for minutes, its memory sampled and logged from inside (a preload),
 * and its RSS slope split into what grew (bench/targets.ts names the parts of a missed target).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic, type FakeAnthropic } from "../test/helpers/fake-anthropic-server.js";
import { answerText, eightChildren, END, launchApp, stopAndRemove, textStream } from "./render.js";
import type { Figure } from "./stats.js";
import { cpuSeconds, killTmuxServer, peakRssMb, rssMb, tmux, waitForScreen } from "./tmux.js";

const SOAK = "soak (answers and 1 main + 8 children, continuously)";

/**
 * A preload for the soak's app: appends process.memoryUsage() (MB) as a JSON line to INK_BENCH_MEMLOG
 * every second, with the size of V8's young and old generations (new, old, large-object space: the
 * mappings an RSS growth has been found in), the part of old space free, and, as of the last full GC,
 * the heap used outside the young generation (`liveMb`) and V8's JIT code and bytecode with their metadata (`codeMb`,
 * getHeapCodeStatistics): the parts the soak's slope is split into (bench/targets.ts).
 */
const MEMLOG_PRELOAD = `import { appendFileSync } from "node:fs";
import { getHeapCodeStatistics, getHeapSpaceStatistics } from "node:v8";
import { PerformanceObserver, constants } from "node:perf_hooks";
const file = process.env.INK_BENCH_MEMLOG;
const mb = (n) => Math.round(n / 1048576 * 10) / 10;
let liveMb;
let codeMb;
if (file) {
  new PerformanceObserver((list) => {
    if (!list.getEntries().some((e) => e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) return;
    // What the heap holds outside the young generation (which refills between the GC and this callback).
    liveMb = mb(process.memoryUsage().heapUsed - (getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_used_size ?? 0));
    const c = getHeapCodeStatistics();
    codeMb = mb(c.code_and_metadata_size + c.bytecode_and_metadata_size);
  }).observe({ entryTypes: ["gc"] });
  setInterval(() => {
    const m = process.memoryUsage();
    const spaces = getHeapSpaceStatistics();
    const space = Object.fromEntries(spaces.map((s) => [s.space_name, mb(s.space_size)]));
    const old = spaces.find((s) => s.space_name === "old_space");
    appendFileSync(file, JSON.stringify({ t: Date.now(), rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), newSpace: space.new_space, oldSpace: space.old_space, oldFree: old ? mb(old.space_size - old.space_used_size) : undefined, largeObjectSpace: space.large_object_space, liveMb, codeMb }) + "\\n");
  }, 1000).unref();
}
`;

/**
 * Bytes (MB) of the main session's file under `inkHome` (the largest session file: the children's
 * are one task each): the conversation as saved, whose growth stands for the conversation's in the
 * heap (its history and transcript share the same texts).
 */
function conversationFileMb(inkHome: string): number {
  const dir = join(inkHome, "sessions");
  let largest = 0;
  try {
    for (const name of readdirSync(dir)) if (name.endsWith(".jsonl")) largest = Math.max(largest, statSync(join(dir, name)).size);
  } catch {
    // a file removed while listing: the next sample counts it
  }
  return largest / 1048576;
}

/** Least-squares slope of `ys` over `xs`. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

/**
 * The soak: one app answering round after round for 10 minutes (`quick`: 2), a paced answer
 * (2,000 tokens at ~400 tokens/s) and then 1 main + 8 children in turn, VmRSS sampled every 3 s.
 * Reports RSS after the first answer, at the end, its slope over the second half (MB/min) and peak,
 * and the app's CPU (% of one core) from the first answer on.
 */
async function soakFigure(server: FakeAnthropic, quick: boolean, index: number, log: (line: string) => void): Promise<Figure> {
  const minutes = Number(process.env.INK_BENCH_SOAK_MINUTES) || (quick ? 2 : 10);
  server.reset();
  const inkHome = mkdtempSync(join(tmpdir(), "ink-bench-soak-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "ink-bench-soak-cwd-"));
  writeFileSync(join(cwd, "README.md"), "# bench\n");
  const preload = join(inkHome, "memlog.mjs");
  writeFileSync(preload, MEMLOG_PRELOAD);
  const memlog = process.env.INK_BENCH_MEMLOG || join(inkHome, "memlog.jsonl");
  writeFileSync(memlog, "");
  const name = `soak${index}`;
  const samples: { t: number; rss: number; filesMb: number }[] = [];
  const sample = (pid: number) => ({ t: Date.now(), rss: rssMb(pid), filesMb: conversationFileMb(inkHome) });
  let timer: NodeJS.Timeout | undefined;
  try {
    const pid = await launchApp(name, { server, inkHome, cwd, env: { INK_BENCH_MEMLOG: memlog }, nodeArgs: ["--import", preload] });
    const idleMb = rssMb(pid);
    const answer = answerText(2_000);
    let start = Number.NaN;
    let t0 = 0;
    let cpu0 = 0;
    const end = Date.now() + minutes * 60_000;
    let rounds = 0;
    for (; rounds === 0 || Date.now() < end; rounds++) {
      const marker = `${END}-${rounds}`;
      if (rounds % 2 === 0) server.enqueue(textStream(answer.replace(END, marker), 10));
      else eightChildren(server, marker);
      tmux("send-keys", "-t", name, "-l", `round ${rounds}: explain the login flow`);
      tmux("send-keys", "-t", name, "Enter");
      await waitForScreen(name, (s) => s.includes(marker) && s.includes("Ask Ink"), `the end of round ${rounds}`, 300_000, 200);
      if (rounds === 0) {
        const first = sample(pid);
        start = first.rss;
        cpu0 = cpuSeconds(pid);
        t0 = first.t;
        samples.push(first);
        timer = setInterval(() => samples.push(sample(pid)), 3_000);
      }
    }
    clearInterval(timer);
    const last = sample(pid);
    const endMb = last.rss;
    const cpuPercent = (100 * (cpuSeconds(pid) - cpu0)) / ((Date.now() - t0) / 1000);
    samples.push(last);
    const peak = peakRssMb(pid);
    const half = samples.filter((s) => s.t >= t0 + (samples.at(-1)!.t - t0) / 2);
    const perMin = slope(half.map((s) => (s.t - t0) / 60_000), half.map((s) => s.rss));
    const mem = readFileSync(memlog, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, number>);
    const endMem = mem.at(-1) ?? {};
    // Where the RSS slope comes from, over the same second half: what survives a full GC (live) and
    // its parts — JIT code and bytecode, large objects, the conversation (its session file's growth),
    // the rest —, V8's old space and its free part, the rest of RSS.
    const memHalf = mem.filter((r) => r.t >= t0 + (samples.at(-1)!.t - t0) / 2 && Number.isFinite(r.liveMb));
    const memSlope = (f: (r: Record<string, number>) => number) => slope(memHalf.map((r) => (r.t - t0) / 60_000), memHalf.map(f));
    const liveSlope = memSlope((r) => r.liveMb!);
    const codeSlope = memSlope((r) => r.codeMb!);
    const largeObjectSlope = memSlope((r) => r.largeObjectSpace!);
    const oldSlope = memSlope((r) => r.oldSpace!);
    const oldFreeSlope = memSlope((r) => r.oldFree!);
    const outsideSlope = memSlope((r) => r.rss! - r.heapTotal! - r.external!);
    const conversationSlope = slope(half.map((s) => (s.t - t0) / 60_000), half.map((s) => s.filesMb));
    log(`render: soak ${minutes} min, ${rounds} rounds: idle ${idleMb.toFixed(0)} MB, start ${start.toFixed(0)}, end ${endMb.toFixed(0)}, peak ${peak.toFixed(0)}, slope ${perMin.toFixed(2)} MB/min, CPU ${cpuPercent.toFixed(0)} % of a core; end heapUsed ${endMem.heapUsed} heapTotal ${endMem.heapTotal} (old ${endMem.oldSpace}, free in it ${endMem.oldFree}, new ${endMem.newSpace}, large objects ${endMem.largeObjectSpace}; after the last full GC ${endMem.liveMb}, JIT code and bytecode ${endMem.codeMb}) external ${endMem.external} MB; the main session's file ${last.filesMb.toFixed(1)} MB`);
    return {
      group: "render",
      name: `${SOAK}: RSS slope`,
      median: perMin,
      unit: "MB/min",
      runs: 1,
      extra: { minutes, rounds, idleRssMb: idleMb, startRssMb: start, endRssMb: endMb, peakRssMb: peak, cpuPercentOfOneCore: cpuPercent, endHeapUsedMb: endMem.heapUsed ?? Number.NaN, endExternalMb: endMem.external ?? Number.NaN, endLiveMb: endMem.liveMb ?? Number.NaN, endCodeMb: endMem.codeMb ?? Number.NaN, endConversationFileMb: last.filesMb, liveSlope, codeSlope, largeObjectSlope, conversationSlope, oldSpaceSlope: oldSlope, oldFreeSlope, outsideHeapSlope: outsideSlope },
      note: `${minutes} min, ${rounds} rounds; RSS idle ${idleMb.toFixed(0)} MB, after the first answer ${start.toFixed(0)} MB, end ${endMb.toFixed(0)} MB, peak ${peak.toFixed(0)} MB; slope over the second half ${perMin.toFixed(2)} MB/min; CPU ${cpuPercent.toFixed(0)} % of a core after the first answer`,
    };
  } finally {
    clearInterval(timer);
    await stopAndRemove(name, [inkHome, cwd]);
  }
}

/** The soak's figure when the scenario filter lets it run (none is set, or it names the soak); a failed soak is a row saying why. */
export async function soakFigures(quick: boolean, log: (line: string) => void): Promise<Figure[]> {
  const only = process.env.INK_BENCH_SCENARIO;
  if (only && !SOAK.includes(only)) return [];
  const server = await startFakeAnthropic();
  try {
    return [await soakFigure(server, quick, 0, log)];
  } catch (err) {
    log(`render: ${SOAK} failed: ${(err as Error).message.split("\n")[0]}`);
    return [{ group: "render", name: SOAK, median: Number.NaN, unit: "MB/min", runs: 0, note: `failed: ${(err as Error).message.split("\n")[0]}` }];
  } finally {
    killTmuxServer();
    await server.close();
  }
}
