/**
 * Runs one hook command: `sh -c <command>` in the project directory, in its own process group,
 * with the event's JSON on stdin. On its timeout or an abort the whole group (and any process of
 * it that left the group, found by its call tag) is killed — SIGTERM, then SIGKILL; when the hook
 * exits, whatever it left running in its group is killed too. The group is tracked so that Ink's
 * exit cleanup (src/host/exit-hooks.ts) kills a hook still running when Ink exits.
 */
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { toolEnv } from "../tools/tool-env.js";
import { newCallTag, pidsWithEnv, SESSION_RUN_TAG, trackGroup, untrackGroup } from "../tools/process-registry.js";

export interface HookRun {
  /** Exit code; null when killed or not started. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** Why it could not start. */
  error?: string;
}

export interface HookRunOptions {
  command: string;
  /** The JSON written to the hook's stdin. */
  input: unknown;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra environment (CLAUDE_PROJECT_DIR…). */
  env?: Record<string, string>;
  envPassthrough?: readonly string[];
  /** How long a group has after SIGTERM before SIGKILL (default 500 ms). */
  killGraceMs?: number;
}

const MAX_OUTPUT = 64 * 1024;

/** Runs the hook to its end (or its kill). Never rejects. */
export function runHookCommand(opts: HookRunOptions): Promise<HookRun> {
  return new Promise((resolve) => {
    const callTag = newCallTag();
    const env = { ...toolEnv(process.env, opts.envPassthrough ?? []), ...opts.env, INK_RUN_ID: SESSION_RUN_TAG, INK_CALL_ID: callTag };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn("/bin/sh", ["-c", opts.command], { cwd: opts.cwd, detached: true, env, stdio: ["pipe", "pipe", "pipe"] });
    } catch (err) {
      resolve({ code: null, stdout: "", stderr: "", timedOut: false, aborted: false, error: (err as Error).message });
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let aborted = false;
    let done = false;
    let killTimer: NodeJS.Timeout | undefined;
    const collect = (stream: NodeJS.ReadableStream | null, add: (s: string) => void) => {
      const dec = new StringDecoder("utf8");
      stream?.on("data", (c: Buffer) => add(dec.write(c)));
    };
    collect(child.stdout, (s) => (stdout = (stdout + s).slice(0, MAX_OUTPUT)));
    collect(child.stderr, (s) => (stderr = (stderr + s).slice(0, MAX_OUTPUT)));
    const killAll = (sig: NodeJS.Signals) => {
      if (pid === undefined) return;
      for (const target of [-pid, ...pidsWithEnv("INK_CALL_ID", callTag)]) {
        try {
          process.kill(target, sig);
        } catch {
          // already gone
        }
      }
    };
    const stop = () => {
      killAll("SIGTERM");
      killTimer ??= setTimeout(() => killAll("SIGKILL"), opts.killGraceMs ?? 500);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (code: number | null, error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      // Nothing a hook started outlives it.
      killAll("SIGKILL");
      clearTimeout(killTimer);
      if (pid !== undefined) untrackGroup(pid);
      resolve({ code: timedOut || aborted ? null : code, stdout, stderr, timedOut, aborted, ...(error ? { error } : {}) });
    };
    child.on("error", (err) => finish(null, err.message));
    // A process the hook left holding its output would keep "close" away: it is killed shortly after the hook exits.
    child.on("exit", () => setTimeout(() => killAll("SIGKILL"), 200).unref());
    child.on("close", (code) => finish(code));
    // A hook that ignores its stdin closes the pipe early: that is not an error.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(JSON.stringify(opts.input));
  });
}
