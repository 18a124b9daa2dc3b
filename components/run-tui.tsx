/**
 * runTui: the entry point of the interactive UI. Creates the session with the UI's approval
 * `ask`, renders <App/> (Ctrl-C handled by the app, not by ink) and resolves with the exit code
 * once the person leaves and the last run has wound down. /resume asks `createSession` for a
 * saved session (`opts.resume`); the session in use at exit is closed and its file named.
 */
import { render } from "ink";
import type { AgentSession } from "../src/agent-session.js";
import type { ApprovalOptions } from "../src/core/approval.js";
import { App } from "./App.js";
import { ApprovalBroker } from "./hooks/approval-broker.js";
import { TrustPrompt } from "./TrustPrompt.js";

export interface RunTuiOptions {
  /**
   * Builds the session; `ask` is the UI's approval question, to pass as `approval.ask`. With
   * `opts.resume`, it must reopen that saved main session (AgentSession option `resume`).
   */
  createSession: (ask: ApprovalOptions["ask"], opts?: { resume?: string; trust?: boolean }) => AgentSession;
  /** Project profiles needing trust (paths relative to `cwd`); when non-empty the person is asked first. */
  untrustedProfiles?: readonly string[];
  /** The project directory shown in the trust question. */
  cwd?: string;
  /** Sent as the first prompt. */
  initialPrompt?: string;
  /** Input stream (default process.stdin). */
  stdin?: NodeJS.ReadStream;
  /** Output stream (default process.stdout). */
  stdout?: NodeJS.WriteStream;
}

/** Runs the UI until the person exits; resolves with the process exit code. */
export async function runTui(options: RunTuiOptions): Promise<number> {
  const approvals = new ApprovalBroker();
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const trust = options.untrustedProfiles?.length ? await askTrust(options.cwd ?? process.cwd(), options.untrustedProfiles, stdin, stdout) : undefined;
  let session = options.createSession(approvals.ask, { trust });
  let code = 0;
  const instance = render(
    <App
      session={session}
      approvals={approvals}
      initialPrompt={options.initialPrompt}
      onExit={(c) => (code = c)}
      openSession={(id) => options.createSession(approvals.ask, { resume: id })}
      onSessionChange={(next) => (session = next)}
    />,
    { stdin, stdout, exitOnCtrlC: false },
  );
  await instance.waitUntilExit();
  session.close();
  if (session.sessionPath) stdout.write(`Session saved: ${session.sessionPath}\n`);
  return code;
}

/** Shows the trust question until answered; resolves with the answer. */
async function askTrust(cwd: string, files: readonly string[], stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): Promise<boolean> {
  let answer = false;
  const prompt = render(
    <TrustPrompt
      cwd={cwd}
      files={files}
      onAnswer={(a) => {
        answer = a;
        prompt.clear(); // the question leaves no trace above the app
        prompt.unmount();
      }}
    />,
    { stdin, stdout, exitOnCtrlC: false },
  );
  await prompt.waitUntilExit();
  return answer;
}
