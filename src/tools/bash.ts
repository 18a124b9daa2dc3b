/**
 * The `bash` tool: runs `bash -c <command>` in the working directory, in its own process group,
 * streaming output to the UI. On abort or timeout the WHOLE group gets SIGTERM, then SIGKILL after
 * a grace period, so background children do not survive — nor ones that left the group (setsid,
 * double fork), found by the call's `INK_CALL_ID` tag and — without a namespace — by the marker
 * descriptor its processes inherit (call-marker.ts). A command that returns while something it
 * started still runs says so in its result (pids and command lines; Ink kills them on exit).
 * Output (stdout+stderr interleaved) is capped to its tail with a note saying how much was dropped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { constants } from "node:os";
import { StringDecoder } from "node:string_decoder";
import { z } from "zod";
import { aborted, errorMessage, fail } from "./result.js";
import { toolEnv } from "./tool-env.js";
import { bashSandbox, confinedPrefix, confinementUnavailable, SANDBOX_WRAPPER, WRAPPER_NAME, type BashSandbox, type Boundary, type SandboxSettings } from "./sandbox.js";
import { commandLineOf, newCallTag, pidsHolding, pidsWithEnv, SESSION_RUN_TAG, trackGroup, trackMarker, untrackGroup, untrackMarker } from "./process-registry.js";
import { closeParentCopy, markedStdio, openCallMarker } from "./call-marker.js";
import { formatBytes } from "../protocol/format-bytes.js";
import { TailBuffer } from "./truncate.js";
import type { Tool, ToolContext, ToolOutput } from "../protocol/tool.js";

export interface BashToolOptions {
  /** Timeout when the call gives none (default 120 000 ms). */
  defaultTimeoutMs?: number;
  /** Wait between SIGTERM and SIGKILL of the process group (default 2000 ms). */
  killGraceMs?: number;
  /**
   * After the shell exits, how long to wait for background processes that still hold its output
   * pipes before returning without them (default 200 ms). They are left running.
   */
  drainMs?: number;
  /** Output kept: at most this many bytes (default 50 000)… */
  maxBytes?: number;
  /** …and this many lines (default 2000), both from the end. */
  maxLines?: number;
  /** Shell binary (default "bash"). */
  shell?: string;
  /** Secret-looking variables the command may still inherit (names, `*` wildcards). */
  envPassthrough?: readonly string[];
  /** Variables added to every command's environment, read at call time (CLAUDE_ENV_FILE's exports). */
  extraEnv?: () => Record<string, string>;
  /** Where commands run (default: the system's, see sandbox.ts). */
  sandbox?: BashSandbox;
  /** The OS boundary of a call (see sandbox.ts `boundaryFor`); none: the namespace alone, as before. */
  boundary?: (ctx: ToolContext) => Boundary;
  /** The user's `sandbox` settings (paths a confined call may also write). */
  sandboxSettings?: SandboxSettings;
}

/** Details attached to a bash result (for the UI/session, not the model). */
export interface BashDetails {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
  totalBytes: number;
}

const schema = z.object({
  command: z.string().min(1).describe("The shell command to run with `bash -c` in the working directory."),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(3_600_000)
    .optional()
    .describe("Kill the command (and everything it started) after this many milliseconds (default 120000)."),
});

