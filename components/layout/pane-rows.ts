/**
 * The rows of running children's panes (views/SubagentPane.tsx, views/PaneGroup.tsx): a pane's
 * body is the last rows of what its child did (paneTail, the rows SubagentPane draws), so a pane's
 * height is its chrome plus those rows, and a pane group's height follows from its plan (livePlan)
 * and those heights — the count the live area is cut by (live-rows.ts).
 */
import type { ChildToolEntry, ChildView } from "../state/transcript-types.js";
import { PANE_CHROME_ROWS, type PanePlan } from "./live-plan.js";
import { wrapRows } from "./measure.js";
import { dropBreakSpace } from "./text-rows.js";

/** One body line of a pane: a line of the child's text, or one of its tool calls. */
export type PaneLine = { kind: "text"; text: string } | { kind: "tool"; tool: ChildToolEntry };

/**
 * The last `n` body rows of `child`, oldest first: text is wrapped at `width` columns and its
 * newest rows kept (a long paragraph shows its newest words, not its first ones), blank lines
 * left out; a tool call is one row. A text is read from its end, a line at a time, until the rows
 * are there: a child streaming a long report costs the pane its last lines each frame, not all
 * of them (the whole text was split, trimmed and each line wrapped, every frame of every pane).
 */
export function paneTail(child: Pick<ChildView, "entries">, n: number, width = 60): PaneLine[] {
  const out: PaneLine[] = [];
  for (let i = child.entries.length - 1; i >= 0 && out.length < n; i--) {
    const entry = child.entries[i]!;
    if (entry.kind === "tool") {
      out.push({ kind: "tool", tool: entry });
      continue;
    }
    const text = entry.text;
    for (let end = text.length; end >= 0 && out.length < n; ) {
      const start = end > 0 ? text.lastIndexOf("\n", end - 1) : -1;
      const line = text.slice(start + 1, end).trimEnd();
      end = start;
      if (line.trim() === "") continue;
      // Each source line wrapped on its own, its continuation rows without the space they broke at; the newest first.
      const rows = wrapRows(line, Math.max(1, width));
      for (let r = rows.length - 1; r >= 0 && out.length < n; r--) out.push({ kind: "text", text: dropBreakSpace(rows[r]!, r) });
    }
  }
  return out.reverse();
}

/** The inner width of a pane `width` columns wide (inside its border and padding). */
export function paneInner(width: number): number {
  return Math.max(10, width - 4);
}

/** Rows the bordered pane of `child` takes at `width` with at most `lines` body rows (SubagentPane). */
export function paneRows(child: ChildView, width: number, lines: number): number {
  const reason = child.reason && child.status !== "running" ? 1 : 0;
  return PANE_CHROME_ROWS + paneTail(child, lines, paneInner(width)).length + (child.note ? 1 : 0) + reason;
}

/** Rows the group of running `agents` takes drawn as `plan` says (PaneGroup). */
export function paneGroupRows(agents: readonly ChildView[], plan: PanePlan): number {
  if (plan.mode === "full") {
    let rows = 0;
    const perRow = Math.max(1, plan.perRow);
    for (let i = 0; i < agents.length; i += perRow) rows += Math.max(0, ...agents.slice(i, i + perRow).map((c) => paneRows(c, plan.paneWidth, plan.body)));
    return rows;
  }
  const byId = new Map(agents.map((c) => [c.childId, c]));
  let rows = plan.hidden > 0 ? 1 : 0;
  for (const id of plan.shown) {
    const child = byId.get(id);
    if (child) rows += id === plan.expanded ? paneRows(child, plan.paneWidth, plan.body) : 1;
  }
  return rows;
}
