/**
 * A real terminal for benchmarks: a tmux server on its own socket (-L, the only one this code ever
 * kills), one session per run, every byte the app writes copied to a file with `pipe-pane`, and the
 * app's CPU time and peak RSS read from /proc.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const socket = `ink-bench-${process.pid}`;

/** Runs a tmux command on the benchmark socket; returns stdout, throws with stderr on failure. */
export function tmux(...args: string[]): string {
  const r = spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tmux ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** Stops the benchmark's tmux server (and every app still running in it). */
export function killTmuxServer(): void {
  spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
}

/** The visible screen of session `name`. */
export function screen(name: string): string {
  return tmux("capture-pane", "-p", "-J", "-t", name);
}

/** Polls the screen of `name` until `test` accepts it; throws with the screen after `timeoutMs`. */
export async function waitForScreen(name: string, test: (s: string) => boolean, what: string, timeoutMs = 120_000, intervalMs = 100): Promise<string> {
  const end = Date.now() + timeoutMs;
  let s = "";
  while (Date.now() < end) {
    s = screen(name);
    if (test(s)) return s;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
}

/** The pid of the process in session `name`'s pane. */
export function panePid(name: string): number {
  return Number(tmux("display-message", "-p", "-t", name, "#{pane_pid}").trim());
}

const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** CPU seconds (user + system) process `pid` has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime (fields 14, 15)
}

/** CPU seconds process `pid`'s threads have used so far: its main thread's user and system time, and its other threads' in all (Node's: V8's GC and compiler threads, libuv's pool). */
export function threadCpuSeconds(pid: number): { mainUser: number; mainSystem: number; others: number } {
  const out = { mainUser: 0, mainSystem: 0, others: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [user, system] = [Number(fields[11]) / TICKS_PER_SECOND, Number(fields[12]) / TICKS_PER_SECOND];
    if (Number(tid) === pid) Object.assign(out, { mainUser: user, mainSystem: system });
    else out.others += user + system;
  }
  return out;
}

/**
 * CPU seconds (user + system) process `pid` and its descendants have used so far: each live
 * process's own time and that of its children it has waited for (cutime, cstime), so a helper
 * process that came and went is counted too.
 */
export function treeCpuSeconds(pid: number): number {
  const stats = new Map<number, string[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      stats.set(Number(entry), stat.slice(stat.lastIndexOf(")") + 2).split(" "));
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, f] of stats) {
      if (tree.has(p) || !tree.has(Number(f[1]))) continue; // f[1]: the parent's pid (field 4)
      tree.add(p);
      grew = true;
    }
  }
  let ticks = 0;
  for (const p of tree) {
    const f = stats.get(p);
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // utime, stime, cutime, cstime (fields 14–17)
  }
  return ticks / TICKS_PER_SECOND;
}

/** Peak resident set size of process `pid` so far, in MB (VmHWM). */
export function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** Occurrences of `needle` in `text`. */
export function count(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Current resident set size of process `pid`, in MB (VmRSS). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}
