/** Process checks for tests that a command left nothing behind: whether a pid lives, live `sleep` processes, and polling until a check holds. */
import { readdirSync, readFileSync } from "node:fs";

/** True while `pid` runs (a zombie, exited but not yet reaped, counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its parent) counts as gone.
    return !/^\d+ \([^)]*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Live (not zombie) pids whose command line is exactly `sleep <secs>`. */
export function sleeping(secs: string): number[] {
  return readdirSync("/proc").filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    try {
      if (readFileSync(`/proc/${n}/cmdline`, "latin1") !== `sleep\0${secs}\0`) return [];
      const stat = readFileSync(`/proc/${n}/stat`, "latin1");
      return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z") ? [] : [Number(n)];
    } catch {
      return [];
    }
  });
}

/** Polls `check` up to `tries` times, `stepMs` apart; resolves with its last answer. */
export async function waitUntil(check: () => boolean, tries = 250, stepMs = 20): Promise<boolean> {
  for (let i = 0; i < tries && !check(); i++) await new Promise((r) => setTimeout(r, stepMs));
  return check();
}
