/**
 * `startup`: the `node -e 0` floor; `ink --version`; `ink -p` with a one-line answer from the demo
 * model and from a loopback Messages-API server; and spawn → first full TUI frame (the prompt box
 * drawn) in a pseudo-terminal made by util-linux `script`, next to `node -e` in the same pty; and
 * the TUI's idle RSS (VmRSS of its node process 3 s after that frame, nothing typed); and the first
 * frame when resuming a saved session of 10,000 messages.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sseTurn, startFakeAnthropic } from "../test/helpers/fake-anthropic-server.js";
import { historySession } from "./history-session.js";
import { CLI, hasCommand, median, spawnMedian, type Figure } from "./stats.js";
import { rssMb } from "./tmux.js";

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-B]|\u001b[=>78]|\u001b\][^\u0007]*\u0007/g;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `command` in a 120×40 pty (util-linux `script`) until its output (ANSI stripped) shows
 * `marker`; `waitMs` later resolves with `measure(ms from spawn to the marker, script's pid)`, then
 * Ctrl-C twice ends the command. Rejects when the marker does not come within 30 s or `measure` throws.
 */
function inPtyUntil<T>(command: string, marker: string, env: NodeJS.ProcessEnv, waitMs: number, measure: (ms: number, scriptPid: number) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn("script", ["-qfec", `stty rows 40 cols 120; exec ${command}`, "/dev/null"], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "ignore"] });
    let text = "";
    let seen = false;
    let result: { value: T } | undefined;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no "${marker}" within 30 s from: ${command}\n${text.replace(ANSI, "").slice(-500)}`));
    }, 30_000 + waitMs);
    child.stdout.on("data", (d: Buffer) => {
      if (seen) return;
      text += d.toString("utf8");
      if (!text.replace(ANSI, "").includes(marker)) return;
      seen = true;
      const at = performance.now() - t;
      setTimeout(() => {
        try {
          result = { value: measure(at, child.pid!) };
        } catch (err) {
          reject(err);
        }
        child.stdin.write("\u0003");
        setTimeout(() => child.stdin.write("\u0003"), 100);
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }, waitMs);
    });
    child.on("error", reject);
    // The app may be gone after the first Ctrl-C: the second one then meets a closed pipe.
    child.stdin.on("error", () => {});
    child.on("close", () => {
      clearTimeout(timer);
      if (result !== undefined) resolve(result.value);
      else reject(new Error(`exited before "${marker}" was measured: ${command}\n${text.replace(ANSI, "").slice(-500)}`));
    });
  });
}

/** Wall ms from spawning `command` in a pty until its output shows `marker`. */
const timeToMarker = (command: string, marker: string, env: NodeJS.ProcessEnv) => inPtyUntil(command, marker, env, 0, (ms) => ms);

/** The pids of `root`'s descendants (read from /proc/<pid>/stat), nearest first. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const p = queue.shift()!;
    for (const [pid, ppid] of parentOf) if (ppid === p) (out.push(pid), queue.push(pid));
  }
  return out;
}

/** RSS (MB) of the node process `command` runs in a pty, `idleMs` after its output first shows `marker`, untouched meanwhile. */
const idleRss = (command: string, marker: string, env: NodeJS.ProcessEnv, idleMs: number) =>
  inPtyUntil(command, marker, env, idleMs, (_ms, scriptPid) => {
    const node = descendants(scriptPid).find((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "node");
    if (node === undefined) throw new Error(`no node process under script (pid ${scriptPid})`);
    const mb = rssMb(node);
    if (Number.isNaN(mb)) throw new Error(`no VmRSS for pid ${node}`);
    return mb;
  });

/** The startup figures; `runs` spawns each (≥ 10 for the TUI frame). */
export async function startupFigures(runs: number, log: (line: string) => void): Promise<{ floorMs: number; figures: Figure[] }> {
  const floorMs = await spawnMedian(runs, ["-e", "0"]);
  const figures: Figure[] = [{ group: "startup", name: "node -e 0 (the floor)", median: floorMs, unit: "ms", runs }];
  const ratio = (ms: number) => `${(ms / floorMs).toFixed(2)}× node -e 0`;
  const version = await spawnMedian(runs, [CLI, "--version"]);
  figures.push({ group: "startup", name: "ink --version", median: version, unit: "ms", runs, note: ratio(version) });

  const home = mkdtempSync(join(tmpdir(), "ink-bench-startup-"));
  const server = await startFakeAnthropic();
  try {
    const demo = await spawnMedian(runs, [CLI, "-p", "hi", "--provider", "demo", "--cwd", home], { INK_HOME: home, INK_DEMO_DELAY_MS: "0" });
    figures.push({ group: "startup", name: "ink -p, one-line answer (demo model)", median: demo, unit: "ms", runs, note: ratio(demo) });
    server.setFallback(sseTurn([{ text: "Hello." }]));
    const api = await spawnMedian(runs, [CLI, "-p", "say hello", "--cwd", home], { INK_HOME: home, ANTHROPIC_API_KEY: "bench", ANTHROPIC_BASE_URL: server.url, INK_MODEL: "claude-fake" });
    figures.push({ group: "startup", name: "ink -p, one-line answer (loopback Messages API)", median: api, unit: "ms", runs, note: ratio(api) });

    if (!hasCommand("script", "--version")) {
      log("startup: util-linux script not found; the TUI first-frame figure is skipped");
    } else {
      const frameRuns = Math.max(10, runs);
      const env = { INK_HOME: home, ANTHROPIC_API_KEY: "", ANTHROPIC_BASE_URL: "" };
      const ptyFloor: number[] = [];
      const frames: number[] = [];
      await timeToMarker(`${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(home)}`, "Ask Ink", env);
      for (let i = 0; i < frameRuns; i++) {
        ptyFloor.push(await timeToMarker(`${quote(process.execPath)} -e ${quote('process.stdout.write("READY")')}`, "READY", env));
        frames.push(await timeToMarker(`${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(home)}`, "Ask Ink", env));
      }
      const frame = median(frames);
      const floorPty = median(ptyFloor);
      const rss: number[] = [];
      for (let i = 0; i < 3; i++) rss.push(await idleRss(`${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(home)}`, "Ask Ink", env, 3_000));
      figures.push({ group: "startup", name: "TUI: spawn → first full frame (pty)", median: frame, unit: "ms", runs: frameRuns, extra: { ptyFloorMs: floorPty }, note: `${ratio(frame)}; node -e in the same pty: ${floorPty.toFixed(0)} ms (${(frame / floorPty).toFixed(2)}×)` });
      figures.push({ group: "startup", name: "TUI: idle RSS, 3 s after the first frame", median: median(rss), unit: "MB", runs: rss.length, note: "target ≤ 80 MB" });
      // Resuming a long session: the model history is read whole, the transcript drawn for the screen only.
      const resumed: number[] = [];
      const id = historySession(home, home, 10_000);
      for (let i = 0; i < Math.max(3, Math.ceil(runs / 2)); i++) resumed.push(await timeToMarker(`${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(home)} --resume ${id}`, "Ask Ink", env));
      figures.push({ group: "startup", name: "TUI: first frame resuming a 10,000-message session", median: median(resumed), unit: "ms", runs: resumed.length, note: `${(median(resumed) / frame).toFixed(2)}× a new session's` });
    }
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
  return { floorMs, figures };
}
