/**
 * runTui: the entry point of the interactive UI. Creates the session with the UI's approval
 * `ask`, renders <App/> (Ctrl-C handled by the app, not by ink) and resolves with the exit code
 * once the person leaves and the last run has wound down.
 */
import { render } from "ink";
import type { AgentSession } from "../src/agent-session.js";
import type { ApprovalOptions } from "../src/core/approval.js";
import { App } from "./App.js";
import { ApprovalBroker } from "./hooks/approval-broker.js";

export interface RunTuiOptions {
  /** Builds the session; `ask` is the UI's approval question, to pass as `approval.ask`. */
  createSession: (ask: ApprovalOptions["ask"]) => AgentSession;
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
  const session = options.createSession(approvals.ask);
  const stdout = options.stdout ?? process.stdout;
  let code = 0;
  const instance = render(<App session={session} approvals={approvals} initialPrompt={options.initialPrompt} onExit={(c) => (code = c)} />, {
    stdin: options.stdin ?? process.stdin,
    stdout,
    exitOnCtrlC: false,
  });
  await instance.waitUntilExit();
  if (session.sessionPath) stdout.write(`Session saved: ${session.sessionPath}\n`);
  return code;
}
