/**
 * `ink --mode rpc`: the JSON control channel. Commands arrive one JSON object per line on `input`
 * (see commands.ts); every event and a `response` per command leave as JSON lines through `sink`.
 * The first line is a `ready` event; when `input` ends (or `stop` aborts) the running work is
 * stopped, its children stay resumable, the session is saved and a `closed` event is the last line.
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { AgentSession } from "../host/agent-session.js";
import { COMMAND_TYPES } from "./commands.js";
import { RpcDispatcher } from "./dispatcher.js";
import type { RpcOutput } from "./output.js";
import type { RpcApprovals } from "./approvals.js";

export interface RpcModeOptions {
  input: Readable;
  output: RpcOutput;
  approvals: RpcApprovals;
  /** Aborted on SIGINT/SIGTERM: ends the session as a closed stdin does. */
  stop?: AbortSignal;
}

/** Runs the control channel on `session` until its input ends; resolves with the exit code (0). */
export async function runRpcMode(session: AgentSession, opts: RpcModeOptions): Promise<number> {
  const { output: out } = opts;
  const dispatcher = new RpcDispatcher(session, out, opts.approvals);
  const unsubscribe = session.onNotice((text) => out.send({ type: "notice", text }));
  out.send({ type: "ready", sessionId: session.sessionId, cwd: session.cwd, provider: session.provider.name, model: session.model, permissionMode: session.permissionMode, commands: COMMAND_TYPES });
  for (const text of session.notices) out.send({ type: "notice", text });
  void session.startMcp();
  const lines = createInterface({ input: opts.input, crlfDelay: Number.POSITIVE_INFINITY });
  const ended = new Promise<string>((resolve) => {
    lines.on("close", () => resolve("stdin closed"));
    opts.stop?.addEventListener("abort", () => resolve("stopped by a signal"), { once: true });
  });
  lines.on("line", (line) => dispatcher.handleLine(line));
  const why = await ended;
  lines.close();
  await dispatcher.shutdown(`the control channel closed (${why})`);
  unsubscribe();
  const unsaved = session.saveNow();
  out.send({ type: "closed", sessionId: session.sessionId, sessionPath: session.sessionPath ?? null, saved: session.sessionPath !== undefined && !unsaved, ...(unsaved ? { error: unsaved } : {}) });
  return 0;
}
