/**
 * `startup`: the `node -e 0` floor; `ink --version`; `ink -p` with a one-line answer from the demo
 * model and from a loopback Messages-API server; and spawn → first full TUI frame (the prompt box
 * drawn) in a pseudo-terminal made by util-linux `script`, next to `node -e` in the same pty.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sseTurn, startFakeAnthropic } from "../test/helpers/fake-anthropic-server.js";
import { CLI, hasCommand, median, spawnMedian, type Figure } from "./stats.js";

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-B]|\u001b[=>78]|\u001b\][^\u0007]*\u0007/g;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Wall ms from spawning `command` in a 120×40 pty until its output (ANSI stripped) shows `marker`; then Ctrl-C twice ends it. */
function timeToMarker(command: string, marker: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn("script", ["-qfec", `stty rows 40 cols 120; exec ${command}`, "/dev/null"], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "ignore"] });
    let text = "";
    let at: number | undefined;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no "${marker}" within 30 s from: ${command}\n${text.replace(ANSI, "").slice(-500)}`));
    }, 30_000);
    child.stdout.on("data", (d: Buffer) => {
      if (at !== undefined) return;
      text += d.toString("utf8");
      if (!text.replace(ANSI, "").includes(marker)) return;
      at = performance.now() - t;
      child.stdin.write("\u0003");
      setTimeout(() => child.stdin.write("\u0003"), 100);
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    });
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      if (at !== undefined) resolve(at);
      else reject(new Error(`exited before "${marker}": ${command}\n${text.replace(ANSI, "").slice(-500)}`));
    });
  });
}

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
      figures.push({ group: "startup", name: "TUI: spawn → first full frame (pty)", median: frame, unit: "ms", runs: frameRuns, extra: { ptyFloorMs: floorPty }, note: `${ratio(frame)}; node -e in the same pty: ${floorPty.toFixed(0)} ms (${(frame / floorPty).toFixed(2)}×)` });
    }
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
  return { floorMs, figures };
}
