/**
 * The `ink` command once its arguments need the core: argument checks, `config`, headless print
 * mode and the interactive UI. Loaded by src/cli.tsx only after the quick answers (--help,
 * --version) are ruled out.
 */
import { trustQuestionFiles } from "../hooks/config.js";
import { existsSync, statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { join, resolve } from "node:path";
import { AgentSession, type AgentSessionOptions } from "../host/agent-session.js";
import { latestMainSession } from "../host/project-setup.js";
import { inkHomeDir } from "../settings/paths.js";
import { SessionStore } from "../session/store.js";
import { projectTrust } from "../subagents/profiles/trust.js";
import { settingsDefaults } from "./settings-defaults.js";
import { projectFilesTrusted, settingsReportLines } from "../host/settings-report.js";
import { runWorktreesCommand } from "./worktrees-command.js";
import { parseCliArgs, USAGE, UsageError, type CliArgs } from "./args.js";
import { runPrintMode } from "./print-mode.js";
import { checkPromptFits, keepPipedPrompt, readAll, resolvePrintPrompt } from "./prompt-input.js";
import { withUiLoadEnv } from "./ui-load-env.js";
import type { ApprovalOptions } from "../core/approval.js";
import { resolveProvider } from "../providers/registry.js";
import type { Provider } from "../protocol/provider.js";
import { installExitHooks, onExit, onSignalExit, runSignalEnders } from "../host/exit-hooks.js";
import { saveUserRule } from "../permissions/save-rule.js";
import { scrubOwnEnviron } from "../tools/scrub-environ.js";
import { packageVersion } from "./usage.js";
import { RpcApprovals } from "../rpc/approvals.js";
import { RpcOutput } from "../rpc/output.js";
import { runRpcMode } from "../rpc/run-rpc.js";

/** The session's options from flags and settings; `inline` is the settings' TUI mode (the flag wins); the provider made is added to `providers`. */
async function sessionOptions(args: CliArgs, interactive: boolean, providers: Provider[], ask?: ApprovalOptions["ask"]): Promise<AgentSessionOptions & { inline?: boolean; mouse?: boolean; notify?: "off" | "bell" | "desktop" }> {
  const cwd = resolve(args.cwd);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new UsageError(`--cwd ${args.cwd}: not a directory`);
  const inkHome = inkHomeDir();
  if (existsSync(inkHome) && !statSync(inkHome).isDirectory()) {
    throw new UsageError(`INK_HOME ${inkHome} is a file, not a directory: nothing (sessions, trust, settings) could be saved there; point INK_HOME at a directory, or unset it to use ~/.ink`);
  }
  const defaults = settingsDefaults(inkHome, cwd, projectFilesTrusted(inkHome, cwd, args.trust));
  for (const warning of defaults.warnings) process.stderr.write(`ink: ${warning}\n`);
  const { provider, model } = await resolveProvider(args.provider ?? defaults.provider, args.model ?? defaults.model, { inkHome, interactive, defaultEffort: defaults.effort });
  providers.push(provider);
  let resume = args.resume;
  if (resume === "" && !interactive) throw new UsageError(`--resume needs a session id.\n${sessionList(inkHome, cwd)}`);
  if (resume === "") resume = undefined; // interactive: the UI opens its session picker
  if (args.continue) {
    resume = latestMainSession(inkHome, cwd);
    if (!resume) throw new UsageError(`--continue: no saved session for ${cwd} in ${join(inkHome, "sessions")}; start one with ink or ink -p`);
  }
  return {
    inline: defaults.inline,
    mouse: defaults.mouse,
    notify: defaults.notify,
    resume,
    cwd,
    inkHome,
    provider,
    model,
    interactive,
    trust: args.trust,
    modelGiven: args.model !== undefined,
    takeOverLock: args.takeOverLock,
    approval: { yolo: args.yolo, mode: args.permissionMode, allow: args.allow, ask },
    taskTimeoutMs: args.taskTimeoutMs ?? defaults.childTimeoutMs,
    childPauseLimitMs: defaults.childPauseLimitMs,
    maxConcurrentChildren: args.maxChildren ?? defaults.maxChildren,
    thinking: args.thinking ?? defaults.thinking,
  };
}

/** The saved main sessions of `cwd`, newest first, as lines for a message. */
function sessionList(inkHome: string, cwd: string): string {
  const sessions = new SessionStore(inkHome).list({ cwd, kind: "main" }).slice(0, 15);
  if (sessions.length === 0) return `There are no saved sessions for ${cwd}.`;
  const rows = sessions.map((s) => `  ${s.id}  ${new Date(s.mtimeMs).toISOString().slice(0, 16).replace("T", " ")}  ${(s.prompt ?? "").split("\n")[0]!.slice(0, 70)}`);
  return [`Saved sessions for ${cwd} (newest first):`, ...rows].join("\n");
}

/** What the CLI needs of the TUI module (its `runTui`): a structural type, so the core never imports the UI. */
export interface UiModule {
  runTui(options: {
    cwd: string;
    openResumePicker: boolean;
    inline?: boolean;
    mouse?: boolean;
    notify?: "off" | "bell" | "desktop";
    untrustedProfiles: readonly string[];
    saveRule?: (rule: string) => void;
    createSession: TuiSessionFactory;
  }): Promise<number>;
}

/**
 * What the TUI asks for a session: with no `opts`, the one the command line named (`--resume`,
 * `--continue`, else a new one); `opts.resume` reopens that saved session (/resume); `opts.fresh`
 * is a new conversation (/clear), never the session the command line named.
 */
export type TuiSessionFactory = (ask: ApprovalOptions["ask"], opts?: { resume?: string; trust?: boolean; fresh?: boolean }) => AgentSession;

/** The TUI's session factory over `base` (the command line's options); `created` sees each new session. */
export function tuiSessionFactory(base: AgentSessionOptions, created: (session: AgentSession) => void = () => undefined): TuiSessionFactory {
  return (ask, opts) => {
    const resume = opts?.fresh ? undefined : (opts?.resume ?? base.resume);
    const session = new AgentSession({ ...base, resume, trust: base.trust || opts?.trust, approval: { ...base.approval, ask } });
    created(session);
    return session;
  };
}

/** Loads the TUI module (only src/cli.tsx may name the UI, and only lazily). */
export type UiLoader = () => Promise<UiModule>;

/**
 * Runs the `ink` command for `argv` (without node and script) and resolves with the exit code:
 * `config`, print mode, or the TUI loaded through `loadUi` in its load-time environment.
 * Throws UsageError (and other errors) for the caller to print.
 */
export async function runCli(argv: string[], loadUi: UiLoader): Promise<number> {
  scrubOwnEnviron(); // before any tool process exists: keys leave this process's /proc/<pid>/environ
  const providers: Provider[] = [];
  try {
    return await runCommand(argv, loadUi, providers);
  } finally {
    // The run is over: a model list still being fetched in the background must not hold the exit.
    for (const provider of providers) provider.stopBackground?.();
  }
}

/** runCli's work; each provider it makes is added to `providers`. */
async function runCommand(argv: string[], loadUi: UiLoader, providers: Provider[]): Promise<number> {
  if (argv[0] === "worktrees") {
    return runWorktreesCommand(argv.slice(1), { inkHome: inkHomeDir(), cwd: process.cwd(), out: (l) => void process.stdout.write(`${l}\n`), err: (l) => void process.stderr.write(`${l}\n`) });
  }
  if (argv[0] === "config") {
    const cwd = resolve(argv[1] === "--cwd" && argv[2] ? argv[2] : process.cwd());
    const inkHome = inkHomeDir();
    process.stdout.write(`${settingsReportLines(inkHome, cwd, projectFilesTrusted(inkHome, cwd, false)).join("\n")}\n`);
    return 0;
  }
  const args = parseCliArgs(argv);
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (args.acp) {
    const base = await sessionOptions(args, true, providers);
    const { serveAcp } = await import("../acp/serve.js");
    const { storeChildReader } = await import("../acp/child-sessions.js");
    let stop = () => undefined as void;
    let stoppedBy: NodeJS.Signals | undefined;
    installExitHooks({
      onSignal: (sig) => {
        stoppedBy = sig;
        stop();
      },
    });
    const code = await serveAcp({
      version: packageVersion(),
      onStop: (fn) => (stop = fn),
      stoppedBySignal: () => stoppedBy !== undefined,
      readChild: base.persist === false ? undefined : storeChildReader(new SessionStore(base.inkHome)),
      createSession: ({ cwd, resume, extraMcpServers, ask }) => {
        const session = new AgentSession({ ...base, cwd: resolve(cwd), resume, extraMcpServers, approval: { ...base.approval, ask } });
        endOnExit(session);
        return session;
      },
    });
    if (stoppedBy) await runSignalEnders();
    return stoppedBy === "SIGTERM" ? 143 : stoppedBy === "SIGINT" ? 130 : code; // 128 + the signal's number, as shells report it
  }
  if (args.print !== undefined) {
    // Node's fetch parses HTTP with a wasm module; V8 optimises it on background threads and the
    // process waits for that work at exit (~150 ms after the answer). One headless request runs
    // fine on the baseline compiler, so print mode never starts the optimising one.
    setFlagsFromString("--liftoff-only");
    // `-p -` and `-p @file` (an argument is capped at 128 KiB): read before anything starts.
    const prompt = await resolvePrintPrompt(args.print, { cwd: process.cwd(), stdinIsTTY: process.stdin.isTTY === true, readStdin: () => readAll(process.stdin) });
    const options = await sessionOptions(args, false, providers);
    const session = new AgentSession(options);
    const controller = new AbortController();
    endOnExit(session);
    let stoppedBy: NodeJS.Signals | undefined;
    installExitHooks({
      onSignal: (sig) => {
        stoppedBy = sig;
        controller.abort();
      },
    });
    try {
      checkPromptFits(prompt, session.model, session.provider.contextWindow(session.model), args.print === "-" ? () => keepPipedPrompt(inkHomeDir(), prompt) : undefined);
      const code = await runPrintMode(session, prompt, {
        json: args.output === "json",
        signal: controller.signal,
        io: { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t) },
        resumed: options.resume !== undefined,
      });
      return code === 130 && stoppedBy === "SIGTERM" ? 143 : code; // 128 + the signal's number, as shells report it
    } finally {
      // Stopped by a signal: the SessionEnd hooks get the short while a signal exit allows.
      await (stoppedBy ? runSignalEnders() : session.submit({ type: "end", reason: "other" }));
      session.submit({ type: "close" });
    }
  }
  if (args.mode === "rpc") return runRpc(args, providers);
  if (!process.stdin.isTTY) throw new UsageError('the interactive UI needs a terminal; use ink -p "<prompt>" for headless runs');
  const { inline, mouse, notify, ...base } = await sessionOptions(args, true, providers); // validate before the UI takes the screen
  const { runTui } = await withUiLoadEnv(loadUi);
  installExitHooks();
  // Every gated project file (profiles, settings, MCP config, Claude Code agents) new or changed since trust was given.
  const untrusted = args.trust ? [] : trustQuestionFiles(base.cwd, projectTrust(base.inkHome, base.cwd).changed);
  return runTui({
    cwd: base.cwd,
    openResumePicker: args.resume === "",
    inline: args.inline || inline === true,
    mouse: mouse !== false,
    notify,
    untrustedProfiles: untrusted,
    saveRule: (rule) => saveUserRule(base.inkHome, rule),
    createSession: tuiSessionFactory(base, endOnExit),
  });
}