/** Builds a bash tool; options exist so tests can use tiny delays and limits. */
export function createBashTool(options: BashToolOptions = {}): Tool<typeof schema> {
  const config = {
    defaultTimeoutMs: options.defaultTimeoutMs ?? 120_000,
    killGraceMs: options.killGraceMs ?? 2000,
    drainMs: options.drainMs ?? 200,
    maxBytes: options.maxBytes ?? 50_000,
    maxLines: options.maxLines ?? 2000,
    shell: options.shell ?? "bash",
    envPassthrough: options.envPassthrough ?? [],
    extraEnv: options.extraEnv,
    sandbox: options.sandbox,
    boundary: options.boundary,
    sandboxSettings: options.sandboxSettings,
  };
  return {
    name: "bash",
    description:
      "Run a shell command with `bash -c` in the working directory (stdin is closed; use non-interactive flags). " +
      "stdout and stderr are combined. A non-zero exit code is reported as an error. " +
      `Long output keeps only the last ${config.maxLines} lines / ${formatBytes(config.maxBytes)}. ` +
      `Times out after ${config.defaultTimeoutMs} ms unless timeoutMs is given; on timeout or interrupt ` +
      "the command and all its child processes are killed. Prefer read/grep/find/ls/edit/write for file work.",
    schema,
    concurrent: false,
    readOnly: false,
    execute(args, ctx) {
      if (ctx.signal.aborted) return Promise.resolve(aborted());
      try {
        if (!statSync(ctx.cwd).isDirectory()) return Promise.resolve(fail(`Working directory ${ctx.cwd} is not a directory.`));
      } catch {
        return Promise.resolve(fail(`Working directory ${ctx.cwd} does not exist.`));
      }
      return run(args.command, args.timeoutMs ?? config.defaultTimeoutMs, ctx, config);
    },
  };
}

/** The default bash tool. */
export const bashTool = createBashTool();

type Config = Required<Omit<BashToolOptions, "sandbox" | "extraEnv" | "boundary" | "sandboxSettings">> & Pick<BashToolOptions, "sandbox" | "extraEnv" | "boundary" | "sandboxSettings">;

