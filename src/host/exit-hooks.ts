/**
 * Exit wiring: on normal exit, SIGINT, SIGTERM, SIGHUP and an uncaught error every process a
 * tool started is killed (groups and /proc-tagged strays, SIGTERM then SIGKILL) and every
 * registered cleanup (session locks) runs. Once cleanup has started, further signals are ignored
 * so a second Ctrl-C can never skip the SIGKILL. An exit by a signal first runs the registered
 * enders (the sessions' SessionEnd hooks) for at most SIGNAL_END_MS; a second signal meanwhile
 * exits at once.
 */
import { killAllSync } from "../tools/process-registry.js";

const cleanups = new Set<() => void>();
const enders = new Set<(signal: AbortSignal) => Promise<void>>();
/** How long a signal exit waits for the enders (SessionEnd hooks) before it cuts them short. */
export const SIGNAL_END_MS = 1500;
let ending = false;
let installed = false;
let cleaning = false;

/** Registers a cleanup (e.g. a lock release) run once on any exit; returns an unregister function. */
export function onExit(fn: () => void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Registers work to do before a signal exit (a session's SessionEnd hooks), given a signal that cuts it short; returns an unregister function. */
export function onSignalExit(fn: (signal: AbortSignal) => Promise<void>): () => void {
  enders.add(fn);
  return () => enders.delete(fn);
}

/**
 * Runs every registered ender once (in parallel), aborting them after `timeoutMs`; resolves when
 * they have returned, and at the latest a second after the abort. Never rejects.
 */
export async function runSignalEnders(timeoutMs = SIGNAL_END_MS): Promise<void> {
  const list = [...enders];
  enders.clear();
  if (list.length === 0) return;
  const controller = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  const after = (ms: number, fn: () => void) => new Promise<void>((resolve) => timers.push(setTimeout(() => (fn(), resolve()), ms)));
  void after(timeoutMs, () => controller.abort());
  await Promise.race([Promise.all(list.map((fn) => fn(controller.signal).catch(() => undefined))), after(timeoutMs + 1000, () => undefined)]);
  for (const t of timers) clearTimeout(t);
}

/** Kills tool processes and runs the cleanups, once. */
export function cleanupNow(): void {
  if (cleaning) return;
  cleaning = true;
  killAllSync();
  for (const fn of cleanups) {
    try {
      fn();
    } catch {
      // one failed cleanup must not stop the others
    }
  }
}

/**
 * Installs the handlers. `onSignal` (optional) gets the first SIGINT/SIGTERM to stop the run
 * gracefully; SIGHUP, a second signal, or no handler exit right after cleanup.
 */
export function installExitHooks(opts: { onSignal?: (sig: NodeJS.Signals) => void; hangup?: boolean } = {}): void {
  if (installed) return;
  installed = true;
  process.on("exit", cleanupNow);
  let first = true;
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(sig, () => {
      if (cleaning) return;
      if (first && (sig !== "SIGHUP" || opts.hangup) && opts.onSignal) {
        first = false;
        opts.onSignal(sig);
        return;
      }
      const code = sig === "SIGINT" ? 130 : 128 + (sig === "SIGTERM" ? 15 : 1);
      const exit = () => {
        cleanupNow();
        process.exit(code);
      };
      if (ending) return exit();
      ending = true;
      // Tools stop at once; the SessionEnd hooks get a short while, then everything else is cleaned up.
      killAllSync();
      void runSignalEnders().finally(exit);
    });
  }
  process.on("uncaughtException", (err) => {
    process.stderr.write(`ink: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    cleanupNow();
    process.exit(1);
  });
}