/** `ink --mode rpc`: the JSON control channel on stdin/stdout (src/rpc/); approvals go to the client. */
async function runRpc(args: CliArgs, providers: Provider[]): Promise<number> {
  setFlagsFromString("--liftoff-only"); // headless, as print mode: no optimising-compiler work to wait for at exit
  const output = new RpcOutput((line) => void process.stdout.write(line));
  process.stdout.on("error", () => output.close()); // the reader went away (EPIPE): stop writing, finish cleanly
  let approvals: RpcApprovals | undefined;
  // A client answers approvals and stops children itself: no default child timeout, as in the TUI.
  const options = { ...(await sessionOptions(args, false, providers, (call, agent, why) => approvals!.ask(call, agent, why))), interactive: true };
  approvals = new RpcApprovals((event) => output.send(event), options.cwd);
  // The questions `approvals.ask` puts are answered by the `approve` / `deny` ops the channel submits.
  const session = new AgentSession({ ...options, answerApproval: (requestId, approved, reason) => approvals!.answer(requestId, approved, reason) });
  endOnExit(session);
  const stop = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  installExitHooks({
    // SIGHUP too (the client's terminal went away): every signal ends the channel as a closed stdin does.
    hangup: true,
    onSignal: (sig) => {
      stoppedBy = sig;
      stop.abort();
    },
  });
  try {
    const code = await runRpcMode(session, { input: process.stdin, output, approvals, stop: stop.signal });
    // Stopped by a signal: the SessionEnd hooks get the short while a signal exit allows; at the end of input, as after -p.
    await (stoppedBy ? runSignalEnders() : session.end("other"));
    // A signal is an orderly end here (the `closed` event said so, the session is saved): exit as the README says.
    return code;
  } finally {
    session.close();
  }
}

/** On any exit the session is closed (its lock released); on a signal exit its SessionEnd hooks run first, cut short (exit-hooks.ts). */
function endOnExit(session: AgentSession): void {
  onExit(() => session.close());
  onSignalExit((signal) => session.end("other", { signal }));
}
