/**
 * Loop health: notices when an agent makes the same tool call (same name and arguments) several
 * times in a row — a sign it is stuck — so a warning can reach the person and the parent model.
 */
import { canonicalJson } from "../session/fingerprint.js";
import type { ToolCall } from "../protocol/messages.js";

/** Identical calls in a row that count as a loop. */
export const REPEATED_CALL_LIMIT = 5;

export interface LoopHealth {
  /**
   * Records one tool call; returns a warning the first time the same call has been made `limit`
   * times in a row (and again each further `limit` repeats), otherwise undefined.
   */
  observe(call: ToolCall): string | undefined;
}

/** A fresh detector (one per agent run). */
export function createLoopHealth(limit = REPEATED_CALL_LIMIT): LoopHealth {
  let last: string | undefined;
  let count = 0;
  return {
    observe(call) {
      const key = `${call.name}\u0000${canonicalJson(call.arguments)}`;
      count = key === last ? count + 1 : 1;
      last = key;
      if (count < limit || count % limit !== 0) return undefined;
      const args = canonicalJson(call.arguments);
      const shown = args.length > 120 ? `${args.slice(0, cutOnCodePoint(args, 117))}...` : args;
      return `the agent made the same ${call.name} call ${count} times in a row (${shown}); it may be stuck in a loop`;
    },
  };
}

/** `index`, moved back by one when cutting `text` there would split a surrogate pair (a broken emoji). */
function cutOnCodePoint(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}
