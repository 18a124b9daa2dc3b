/**
 * `ink --acp`: serves the ACP agent on this process's stdin/stdout with the SDK's ndjson stream.
 * stdout carries only protocol bytes (console output is sent to stderr); when the client closes
 * stdin, every running prompt is stopped (its children and tool processes with it) and every
 * session ended (its SessionEnd hooks, unless `stoppedBySignal()`: a signal exit runs them cut
 * short) and closed before the returned promise resolves.
 */
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk/unstable";
import { createAcpAgent, type AcpSessionFactory } from "./agent.js";
import type { ReadChildSession } from "./child-sessions.js";
import { errorMessage } from "../protocol/error-message.js";

/** Runs until stdin closes (or `stop` is called); resolves with the exit code: 0, or 1 when the input failed (a frame over the SDK's limit: an error response and a line on stderr name it). */
export async function serveAcp(opts: { createSession: AcpSessionFactory; readChild?: ReadChildSession; version: string; onStop?: (stop: () => void) => void; stoppedBySignal?: () => boolean }): Promise<number> {
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  // Whatever a dependency prints must not corrupt the protocol stream.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const { app, closeAll } = createAcpAgent({ createSession: opts.createSession, readChild: opts.readChild, log, version: opts.version });
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  // The SDK ends the connection quietly when the input fails (a frame over its size limit): keep
  // the reason, so the client and the log hear it and the exit code is not 0.
  let inputError: unknown;
  const source = stream.readable.getReader();
  const readable = new ReadableStream<(typeof stream.readable extends ReadableStream<infer T> ? T : never)>({
    async pull(controller) {
      try {
        const { value, done } = await source.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        inputError = e;
        controller.error(e);
      }
    },
    cancel: (reason) => source.cancel(reason),
  });
  const connection = app.connect({ readable, writable: stream.writable });
  opts.onStop?.(() => connection.close());
  await connection.closed;
  await closeAll({ end: !opts.stoppedBySignal?.() });
  if (inputError === undefined) return 0;
  const reason = `ink --acp stopped reading its input: ${errorMessage(inputError)}; each JSON-RPC message must be one line within that limit (send large content as a file path or resource link)`;
  await new Promise<void>((done) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: reason } })}\n`, () => done()));
  log(reason);
  return 1;
}
