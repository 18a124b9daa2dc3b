/**
 * Prompt history recall (↑/↓), pure. The position counts back from the newest entry: 0 is the
 * person's own draft, 1 the newest entry, history.length the oldest. ↑ saves the draft, ↓ past
 * the newest entry restores it. Counting from the end keeps the position valid as history grows.
 */

/** Where the prompt is in its history. */
export interface RecallState {
  /** 0 = editing the draft; n = the n-th newest entry. */
  back: number;
  /** What the person had typed before moving up. */
  draft: string;
}

/** The result of a move: the new position and the text to show. */
export interface Recall extends RecallState {
  value: string;
}

/** Editing a fresh draft. */
export const FRESH_RECALL: RecallState = { back: 0, draft: "" };

/** ↑: the previous (older) entry; stays at the oldest. `current` is the text now in the box. */
export function recallPrevious(history: readonly string[], state: RecallState, current: string): Recall {
  if (history.length === 0) return { ...state, value: current };
  const draft = state.back === 0 ? current : state.draft;
  const back = Math.min(state.back + 1, history.length);
  return { back, draft, value: history[history.length - back]! };
}

/** ↓: the next (newer) entry, or the saved draft after the newest. */
export function recallNext(history: readonly string[], state: RecallState, current: string): Recall {
  if (state.back === 0) return { ...state, value: current };
  const back = Math.min(state.back, history.length) - 1;
  return { back, draft: state.draft, value: back === 0 ? state.draft : history[history.length - back]! };
}
