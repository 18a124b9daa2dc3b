/**
 * livePlan: how the live area (still-changing items of the current run) spends its row budget.
 * Every figure is in terminal rows after wrapping, so the frame Ink redraws stays shorter than the
 * terminal and Ink never falls back to its clear-the-screen path. Running children get full
 * bordered panes when they fit (side by side when the terminal is wide); otherwise one compact row
 * each (the focused child kept as a full pane when there is room for it), and when even those do
 * not fit, as many rows as fit plus a "+N more" row — the focused child always among the shown.
 * The streaming assistant text gets what is left (its newest rows).
 */

/** Narrowest pane worth showing side by side. */
export const MIN_PANE_WIDTH = 44;
/** Rows of a full pane that are not its body: two borders, header, id line, prompt line. */
export const PANE_CHROME_ROWS = 5;
/** Fewest body rows a full pane is drawn with. */
export const MIN_PANE_BODY = 2;
/** Most body rows a full pane is given. */
export const MAX_PANE_BODY = 9;
/** Fewest rows kept for a streaming answer's tail (plus its blank row above). */
export const MIN_TAIL_ROWS = 3;

/** How one group of running children (consecutive task calls) is drawn. */
export interface PanePlan {
  mode: "full" | "compact";
  /** Full mode: panes per row and the width of each. */
  perRow: number;
  paneWidth: number;
  /** Full mode: body rows of each pane. Compact mode: body rows of the expanded (focused) pane, 0 when none. */
  body: number;
  /** Compact mode: child ids drawn as rows, in order (the expanded one included); the rest are counted in `hidden`. */
  shown: string[];
  /** Compact mode: children not drawn ("+N more"). */
  hidden: number;
  /** Compact mode: the child drawn as a full pane among the rows. */
  expanded?: string;
  /** Rows this group takes. */
  rows: number;
}

/** The live area's plan: one PanePlan per pane group, in order, and the streaming text's tail rows. */
export interface LivePlan {
  groups: PanePlan[];
  /** Rows for the live assistant text (its tail), 0 when there is none. */
  assistantTail: number;
  /** Rows every other live item takes (estimates). */
  otherRows: number;
}

/** What the planner needs to know about the live items. */
export interface LiveShape {
  /** Per pane group, its children (ids) and the extra rows each full pane needs (a note line). */
  paneGroups: { ids: string[]; extraRows?: Record<string, number> }[];
  /** Rows of every live item that is neither a pane group nor the streaming answer. */
  otherRows: number;
  /** A streaming assistant text is live. */
  hasAssistant: boolean;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** Full-pane plan for `ids` in `rows` rows at `columns`, or undefined when it does not fit. */
function fullPlan(ids: string[], columns: number, rows: number, extra: Record<string, number>): PanePlan | undefined {
  const perRow = clamp(Math.floor(columns / MIN_PANE_WIDTH), 1, ids.length);
  const lines = Math.ceil(ids.length / perRow);
  const extraMax = Math.max(0, ...ids.map((id) => extra[id] ?? 0));
  const per = Math.floor(rows / lines) - PANE_CHROME_ROWS - extraMax;
  if (per < MIN_PANE_BODY) return undefined;
  const body = Math.min(MAX_PANE_BODY, per);
  return { mode: "full", perRow, paneWidth: Math.floor(columns / perRow), body, shown: ids, hidden: 0, rows: lines * (PANE_CHROME_ROWS + body + extraMax) };
}

/** Compact plan: one row per child, the focused one expanded when it fits, "+N more" when rows run out. */
function compactPlan(ids: string[], columns: number, rows: number, focused: string | undefined, extra: Record<string, number>): PanePlan {
  const base = { mode: "compact" as const, perRow: 1, paneWidth: columns, body: 0 };
  const budget = Math.max(1, rows);
  const focusIn = focused !== undefined && ids.includes(focused);
  // The focused child as a full pane, the others one row each.
  if (focusIn) {
    const fullRows = PANE_CHROME_ROWS + (extra[focused] ?? 0);
    const body = Math.min(MAX_PANE_BODY, budget - (ids.length - 1) - fullRows);
    if (body >= MIN_PANE_BODY) return { ...base, body, shown: ids, hidden: 0, expanded: focused, rows: ids.length - 1 + fullRows + body };
  }
  if (ids.length <= budget) return { ...base, shown: ids, hidden: 0, rows: ids.length };
  // Not every row fits: the first rows, with the focused child swapped in, and a "+N more" row.
  const slots = Math.max(0, budget - 1);
  let shown = ids.slice(0, slots);
  if (focusIn && !shown.includes(focused) && slots > 0) shown = [...shown.slice(0, slots - 1), focused];
  return { ...base, shown, hidden: ids.length - shown.length, rows: shown.length + 1 };
}

/**
 * The plan for the live items `shape` in `rows` rows and `columns` columns. `focused` is the child
 * whose pane has the keyboard. The plan never uses more than `rows` rows for pane groups and the
 * tail together (other items are estimates the caller clips as a safety net).
 */
export function livePlan(shape: LiveShape, columns: number, rows: number, focused?: string): LivePlan {
  const width = Math.max(20, columns);
  const total = Math.max(1, rows);
  const tailMin = shape.hasAssistant ? MIN_TAIL_ROWS + 1 : 0;
  let room = Math.max(0, total - shape.otherRows - tailMin);
  const childCount = shape.paneGroups.reduce((n, g) => n + g.ids.length, 0);
  const groups: PanePlan[] = [];
  for (const g of shape.paneGroups) {
    // Each group gets a share of the room in proportion to its children.
    const share = childCount === 0 ? 0 : Math.max(1, Math.floor((room * g.ids.length) / Math.max(1, childCount)));
    const extra = g.extraRows ?? {};
    const plan = fullPlan(g.ids, width, share, extra) ?? compactPlan(g.ids, width, share, focused, extra);
    groups.push(plan);
  }
  const used = groups.reduce((n, g) => n + g.rows, 0);
  room = Math.max(0, total - shape.otherRows - used);
  const assistantTail = shape.hasAssistant ? Math.max(1, room - 1) : 0;
  return { groups, assistantTail, otherRows: shape.otherRows };
}

/** First index to show of a list of `count` rows in `height` rows so that `selected` is visible (kept near the middle). */
export function listWindow(selected: number, count: number, height: number): number {
  const h = Math.max(1, height);
  if (count <= h) return 0;
  return clamp(selected - Math.floor(h / 2), 0, count - h);
}
