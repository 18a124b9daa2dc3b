/**
 * What a chunk of input means while a budget question is open (pure): `1` extends by half the
 * budget (+50%), `2` by the whole budget (2×), `t` opens a typed amount (`20k`, `$0.50`; Enter
 * adds it, Esc goes back), `s` or Esc stops. As with an approval, a one-key answer counts only
 * once the question has settled (approval-keys.ts timing); typing before that goes to the draft.
 */
import { splitKeys } from "./line-editor.js";
import type { ApprovalTiming } from "./approval-keys.js";
import { parseCostBudget, parseTokenBudget, presetExtensions, type BudgetAnswer, type BudgetKind } from "../../src/subagents/runtime/budget.js";

export type BudgetStage = { kind: "question" } | { kind: "amount"; text: string; error?: string };

export interface BudgetKeyState {
  stage: BudgetStage;
  shownAt: number;
  typedAt: number;
}

export interface BudgetKeyResult {
  state: BudgetKeyState;
  answer?: BudgetAnswer;
  /** Type-ahead for the prompt's draft. */
  toDraft?: string;
}

/** The state of a question shown at `now` (the prompt last typed into at `typedAt`). */
export function initialBudgetKeys(now: number, typedAt = 0): BudgetKeyState {
  return { stage: { kind: "question" }, shownAt: now, typedAt };
}

/** Applies one raw chunk; `kind` and `limit` are the reached budget's. */
export function budgetKey(state: BudgetKeyState, raw: string, kind: BudgetKind, limit: number, timing: ApprovalTiming): BudgetKeyResult {
  const keys = splitKeys(raw);
  const stage = state.stage;
  if (stage.kind === "amount") {
    let text = stage.text;
    for (const key of keys) {
      if (key.kind === "escape") return { state: { ...state, stage: { kind: "question" } } };
      if (key.kind === "backspace") text = text.slice(0, -1);
      else if (key.kind === "insert") text += key.text;
      else if (key.kind === "newline") {
        const parsed = kind === "tokens" ? parseTokenBudget(text.trim()) : parseCostBudget(text.trim());
        if (parsed.ok) return { state, answer: { add: parsed.value } };
        return { state: { ...state, stage: { kind: "amount", text, error: parsed.message } } };
      }
    }
    return { state: { ...state, stage: { kind: "amount", text } } };
  }
  const now = timing.now();
  const only = keys.length === 1 ? keys[0]! : undefined;
  const settled = now - state.shownAt >= timing.armMs && now - state.typedAt >= timing.quietMs;
  const letter = only?.kind === "insert" ? only.text.toLowerCase() : undefined;
  if (settled && (only?.kind === "escape" || letter === "s")) return { state, answer: "stop" };
  const presets = presetExtensions(limit);
  if (settled && letter === "1") return { state, answer: { add: presets.half } };
  if (settled && letter === "2") return { state, answer: { add: presets.double } };
  if (settled && letter === "t") return { state: { ...state, stage: { kind: "amount", text: "" } } };
  return { state: { ...state, typedAt: now }, toDraft: raw };
}
