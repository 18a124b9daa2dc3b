/**
 * What a front end holds of a session: ops in (`submit`, src/protocol/ops.ts) and one event stream
 * out (`subscribe`). AgentSession implements it. The adapters (src/rpc/, src/acp/,
 * src/cli/print-mode.ts) take a SessionClient and nothing else, so the type system proves they
 * reach the session only through the protocol.
 */
import type { AgentEvent } from "../protocol/events.js";
import type { Op, OpType } from "../protocol/ops.js";
import type { OpResults, SubmitOptions } from "./session-submit.js";

export interface SessionClient {
  /** Does what `op` asks; the events of a run it starts go to `opts.onEvent`. Throws when it cannot be done. */
  submit<T extends OpType>(op: Extract<Op, { type: T }>, opts?: SubmitOptions): OpResults[T];
  /**
   * The session's own channel: background children's events and deliveries, `notice` events (the
   * ones so far at once, then each later one) and `spend` events (each addition to the usage ledger).
   * Returns the unsubscribe function.
   */
  subscribe(listener: (event: AgentEvent) => void): () => void;
}
