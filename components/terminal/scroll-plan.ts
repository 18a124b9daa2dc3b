/**
 * Scroll planning for the frame diff (frame-diff.ts): which bands of rows of the frame on screen
 * moved up, and by how many rows, so the terminal can move them (a scroll region, or deleted and
 * inserted lines) and only the rows that came in are written. Rows only: the bytes are the diff's.
 */

/** The bytes (about) of drawing row `next` over row `old`. */
export type RowCost = (old: string, next: string) => number;

/**
 * Rows a scroll of rows that changed as they moved (panes' bodies, whose rows begin alike) may
 * move at most; a larger jump is looked for only among rows that moved unchanged (a fast answer's
 * lines: at ~4,000 tokens a second a frame moves the transcript 10–15 rows).
 */
const MAX_SCROLL = 8;
/** Below this many changed rows a scroll is not looked for. */
const MIN_CHANGED_FOR_SCROLL = 3;

/** Most bands scrolled in one frame (side-by-side panes that moved up together, row by row of panes). */
const MAX_BANDS = 6;

/**
 * The scrolls that turn `prev` towards `next`, one band after another (each weighed on the rows
 * the ones before it left): the transcript, or each row of panes whose bodies moved up a row.
 * The caller keeps the prefix that writes the fewest bytes.
 */
export function* scrollPlans(prev: readonly string[], next: readonly string[], cost: RowCost): Generator<ScrollPlan> {
  let on = prev;
  for (let n = 0; n < MAX_BANDS; n++) {
    let changed = 0;
    for (let i = 0; i < next.length; i++) if (next[i] !== on[i]) changed++;
    const plan = changed >= MIN_CHANGED_FOR_SCROLL ? bestScroll(on, next, cost) : undefined;
    if (!plan) return;
    yield plan;
    on = scrolled(on, plan);
  }
}

/** The rows of `prev` once `plan` scrolled them. */
export function scrolled(prev: readonly string[], plan: ScrollPlan): string[] {
  const moved = prev.slice();
  for (let i = plan.top; i <= plan.bottom; i++) moved[i] = i + plan.by <= plan.bottom ? prev[i + plan.by]! : "";
  return moved;
}

/** Cheap test before weighing shift `k`: at least two changed rows begin as the row k below did (a pane's body of three rows moved up one). */
function lookMoved(prev: readonly string[], next: readonly string[], k: number, height: number): boolean {
  let hits = 0;
  for (let i = 0; i < height - k && hits < 2; i++) {
    const n = next[i]!;
    const p = prev[i + k]!;
    if (n === prev[i] || n.length < 8) continue;
    let same = true;
    for (let c = 0; c < 12 && same; c++) same = n.charCodeAt(c) === p.charCodeAt(c);
    if (same) hits++;
  }
  return hits >= 2;
}

/** Cheap test for a long shift `k`: at least two changed rows are the row k below, unchanged. */
function movedWhole(prev: readonly string[], next: readonly string[], k: number, height: number): boolean {
  let hits = 0;
  for (let i = 0; i < height - k && hits < 2; i++) if (next[i] === prev[i + k] && next[i] !== prev[i] && next[i]!.length >= 8) hits++;
  return hits >= 2;
}

/** A band of rows (0-based, inclusive) scrolled up `by` rows. */
export interface ScrollPlan {
  top: number;
  bottom: number;
  by: number;
}

/**
 * The scroll that saves the most bytes (about), if any: for each shift k, the run of rows i where
 * drawing next[i] over prev[i + k] saves the most against drawing it over prev[i] (a maximum-sum
 * run: rows of a sidebar that the scroll moves too cost a little, the transcript's rows save a
 * lot), as a band from the run's first row to k rows below its last, weighed with the k rows the
 * scroll blanks at the band's foot.
 */
function bestScroll(prev: readonly string[], next: readonly string[], patchCost: RowCost): ScrollPlan | undefined {
  const height = Math.min(prev.length, next.length);
  const inPlace = Array.from({ length: height }, (_, i) => patchCost(prev[i]!, next[i]!));
  let best: ScrollPlan | undefined;
  let bestSaving = 0;
  for (let k = 1; k < height; k++) {
    if (!(k <= MAX_SCROLL ? lookMoved(prev, next, k, height) : movedWhole(prev, next, k, height))) continue;
    let runBest = 0;
    let bestStart = -1;
    let bestEnd = -1;
    let sum = 0;
    let start = 0;
    for (let i = 0; i < height - k; i++) {
      const gain = inPlace[i]! - patchCost(prev[i + k]!, next[i]!);
      if (sum <= 0) {
        sum = 0;
        start = i;
      }
      sum += gain;
      if (sum > runBest) {
        runBest = sum;
        bestStart = start;
        bestEnd = i;
      }
    }
    if (bestStart < 0) continue;
    const plan = { top: bestStart, bottom: Math.min(height - 1, bestEnd + k), by: k };
    let saving = runBest - 20;
    for (let i = bestEnd + 1; i <= plan.bottom; i++) saving -= patchCost("", next[i]!) - inPlace[i]!;
    if (saving > bestSaving) {
      bestSaving = saving;
      best = plan;
    }
  }
  return best;
}