function run(command: string, timeoutMs: number, ctx: ToolContext, config: Config): Promise<ToolOutput> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    const callTag = newCallTag();
    const sandbox = config.sandbox ?? bashSandbox();
    // A confined call (unattended, see boundaryFor) gets bubblewrap's write and network limits where they can be had; elsewhere it runs as before (the header says so).
    const boundary = config.boundary?.(ctx);
    const confined = boundary?.confine === true && sandbox.kind === "bwrap" && confinementUnavailable() === undefined;
    const prefix = confined ? confinedPrefix(ctx.cwd, boundary, config.sandboxSettings) : sandbox.prefix;
    const sandboxed = prefix.length > 0;
    const env = { ...toolEnv(process.env, config.envPassthrough), ...config.extraEnv?.(), INK_RUN_ID: SESSION_RUN_TAG, INK_CALL_ID: callTag };
    // Without a namespace, a marker descriptor finds the call's processes that shed the group and the tag.
    const marker = sandboxed ? undefined : openCallMarker(callTag);
    const marked = new Set(marker ? [marker.link] : []);
    try {
      child = sandboxed
        ? // The namespace's wrapper reports the command's exit status on fd 3 (the outer process holds the output pipes until the namespace ends).
          spawn(prefix[0]!, [...prefix.slice(1), config.shell, "-c", SANDBOX_WRAPPER, WRAPPER_NAME, command, config.shell], { cwd: ctx.cwd, detached: true, env, stdio: ["ignore", "pipe", "pipe", "pipe"] })
        : spawn(config.shell, ["-c", command], { cwd: ctx.cwd, detached: true, env, stdio: markedStdio(marker) });
    } catch (err) {
      closeParentCopy(marker);
      resolve(fail(`Could not start ${config.shell}: ${errorMessage(err)}`));
      return;
    }
    closeParentCopy(marker);
    if (marker) trackMarker(marker.link);
    /** The call's processes outside its group: by tag, and (unsandboxed) by marker. */
    const strays = () => [...new Set([...pidsWithEnv("INK_CALL_ID", callTag), ...pidsHolding(marked)])];
    if (child.pid !== undefined) trackGroup(child.pid);
    const tail = new TailBuffer(config.maxBytes, config.maxLines);
    let stopReason: "timeout" | "aborted" | null = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    let drainTimer: NodeJS.Timeout | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let done = false;

    let chunks = 0;
    const pipe = (stream: NodeJS.ReadableStream | null) => {
      const decoder = new StringDecoder("utf8");
      stream?.on("data", (chunk: Buffer) => {
        chunks++;
        accept(decoder.write(chunk));
      });
      stream?.on("end", () => accept(decoder.end()));
    };
    const accept = (text: string) => {
      if (!text || done) return;
      tail.push(text);
      ctx.onUpdate?.(text);
    };
    pipe(child.stdout);
    pipe(child.stderr);

    // The group, and every process of this call that left it (setsid, double fork), found by its tag.
    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      for (const target of [-child.pid, ...strays()]) {
        try {
          process.kill(target, sig);
        } catch {
          // ESRCH: already gone.
        }
      }
    };
    const stop = (why: "timeout" | "aborted") => {
      if (stopReason || done) return;
      stopReason = why;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), config.killGraceMs);
    };
    const onAbort = () => stop("aborted");
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    const timeoutTimer = setTimeout(() => stop("timeout"), timeoutMs);

    // Sandboxed, the group's outer process lives exactly as long as anything in the namespace (and
    // its last members may still be dying when it is reaped): its end is the end of everything.
    // The wrapper says whether anything else still runs; "nothing" means the namespace is ending.
    let outerEnded = false;
    let namespaceLeft: boolean | undefined;
    const alive = () => child.pid !== undefined && (sandboxed ? !outerEnded && namespaceLeft !== false : groupAlive(child.pid));
    const finish = (lingering: boolean, spawnError?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timeoutTimer);
      clearTimeout(drainTimer);
      ctx.signal.removeEventListener("abort", onAbort);
      const stray = strays();
      if (killTimer && !alive() && stray.length === 0) clearTimeout(killTimer);
      if (child.pid !== undefined && !alive()) untrackGroup(child.pid);
      if (marker && stray.length === 0 && !alive()) untrackMarker(marker.link);
      child.stdout?.destroy();
      child.stderr?.destroy();
      (child.stdio[3] as NodeJS.ReadableStream & { destroy?: () => void } | null)?.destroy?.();
      child.unref(); // what is left is tracked (group, tags) and swept when Ink exits; it must not keep Ink running
      if (spawnError) {
        resolve(fail(`Could not run ${config.shell} in ${ctx.cwd}: ${spawnError.message}`));
        return;
      }
      // Sandboxed, the outer process and the wrapper carry the tag too: they are not the command's.
      const left = stopReason || namespaceLeft === false ? [] : stray.filter((pid) => !sandboxed || !`${commandLineOf(pid)} `.includes(` ${WRAPPER_NAME} `));
      const groupLeft = !stopReason && alive();
      resolve(format(tail, exit, stopReason, timeoutMs, lingering, left, groupLeft, sandboxed));
    };
    child.on("error", (err) => finish(false, err));
    const exited = (code: number | null, signal: string | null, drain = true) => {
      if (exit) return;
      exit = { code, signal };
      if (drain) drainTimer = setTimeout(() => finish(true), config.drainMs);
    };
    if (sandboxed) {
      let status = "";
      const channel = child.stdio[3] as NodeJS.ReadableStream | null;
      // The outer process holds fd 3 too, so the status is read as it arrives, not at its end.
      channel?.on("data", (chunk: Buffer) => {
        status += chunk.toString("latin1");
        const m = /^(\d+) ([01])\n/.exec(status);
        if (!m) return;
        const s = Number(m[1]);
        const sig = s > 128 ? Object.entries(constants.signals).find(([, n]) => n === s - 128)?.[0] : undefined;
        namespaceLeft = m[2] === "1";
        exited(sig ? null : s, sig ?? null, namespaceLeft);
        // Nothing else runs: all output is already in the pipes. Tearing the namespace down takes
        // the kernel tens of ms, so the call ends once a loop turn reads no more output, not at "close".
        if (!namespaceLeft) startSettling();
      });
      // Killed before it could report (abort, timeout): the outer process's end is the command's end.
      // Done once a whole poll phase (the inner immediate runs after the next one) read nothing new.
      let seen = 0;
      const settle = () => {
        if (done) return;
        if (seen === chunks) return finish(false);
        seen = chunks;
        setImmediate(settle);
      };
      const startSettling = () => {
        seen = chunks;
        setImmediate(() => setImmediate(settle));
      };
      // The outer process's own status stands for the command's only when the wrapper reported
      // none: it is read once the status channel has ended (under load the exit can be seen
      // before the status the wrapper wrote just before it).
      let outerExit: { code: number | null; signal: string | null } | undefined;
      let channelEnded = !channel;
      channel?.on("end", () => {
        channelEnded = true;
        if (outerExit) exited(outerExit.code, outerExit.signal);
      });
      child.on("exit", (code, signal) => {
        outerEnded = true;
        if (child.pid !== undefined && done) untrackGroup(child.pid);
        outerExit = { code, signal };
        if (channelEnded) setImmediate(() => exited(code, signal));
      });
      child.on("close", () => {
        if (outerExit) exited(outerExit.code, outerExit.signal, false);
        finish(false);
      });
    } else {
      child.on("exit", (code, signal) => exited(code, signal));
      child.on("close", () => finish(false));
    }
  });
}

