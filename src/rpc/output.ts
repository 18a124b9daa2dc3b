/**
 * The control channel's stdout: one JSON object per line — every AgentEvent as Ink emits it, the
 * channel's own events (approval_request, prompt_end, …) and a `response` per command. A reader
 * that went away (EPIPE) stops the writing, never the process.
 */
import type { CommandId } from "./commands.js";

/** Where lines go (process.stdout in the CLI, an array in tests). */
export type LineSink = (line: string) => void;

export class RpcOutput {
  private closed = false;

  constructor(private readonly sink: LineSink) {}

  /** Writes `value` as one JSON line (dropped once the reader is gone). */
  send(value: object): void {
    if (this.closed) return;
    try {
      this.sink(`${JSON.stringify(value)}\n`);
    } catch {
      this.closed = true;
    }
  }

  /** Stops writing (the reader closed stdout). */
  close(): void {
    this.closed = true;
  }

  /** The answer to a command: `{type: "response", command, id?, success: true, data?}`. */
  ok(command: string, id: CommandId, data?: object): void {
    this.send({ type: "response", command, ...(id !== undefined ? { id } : {}), success: true, ...(data !== undefined ? { data } : {}) });
  }

  /** A refused or malformed command: `{type: "response", command?, id?, success: false, error}`. */
  fail(command: string | undefined, id: CommandId, error: string): void {
    this.send({ type: "response", ...(command !== undefined ? { command } : {}), ...(id !== undefined ? { id } : {}), success: false, error });
  }
}
