/**
 * What a chunk of input means while the trust question is open (pure). The question guards the
 * project's hooks, commands, skills and profiles, so type-ahead never answers it: `y` trusts and
 * `n` or Esc skips only as a chunk of exactly that one key, pressed once the question has been
 * visible for `armMs` and nothing has been typed for `quietMs` (the approvals' timing); every other
 * key — `yes` typed while Ink starts, a sentence that begins with n — is kept for the prompt.
 * Ctrl-C skips at once (it is never typed by accident, and skipping is the safe answer). An Enter in
 * the kept typing becomes a space, so nothing is sent before the person has seen the prompt.
 */
import { splitKeys } from "./line-editor.js";
import type { ApprovalTiming } from "./approval-keys.js";

export interface TrustKeyState {
  /** When the question was first shown. */
  shownAt: number;
  /** When a key last went to the draft (0: never). */
  typedAt: number;
}

export interface TrustKeyResult {
  state: TrustKeyState;
  /** true: trust; false: skip. */
  answer?: boolean;
  /** Typing kept for the prompt. */
  toDraft?: string;
}

export function initialTrustKeys(now: number): TrustKeyState {
  return { shownAt: now, typedAt: 0 };
}

/** Applies one raw chunk to the question. */
export function trustKey(state: TrustKeyState, raw: string, timing: ApprovalTiming): TrustKeyResult {
  const keys = splitKeys(raw);
  const now = timing.now();
  if (keys.some((k) => k.kind === "interrupt")) return { state, answer: false };
  const only = keys.length === 1 ? keys[0]! : undefined;
  const settled = now - state.shownAt >= timing.armMs && now - state.typedAt >= timing.quietMs;
  const letter = only?.kind === "insert" ? only.text.toLowerCase() : undefined;
  if (settled && letter === "y") return { state, answer: true };
  if (settled && (letter === "n" || only?.kind === "escape")) return { state, answer: false };
  // A lone Enter once settled answers nothing and is not kept (it would send the draft unseen).
  if (keys.length === 0 || (settled && only?.kind === "newline")) return { state };
  // An Enter in it sends nothing: the person has not seen the prompt (or what it holds) yet.
  return { state: { ...state, typedAt: now }, toDraft: raw.replace(/\r\n?|\n/g, " ") };
}