/** Tells the model which processes the command left running in the background, and that Ink ends them on exit. */
function leftRunningNote(pids: readonly number[], sandboxed: boolean): string {
  const list = pids.slice(0, 5).map((pid) => {
    const cmd = commandLineOf(pid);
    return cmd === undefined ? `pid ${pid}` : `pid ${pid} (${cmd.length > 60 ? `${cmd.slice(0, 57)}...` : cmd})`;
  });
  const more = pids.length > 5 ? ` and ${pids.length - 5} more` : "";
  const what = list.length > 0 ? `: ${list.join(", ")}${more}` : "";
  if (sandboxed) return `[left running in the background${what}; they keep running after this call in its own process namespace (a later command cannot see or kill them; they share the files and network) and are killed when Ink exits]`;
  return `[left running in the background${what}; they keep running after this call and are killed when Ink exits — stop them with kill when no longer needed]`;
}

/** True while any process of group `pgid` exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function format(
  tail: TailBuffer,
  exit: { code: number | null; signal: string | null } | null,
  stopReason: "timeout" | "aborted" | null,
  timeoutMs: number,
  lingering: boolean,
  left: readonly number[],
  groupLeft: boolean,
  sandboxed: boolean,
): ToolOutput {
  const r = tail.finish();
  const parts: string[] = [];
  if (r.truncated) {
    const kept = r.totalLines - r.droppedLines;
    parts.push(
      `[output truncated: ${r.droppedLines} earlier lines (${formatBytes(r.droppedBytes)}) dropped; showing the last ${kept} lines]`,
    );
  }
  parts.push(r.text === "" ? "(no output)" : r.text);
  const code = exit?.code ?? null;
  const signal = exit?.signal ?? null;
  if (stopReason === "timeout") parts.push(`[timed out after ${timeoutMs} ms; the command and its child processes were killed]`);
  else if (stopReason === "aborted") parts.push("[aborted; the command and its child processes were killed]");
  else if (signal) parts.push(`[killed by ${signal}]`);
  else if (code !== 0) parts.push(`[exit code ${code}]`);
  if (lingering && !stopReason) parts.push(sandboxed ? "[background processes still run; their further output is not captured]" : "[background processes still hold the output; their further output is not captured]");
  if (left.length > 0 || groupLeft) parts.push(leftRunningNote(left, sandboxed));
  const details: BashDetails = {
    exitCode: code,
    signal,
    timedOut: stopReason === "timeout",
    aborted: stopReason === "aborted",
    truncated: r.truncated,
    totalBytes: r.totalBytes,
  };
  const isError = stopReason !== null || signal !== null || code !== 0;
  return { output: parts.join("\n"), isError, details };
}
