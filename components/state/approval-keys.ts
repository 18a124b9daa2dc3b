/**
 * What a chunk of input means while an approval question is open (pure). Type-ahead never answers:
 * a one-key answer (y, n, a, s, r, Esc) is taken only from a chunk of exactly that one key, pressed
 * once the question has been visible for `armMs` and nothing has been typed for `quietMs`; other
 * typing — and every key that falls inside those windows — goes to the prompt's draft instead.
 * "always" and "save" are permanent, so they ask for Enter before they count. The reason field
 * takes every key of a chunk in order, so `please` + Enter sent together denies with "please".
 */
import { splitKeys, type EditKey } from "./line-editor.js";
import type { ApprovalAnswer } from "./approval-broker.js";

/** When keys may answer: `now` is the clock (ms), injectable for tests. */
export interface ApprovalTiming {
  /** The question must have been visible this long before a key answers it. */
  armMs: number;
  /** And no key may have gone to the draft for this long. */
  quietMs: number;
  now: () => number;
}

/** The timings the TUI uses. */
export const DEFAULT_APPROVAL_TIMING: ApprovalTiming = { armMs: 400, quietMs: 1000, now: () => Date.now() };

/** Where the modal is: the question, typing a reason, or confirming a permanent answer. */
export type ApprovalStage = { kind: "question" } | { kind: "reason"; text: string } | { kind: "confirm"; answer: "always" | "save" };

/** The modal's state between keys. */
export interface ApprovalKeyState {
  stage: ApprovalStage;
  /** When the question was first shown. */
  shownAt: number;
  /** When a key last went to the draft (or was typed in the prompt before the question). */
  typedAt: number;
  /** Some typing went to the draft while this question was open. */
  diverted: boolean;
}

/** What one chunk does. */
export interface ApprovalKeyResult {
  state: ApprovalKeyState;
  /** The answer given, if any. */
  answer?: { answer: ApprovalAnswer; reason?: string };
  /** Text for the prompt's draft (the raw chunk, or what followed the reason's Enter). */
  toDraft?: string;
  /** Lines to scroll the question's body (±1). */
  scroll?: number;
}

/** Keys that edit a draft: typing (with its corrections) goes there whole. */
const DRAFT_KINDS = new Set<EditKey["kind"]>(["insert", "newline", "breakLine", "backspace", "delete", "left", "right", "home", "end", "wordLeft", "wordRight", "killStart", "killEnd", "killWordBack", "killWordForward", "pasteStart", "pasteEnd"]);

const ANSWER_LETTERS = new Set(["y", "n", "a", "s", "r"]);

/** The state for a question shown at `now`, the prompt last typed into at `typedAt` (0: never). */
export function initialApprovalKeys(now: number, typedAt = 0): ApprovalKeyState {
  return { stage: { kind: "question" }, shownAt: now, typedAt, diverted: false };
}

/** Applies one raw chunk to the modal (`hasRule`: "save" is offered). */
export function approvalKey(state: ApprovalKeyState, raw: string, hasRule: boolean, timing: ApprovalTiming): ApprovalKeyResult {
  const keys = splitKeys(raw);
  const now = timing.now();
  const stage = state.stage;
  if (stage.kind === "reason") return reasonKeys(state, stage.text, keys);
  if (stage.kind === "confirm") {
    const only = keys.length === 1 ? keys[0]! : undefined;
    if (only?.kind === "newline") return { state, answer: { answer: stage.answer } };
    return { state: { ...state, stage: { kind: "question" } } };
  }
  const only = keys.length === 1 ? keys[0]! : undefined;
  if (only?.kind === "up" || only?.kind === "down") return { state, scroll: only.kind === "up" ? -1 : 1 };
  const settled = now - state.shownAt >= timing.armMs && now - state.typedAt >= timing.quietMs;
  const letter = only?.kind === "insert" ? only.text.toLowerCase() : undefined;
  const isAnswer = only?.kind === "escape" || (letter !== undefined && ANSWER_LETTERS.has(letter) && (letter !== "s" || hasRule));
  if (settled && isAnswer) {
    if (only!.kind === "escape" || letter === "n") return { state, answer: { answer: "no" } };
    if (letter === "y") return { state, answer: { answer: "yes" } };
    if (letter === "r") return { state: { ...state, stage: { kind: "reason", text: "" } } };
    return { state: { ...state, stage: { kind: "confirm", answer: letter === "a" ? "always" : "save" } } };
  }
  // A lone Enter once settled does nothing: it must not send a draft the person is not looking at.
  if (keys.length === 0 || !keys.every((k) => DRAFT_KINDS.has(k.kind)) || (settled && only?.kind === "newline")) return { state };
  return { state: { ...state, typedAt: now, diverted: true }, toDraft: raw };
}

function reasonKeys(state: ApprovalKeyState, start: string, keys: readonly EditKey[]): ApprovalKeyResult {
  let text = start;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key.kind === "newline") {
      // Whatever followed the Enter in the same chunk was typed after the answer: it is the draft's.
      const rest = keys.slice(i + 1).filter((k): k is Extract<EditKey, { kind: "insert" }> => k.kind === "insert").map((k) => k.text).join("");
      return { state: { ...state, stage: { kind: "reason", text } }, answer: { answer: "no", ...(text.trim() ? { reason: text.trim() } : {}) }, ...(rest ? { toDraft: rest } : {}) };
    }
    if (key.kind === "escape") return { state: { ...state, stage: { kind: "question" } } };
    if (key.kind === "insert") text += key.text;
    else if (key.kind === "backspace") text = [...text].slice(0, -1).join("");
    else if (key.kind === "killStart" || key.kind === "killWordBack") text = key.kind === "killStart" ? "" : text.replace(/\S+\s*$/, "");
  }
  return { state: { ...state, stage: { kind: "reason", text } } };
}
