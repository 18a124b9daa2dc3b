/**
 * Recovery after a request that failed for good (a non-retryable error, or retries exhausted):
 * the session must stay usable. When the model never answered the prompt, the prompt is taken
 * back out of the history (so it is not merged into the next user message and sent again);
 * when the run got further (a tool loop), everything completed is kept — the history then ends
 * with an assistant message or tool results, which stays valid for the provider.
 */
import { errorMessage } from "../protocol/error-message.js";
import type { AgentMessage } from "../protocol/messages.js";
import { isAbortError } from "../protocol/provider-error.js";

/** The session-file status written when a prompt was withdrawn after its request failed. */
export const PROMPT_FAILED_STATUS = "prompt_failed";

/** What happened to a failed prompt. */
export interface FailedPrompt {
  prompt: string;
  /** True when the prompt was removed from the history (the model never answered it). */
  withdrawn: boolean;
  reason: string;
  /** The person stopped the run (Esc / Ctrl-C) before any answer; nothing failed. */
  stopped?: boolean;
}

/**
 * Removes the trailing user message holding exactly `prompt` from `history` (in place) when
 * nothing followed it; returns whether it did. Anything after it (assistant turns, tool results)
 * means the run made progress, and the history is left as it is.
 */
export function withdrawFailedPrompt(history: AgentMessage[], prompt: string): boolean {
  const last = history[history.length - 1];
  if (!last || last.role !== "user" || last.content !== prompt) return false;
  history.pop();
  return true;
}

/**
 * Runs `run`, the run of `userMessage` (made from the person's `prompt`), so that a failed request
 * cannot poison the next prompt: when it fails for good (not aborted), or the person stopped it
 * (`signal`) before the model answered, an unanswered `userMessage` is withdrawn from `history`.
 * `onFailed` hears what happened — on a failure always, on a stop only when the prompt was
 * withdrawn. Resolves with the run's result; rejects with its error.
 */
export async function withdrawOnFailure<T extends { reason: string }>(history: AgentMessage[], prompt: string, userMessage: string, signal: AbortSignal | undefined, run: () => Promise<T>, onFailed: (failure: FailedPrompt) => void): Promise<T> {
  try {
    const result = await run();
    // Stopped by the person before the model produced anything: the prompt is taken back (the person gets it
    // back to edit) rather than left unanswered in the history, where the next prompt would join it.
    if (result.reason === "aborted" && signal?.aborted && withdrawFailedPrompt(history, userMessage)) {
      onFailed({ prompt, withdrawn: true, reason: "stopped before the model answered", stopped: true });
    }
    return result;
  } catch (err) {
    if (!(signal?.aborted || isAbortError(err))) {
      const reason = errorMessage(err);
      const withdrawn = withdrawFailedPrompt(history, userMessage);
      onFailed({ prompt, withdrawn, reason });
    }
    throw err;
  }
}
