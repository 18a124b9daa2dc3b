/**
 * runTui: the entry point of the interactive UI. Creates the session with the UI's approval
 * `ask`, renders <App/> (Ctrl-C handled by the app, not by ink) and resolves with the exit code
 * once the person leaves and the last run has wound down. /resume asks `createSession` for a
 * saved session (`opts.resume`); the session in use at exit is closed and its file named. A
 * declined trust question (n, Esc or Ctrl-C) is said once, by the session's notice of the skipped
 * profiles. Bracketed paste is switched
 * on while the UI runs, so a pasted text keeps its line breaks instead of being sent.
 *
 * Full-screen mode (the default on a terminal; `inline` keeps the UI in the scrollback) draws in
 * the alternate screen and, after exit, prints the last answer and how to resume on the normal one.
 */
import { appendFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { format } from "node:util";
import { render } from "ink";
import type { AgentSession } from "../src/host/agent-session.js";
import { tuiSession, type TuiSession } from "../src/host/tui-session.js";
import type { ApprovalOptions } from "../src/core/approval.js";
import { enterAltScreen, farewellLines } from "./terminal/alt-screen.js";
import { lastHistoryAnswer } from "./state/copy-answer.js";
import { tuneHeapForTui } from "./terminal/heap-tuning.js";
import { frameDiffEnabled, scrollRegionSupport } from "./terminal/terminal-options.js";
import { ownFullscreenFrames, ownInlineFrames } from "./terminal/frame-owner.js";
import { frameLine, overlapMs, runQueueWaitReader, type FramePhases } from "./terminal/frame-phases.js";
import { TerminalWriteContext } from "./terminal/terminal-write.js";
import { CaretMarkContext } from "./terminal/caret.js";
import type { NotifyMode } from "./terminal/terminal-notify.js";
import { App } from "./App.js";
import { ApprovalBroker } from "./state/approval-broker.js";
import type { ApprovalTiming } from "./state/approval-keys.js";
import { TrustPrompt } from "./views/TrustPrompt.js";

const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";
const ERASE_LINE = "\r\u001b[2K";

export interface RunTuiOptions {
  /**
   * Builds the session; `ask` is the UI's approval question, to pass as `approval.ask`. With
   * `opts.resume`, it must reopen that saved main session (AgentSession option `resume`); with
   * `opts.fresh` (/clear) it must start a new conversation, whatever session the command line named.
   */
  createSession: (ask: ApprovalOptions["ask"], opts?: { resume?: string; trust?: boolean; fresh?: boolean }) => AgentSession;
  /** Project profiles needing trust (paths relative to `cwd`); when non-empty the person is asked first. */
  untrustedProfiles?: readonly string[];
  /** The project directory shown in the trust question. */
  cwd?: string;
  /** Sent as the first prompt. */
  initialPrompt?: string;
  /** Open the /resume picker at start (`ink --resume` without an id); with no saved session, a notice says so. */
  openResumePicker?: boolean;
  /** Input stream (default process.stdin). */
  stdin?: NodeJS.ReadStream;
  /** Output stream (default process.stdout). */
  stdout?: NodeJS.WriteStream;
  /** Draw inline, in the terminal's scrollback, instead of full-screen (`--inline`, settings `inline`). */
  inline?: boolean;
  /** Saves an allow rule to the user's settings (offered as `s` in the approval line); absent: not offered. */
  saveRule?: (rule: string) => void;
  /** Full-screen: ask the terminal for mouse-wheel reports to scroll the transcript (settings `mouse`, default on). */
  mouse?: boolean;
  /** Ring the terminal when a child ends or waits for an approval and when a long run ends (settings `notify`, default bell). */
  notify?: NotifyMode;
  /** When keys may answer the trust question and the app's questions (tests; default: state/approval-keys.ts). */
  approvalTiming?: ApprovalTiming;
}


/**
 * With `INK_BENCH_FRAMES` set (benchmarks): appends a line for each frame to that file — its time
 * and phases, the GC pauses within it and the time it waited for a CPU (frame-phases.ts `frameLine`;
 * a frame Ink drew has only its time) — otherwise nothing. GC pauses are reported a moment after they end, so the lines are
 * written in batches, `FRAME_FLUSH_MS` after the first frame of each.
 */
export function frameRecorder(file: string | undefined): ((metrics: { renderTime: number; start?: number; phases?: FramePhases; waited?: number }) => void) | undefined {
  if (!file) return undefined;
  const pauses: { startTime: number; duration: number }[] = [];
  const pending: { renderTime: number; start?: number; phases?: FramePhases; waited?: number }[] = [];
  let timer: NodeJS.Timeout | undefined;
  // Pauses are kept only while frames wait for them (none pile up while the app is idle).
  const gc = new PerformanceObserver((list) => {
    if (timer) for (const e of list.getEntries()) pauses.push({ startTime: e.startTime, duration: e.duration });
  });
  gc.observe({ entryTypes: ["gc"] });
  const flush = () => {
    timer = undefined;
    let out = "";
    for (const { renderTime, start, phases, waited } of pending) {
      const gcMs = start === undefined ? 0 : overlapMs(pauses, start, start + renderTime);
      out += `${frameLine({ total: renderTime, gc: gcMs, waited: waited ?? 0, ...(phases ?? { rows: 0, cells: 0, diff: 0, write: 0, layout: 0 }) })}\n`;
    }
    pending.length = 0;
    pauses.length = 0;
    try {
      appendFileSync(file, out);
    } catch {
      // a benchmark's file: never the UI's problem
    }
  };
  return (metrics) => {
    pending.push({ ...metrics, phases: metrics.phases && { ...metrics.phases } });
    timer ??= setTimeout(flush, FRAME_FLUSH_MS).unref();
  };
}

/** How long a frame's line waits for the GC pauses within it to be reported (ms). */
export const FRAME_FLUSH_MS = 100;

/** Runs the UI until the person exits; resolves with the process exit code. */
export async function runTui(options: RunTuiOptions): Promise<number> {
  tuneHeapForTui();
  const approvals = new ApprovalBroker({ saveRule: options.saveRule, cwd: options.cwd });
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  holdKeys(stdin);
  // Keys typed before that were echoed by the terminal on the line the UI starts on (the shell left
  // the cursor at the start of a fresh line); they are still in the input, for the prompt, so their
  // echo is erased: the first frame starts at the line's start, and nothing is left on it at exit.
  if (stdin.isTTY && stdout.isTTY) stdout.write(ERASE_LINE);
  const asked = options.untrustedProfiles?.length ? await askTrust(options.cwd ?? process.cwd(), options.untrustedProfiles, stdin, stdout, options.approvalTiming) : undefined;
  const trust = asked?.trust;
  let session = options.createSession(approvals.ask, { trust });
  // The UI holds each session as a TuiSession (ops in, events out); the one in use at exit is closed here.
  const bound = new WeakMap<TuiSession, AgentSession>();
  const bind = (s: AgentSession): TuiSession => {
    const client = tuiSession(s);
    bound.set(client, s);
    return client;
  };
  let code = 0;
  // Full-screen only on a real terminal: a pipe or a file gets the inline UI.
  const fullscreen = !options.inline && stdout.isTTY === true;
  const alt = fullscreen ? enterAltScreen(stdout, { mouse: options.mouse !== false }) : undefined;

  // The frames are ours in both modes: drawn from Ink's laid-out tree as rows of cells, only the
  // changed cells written, the terminal moving rows where it can (terminal/frame-owner.tsx); Ink's
  // own writes never reach the terminal. Inline, finished items are written once above the live
  // frame, into the scrollback. Not on a terminal (a pipe, a file), Ink writes as it does.
  const scroll = scrollRegionSupport(process.env, (m) => process.stderr.write(`ink: ${m}\n`));
  const diff = frameDiffEnabled(process.env);
  const onFrame = frameRecorder(process.env.INK_BENCH_FRAMES);
  const ownFrames = fullscreen ? ownFullscreenFrames : stdout.isTTY ? ownInlineFrames : undefined;
  const owner = ownFrames?.(stdout, { scroll, whole: !diff, maxFps: 30, onFrame, waitedMs: onFrame && runQueueWaitReader() });
  const inkStdout = owner ? owner.inkStdout : stdout;
  holdKeys(stdin); // again: the trust question's Ink gave raw mode back when it closed
  if (stdout.isTTY) stdout.write(PASTE_ON);
  const app = (
    <App
      session={bind(session)}
      approvals={approvals}
      initialPrompt={options.initialPrompt}
      openResumePicker={options.openResumePicker}
      screenMode={fullscreen ? "fullscreen" : "inline"}
      notify={options.notify}
      approvalTiming={options.approvalTiming}
      typeAhead={asked?.typed || undefined}
      onExit={(c) => (code = c)}
      openSession={(id) => bind(options.createSession(approvals.ask, { resume: id }))}
      newSession={() => bind(options.createSession(approvals.ask, { trust, fresh: true }))}
      onSessionChange={(next) => {
        session = bound.get(next)!;
        void session.startMcp();
      }}
    />
  );
  const instance = render(
    owner ? (
      <TerminalWriteContext.Provider value={owner.write}>
        <CaretMarkContext.Provider value={true}>{app}</CaretMarkContext.Provider>
        {owner.probe}
      </TerminalWriteContext.Provider>
    ) : (
      app
    ),
    // console.* is redirected above the UI only on the real terminal: inline by us (a line written
    // above the live frame), else by Ink (full-screen its write is dropped: the frame is redrawn).
    { stdin, stdout: inkStdout, exitOnCtrlC: false, patchConsole: options.stdout === undefined && !(owner && !fullscreen), maxFps: 30, onRender: owner ? undefined : onFrame },
  );
  const restoreConsole = owner && !fullscreen && options.stdout === undefined ? consoleAbove(owner.write) : undefined;
  // MCP servers start after the first frame, in the background: start-up never waits for them.
  void session.startMcp();
  try {
    await instance.waitUntilExit();
  } finally {
    if (stdin.isTTY && typeof stdin.setRawMode === "function") stdin.setRawMode(false); // Ink's already, unless it never took it
    restoreConsole?.();
    owner?.stop();
    if (stdout.isTTY) stdout.write(PASTE_OFF);
    alt?.leave();
  }
  const unsaved = session.saveNow(); // a session kept in memory tries once more to save everything
  await session.end("prompt_input_exit");
  session.close();
  // Full-screen: the last answer was only on the alternate screen, so it is printed again; inline it
  // is in the scrollback already. Either way the exact command that comes back here.
  const lines = farewellLines(fullscreen ? lastHistoryAnswer(session.history) : undefined, session.sessionPath ? session.sessionId : undefined);
  if (lines.length) stdout.write(`${lines.join("\n")}\n`);
  if (session.sessionPath && !unsaved) stdout.write(`Session saved: ${session.sessionPath}\n`);
  if (session.sessionPath && unsaved) stdout.write(`Session NOT fully saved (${unsaved}): ${session.sessionPath} — resuming it will miss what was not written; free disk space or check INK_HOME\n`);
  return code;
}

/** Sends console.log, info, debug, warn and error to `write` (a line above the inline frame); returns how to put them back. */
export function consoleAbove(write: (data: string) => void): () => void {
  const methods = ["log", "info", "debug", "warn", "error"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) console[m] = (...args: unknown[]) => write(`${format(...args)}\n`);
  return () => methods.forEach((m, i) => (console[m] = saved[i]!));
}

/**
 * Puts a terminal's input in raw mode now, before any frame is drawn (Ink itself switches it on only
 * in an effect after its first frame): keys typed while the UI starts are then neither echoed by the
 * terminal onto the screen — below the frame, where no frame ever erases them — nor held back by
 * the terminal's line editing; they wait for Ink, which takes raw mode over and gives it back at exit.
 */
function holdKeys(stdin: NodeJS.ReadStream): void {
  if (stdin.isTTY && typeof stdin.setRawMode === "function") stdin.setRawMode(true);
}

/** Shows the trust question until answered; resolves with the answer and what was typed meanwhile (for the prompt). */
async function askTrust(cwd: string, files: readonly string[], stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream, timing: ApprovalTiming | undefined): Promise<{ trust: boolean; typed: string }> {
  let answer = false;
  let typed = "";
  const prompt = render(
    <TrustPrompt
      cwd={cwd}
      files={files}
      timing={timing}
      onTypeAhead={(raw) => (typed += raw)}
      onAnswer={(a) => {
        answer = a;
        prompt.clear(); // the question leaves no trace above the app
        prompt.unmount();
      }}
    />,
    { stdin, stdout, exitOnCtrlC: false, patchConsole: false },
  );
  await prompt.waitUntilExit();
  return { trust: answer, typed };
}
