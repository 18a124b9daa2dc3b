/**
 * Every process a tool started: the process groups of running `bash` calls, a per-session tag
 * (`INK_RUN_ID` in each run's environment) so processes that left the group (setsid, double fork,
 * nohup) are still found by sweeping /proc on Linux, and — where bash runs without a namespace —
 * a marker file descriptor each call's processes inherit, which `env -i` or `env -u` do not shed.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { MARKER_FD } from "./call-marker.js";

/** This process's tag; every tool process inherits `INK_RUN_ID=<tag>`. */
export const SESSION_RUN_TAG = `ink-${process.pid}-${randomBytes(4).toString("hex")}`;

const groups = new Set<number>();
/** `/proc/<pid>/fd` link texts of the marker descriptors of unsandboxed calls that may have processes left. */
const markers = new Set<string>();

/** Tracks the marker (the `/proc/<pid>/fd/<n>` link text) that a call's processes inherit. */
export function trackMarker(link: string): void {
  markers.add(link);
}

/** Stops tracking a marker (nothing holds it any more). */
export function untrackMarker(link: string): void {
  markers.delete(link);
}

/**
 * Pids of live processes (not this one) whose descriptor `fd` links to one of `links` (Linux /proc;
 * only processes of this user are readable; empty elsewhere). One readlink a process: an inherited
 * descriptor keeps its number through fork, exec, setsid and env.
 */
export function pidsHolding(links: ReadonlySet<string>, fd: number = MARKER_FD): number[] {
  if (links.size === 0) return [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const n of names) {
    if (!/^\d+$/.test(n) || Number(n) === process.pid) continue;
    try {
      if (links.has(readlinkSync(`/proc/${n}/fd/${fd}`))) out.push(Number(n));
    } catch {
      // no such descriptor, gone, or another user's
    }
  }
  return out;
}

/** Tracks a running process group. */
export function trackGroup(pgid: number): void {
  groups.add(pgid);
}

/** Stops tracking a group (its call ended and nothing of it is left). */
export function untrackGroup(pgid: number): void {
  groups.delete(pgid);
}

/** Pids of live processes whose environment carries `INK_RUN_ID=<tag>` (Linux /proc; empty elsewhere). */
export function taggedPids(tag: string = SESSION_RUN_TAG): number[] {
  return pidsWithEnv("INK_RUN_ID", tag);
}

let calls = 0;

/** A fresh tag for one tool call: its processes carry `INK_CALL_ID=<tag>` (besides the session's `INK_RUN_ID`). */
export function newCallTag(): string {
  return `${SESSION_RUN_TAG}-${++calls}`;
}

/** Pids of live processes (not this one) whose environment holds exactly `name=value` (Linux /proc; empty elsewhere). */
export function pidsWithEnv(name: string, value: string): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const needle = `\0${name}=${value}\0`;
  const out: number[] = [];
  for (const n of names) {
    if (!/^\d+$/.test(n) || Number(n) === process.pid) continue;
    try {
      if (`\0${readFileSync(`/proc/${n}/environ`, "latin1")}`.includes(needle)) out.push(Number(n));
    } catch {
      // gone or not ours
    }
  }
  return out;
}

/** The command line of `pid` (spaces between arguments), or undefined when it is gone or unreadable. */
export function commandLineOf(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter((w) => w !== "").join(" ");
    return text === "" ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Sends `sig` to every tracked group and every tagged process. Returns how many targets were signalled. */
export function signalAll(sig: NodeJS.Signals, tag: string = SESSION_RUN_TAG): number {
  let n = 0;
  for (const g of groups) {
    try {
      process.kill(-g, sig);
      n++;
    } catch {
      groups.delete(g);
    }
  }
  for (const pid of new Set([...taggedPids(tag), ...pidsHolding(markers)])) {
    try {
      process.kill(pid, sig);
      n++;
    } catch {
      // already gone
    }
  }
  return n;
}

/** Kills everything synchronously-ish: SIGTERM, a short busy wait up to `graceMs`, then SIGKILL for what is left. */
export function killAllSync(graceMs = 500, tag: string = SESSION_RUN_TAG): void {
  if (signalAll("SIGTERM", tag) === 0) return;
  const until = Date.now() + graceMs;
  while (Date.now() < until && taggedPids(tag).length + pidsHolding(markers).length > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  signalAll("SIGKILL", tag);
  groups.clear();
  markers.clear();
}
