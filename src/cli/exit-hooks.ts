/**
 * Exit wiring: on normal exit, SIGINT, SIGTERM, SIGHUP and an uncaught error every process a
 * tool started is killed (groups and /proc-tagged strays, SIGTERM then SIGKILL) and every
 * registered cleanup (session locks) runs. Once cleanup has started, further signals are ignored
 * so a second Ctrl-C can never skip the SIGKILL.
 */
import { killAllSync } from "../tools/process-registry.js";

const cleanups = new Set<() => void>();
let installed = false;
let cleaning = false;

/** Registers a cleanup (e.g. a lock release) run once on any exit; returns an unregister function. */
export function onExit(fn: () => void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
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
export function installExitHooks(opts: { onSignal?: (sig: NodeJS.Signals) => void } = {}): void {
  if (installed) return;
  installed = true;
  process.on("exit", cleanupNow);
  let first = true;
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(sig, () => {
      if (cleaning) return;
      if (first && sig !== "SIGHUP" && opts.onSignal) {
        first = false;
        opts.onSignal(sig);
        return;
      }
      cleanupNow();
      process.exit(sig === "SIGINT" ? 130 : 128 + (sig === "SIGTERM" ? 15 : 1));
    });
  }
  process.on("uncaughtException", (err) => {
    process.stderr.write(`ink: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    cleanupNow();
    process.exit(1);
  });
}
