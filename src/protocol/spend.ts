/**
 * Who spent tokens, as the session's usage ledger (core/usage-ledger.ts) keys its rows and the
 * session file saves them (`usage` entries naming agent, run and model).
 */
import type { Usage } from "./messages.js";

/** The main agent's key in the ledger. */
export const MAIN_SPENDER = "main";

/** Who spent: the agent (`main` or a child id), the run (a child's `task` call id), the model. */
export interface Spender {
  agent: string;
  /** A child's run: the id of the `task` call it answered (absent for the main agent, and in older files). */
  run?: string;
  /** The model the usage ran on (absent: unknown, so unpriced). */
  model?: string;
}

/** One ledger row: the usage of one spender. */
export interface SpendRow extends Spender {
  usage: Usage;
}
