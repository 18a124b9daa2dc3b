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

/** Runs until stdin closes (or `stop` is called); resolves with the exit code. */
export async function serveAcp(opts: { createSession: AcpSessionFactory; readChild?: ReadChildSession; version: string; onStop?: (stop: () => void) => void; stoppedBySignal?: () => boolean }): Promise<number> {
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  // Whatever a dependency prints must not corrupt the protocol stream.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const { app, closeAll } = createAcpAgent({ createSession: opts.createSession, readChild: opts.readChild, log, version: opts.version });
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  opts.onStop?.(() => connection.close());
  await connection.closed;
  await closeAll({ end: !opts.stoppedBySignal?.() });
  return 0;
}
