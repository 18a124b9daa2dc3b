/**
 * Telling a live process from a pid that was reused after a crash: the kernel's start time of a
 * process (`/proc/<pid>/stat`, field 22, clock ticks since boot) is recorded in a lock and
 * compared later; where /proc is not available, the command line stands in (when readable).
 */
import { readFileSync } from "node:fs";

/** The start time of process `pid` as recorded by the kernel, or undefined when it cannot be read. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = rest[19]; // field 22 overall; `rest` starts at field 3
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** The command line of process `pid` (arguments joined by spaces), or undefined when unreadable. */
export function processCommandLine(pid: number): string | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return raw === "" ? undefined : raw.split("\0").filter(Boolean).join(" ");
  } catch {
    return undefined;
  }
}

/**
 * True when the process now running as `pid` is provably not the one recorded (its start time or,
 * failing that, its command line differs). Without a record or without /proc: false (assume same).
 */
export function isDifferentProcess(pid: number, recorded: { procStart?: string; command?: string }): boolean {
  if (recorded.procStart !== undefined) {
    const now = processStartTime(pid);
    if (now !== undefined) return now !== recorded.procStart;
  }
  if (recorded.command !== undefined) {
    const now = processCommandLine(pid);
    if (now !== undefined) return now !== recorded.command;
  }
  return false;
}
