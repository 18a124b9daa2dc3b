/**
 * `ink --mode rpc`: the JSON control channel. Commands arrive one JSON object per line on `input`
 * (see commands.ts); every event and a `response` per command leave as JSON lines through `sink`.
 * The first line is a `ready` event; when `input` ends (or `stop` aborts) the running work is
 * stopped, its children stay resumable, the session is saved and a `closed` event is the last line.
 * The session's notices (the ones so far after `ready`, then each later one) go out as `notice` lines.
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { SessionClient } from "../host/session-client.js";
import { COMMAND_TYPES } from "./commands.js";
import { RpcDispatcher } from "./dispatcher.js";
import type { RpcOutput } from "./output.js";
import type { RpcApprovals } from "./approvals.js";

export interface RpcModeOptions {
  input: Readable;
  output: RpcOutput;
  /** The session's approval questions: its `approval.ask` and `answerApproval` (set where the session is made) are this one's `ask` and `answer`. */
  approvals: RpcApprovals;
  /** Aborted on SIGINT/SIGTERM: ends the session as a closed stdin does. */
  stop?: AbortSignal;
}

/** Runs the control channel on `session` until its input ends; resolves with the exit code (0). */
export async function runRpcMode(session: SessionClient, opts: RpcModeOptions): Promise<number> {
  const { output: out } = opts;
  const dispatcher = new RpcDispatcher(session, out, opts.approvals);
  const s = session.submit({ type: "get_state" });
  out.send({ type: "ready", sessionId: s.sessionId, cwd: s.cwd, provider: s.provider, model: s.model, permissionMode: s.permissionMode, commands: COMMAND_TYPES });
  // The session's channel carries background children's events too: the control channel sends only the notices, as before.
  const unsubscribe = session.subscribe((e) => e.type === "notice" && out.send({ type: "notice", text: e.text }));
  void session.submit({ type: "start_mcp" });
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
  const unsaved = session.submit({ type: "save" });
  const { sessionPath } = session.submit({ type: "get_state" });
  out.send({ type: "closed", sessionId: s.sessionId, sessionPath, saved: sessionPath !== null && !unsaved, ...(unsaved ? { error: unsaved } : {}) });
  return 0;
}
