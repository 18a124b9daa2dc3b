/**
 * The `bash` tool: runs `bash -c <command>` in the working directory, in its own process group,
 * streaming output to the UI. On abort or timeout the WHOLE group gets SIGTERM, then SIGKILL after
 * a grace period, so background children do not survive — nor ones that left the group (setsid,
 * double fork), found by the call's `INK_CALL_ID` tag. A command that returns while something it
 * started still runs says so in its result (pids and command lines; Ink kills them on exit).
 * Output (stdout+stderr interleaved) is capped to its tail with a note saying how much was dropped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { z } from "zod";
import { aborted, errorMessage, fail } from "./result.js";
import { toolEnv } from "./tool-env.js";
import { commandLineOf, newCallTag, pidsWithEnv, SESSION_RUN_TAG, trackGroup, untrackGroup } from "./process-registry.js";
import { formatBytes, TailBuffer } from "./truncate.js";
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

type Config = Required<BashToolOptions>;

function run(command: string, timeoutMs: number, ctx: ToolContext, config: Config): Promise<ToolOutput> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    const callTag = newCallTag();
    try {
      child = spawn(config.shell, ["-c", command], { cwd: ctx.cwd, detached: true, env: { ...toolEnv(process.env, config.envPassthrough), INK_RUN_ID: SESSION_RUN_TAG, INK_CALL_ID: callTag }, stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      resolve(fail(`Could not start ${config.shell}: ${errorMessage(err)}`));
      return;
    }
    if (child.pid !== undefined) trackGroup(child.pid);
    const tail = new TailBuffer(config.maxBytes, config.maxLines);
    let stopReason: "timeout" | "aborted" | null = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    let drainTimer: NodeJS.Timeout | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let done = false;

    const pipe = (stream: NodeJS.ReadableStream | null) => {
      const decoder = new StringDecoder("utf8");
      stream?.on("data", (chunk: Buffer) => accept(decoder.write(chunk)));
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
      for (const target of [-child.pid, ...pidsWithEnv("INK_CALL_ID", callTag)]) {
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

    const finish = (lingering: boolean, spawnError?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timeoutTimer);
      clearTimeout(drainTimer);
      ctx.signal.removeEventListener("abort", onAbort);
      if (killTimer && child.pid !== undefined && !groupAlive(child.pid) && pidsWithEnv("INK_CALL_ID", callTag).length === 0) clearTimeout(killTimer);
      if (child.pid !== undefined && !groupAlive(child.pid)) untrackGroup(child.pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (spawnError) {
        resolve(fail(`Could not run ${config.shell} in ${ctx.cwd}: ${spawnError.message}`));
        return;
      }
      const left = stopReason ? [] : pidsWithEnv("INK_CALL_ID", callTag);
      const groupLeft = !stopReason && child.pid !== undefined && groupAlive(child.pid);
      resolve(format(tail, exit, stopReason, timeoutMs, lingering, left, groupLeft));
    };
    child.on("error", (err) => finish(false, err));
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(() => finish(true), config.drainMs);
    });
    child.on("close", () => finish(false));
  });
}

/** Tells the model which processes the command left running in the background, and that Ink ends them on exit. */
function leftRunningNote(pids: readonly number[]): string {
  const list = pids.slice(0, 5).map((pid) => {
    const cmd = commandLineOf(pid);
    return cmd === undefined ? `pid ${pid}` : `pid ${pid} (${cmd.length > 60 ? `${cmd.slice(0, 57)}...` : cmd})`;
  });
  const more = pids.length > 5 ? ` and ${pids.length - 5} more` : "";
  const what = list.length > 0 ? `: ${list.join(", ")}${more}` : "";
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
  if (lingering && !stopReason) parts.push("[background processes still hold the output; their further output is not captured]");
  if (left.length > 0 || groupLeft) parts.push(leftRunningNote(left));
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
