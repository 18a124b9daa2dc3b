/**
 * The live area (the still-changing items of the current run) drawn to rows at a width, cut to
 * the rows it may take (issue #41 item 3: one layout model). Every live item is drawn to its rows
 * once — a tool call, a notice, a thought with liveItemLines, the streaming answer as the last of
 * ITS drawn rows (markdownTail) — and running children are pane groups sized by livePlan (bordered
 * boxes whose rows are counted from the plan and each pane's body rows: pane-rows.ts). The height is the sum of those counts, and when
 * it is more than `rows` the oldest rows are cut here, on rows: nothing is clipped after layout.
 */
import type { ChildView, TranscriptItem } from "../state/transcript-types.js";
import { liveItemLines, type CallHold } from "./item-lines.js";
import { livePlan, type LiveShape, type PanePlan } from "./live-plan.js";
import { markdownTail } from "./markdown-lines.js";
import { paneGroupRows } from "./pane-rows.js";
import type { WrittenAnswer } from "./scrollback-log.js";

export type Group = { kind: "item"; item: TranscriptItem } | { kind: "panes"; key: string; agents: ChildView[] };

function runningChild(item: TranscriptItem): ChildView | undefined {
  return item.kind === "tool" && item.child?.status === "running" ? item.child : undefined;
}

/** Consecutive running children become one group; everything else stays a single item. */
export function groupLive(live: readonly TranscriptItem[]): Group[] {
  const groups: Group[] = [];
  for (const item of live) {
    const child = runningChild(item);
    const last = groups[groups.length - 1];
    if (child && last?.kind === "panes") last.agents.push(child);
    else if (child) groups.push({ kind: "panes", key: item.id, agents: [child] });
    else groups.push({ kind: "item", item });
  }
  return groups;
}

/** One part of the live area: rows drawn here, or a group of running children drawn as panes in exactly `rows` rows. */
export type LiveBlock = { kind: "rows"; key: string; rows: readonly string[] } | { kind: "panes"; key: string; agents: ChildView[]; plan: PanePlan; rows: number };

/** The live area drawn: its blocks top to bottom (already cut), their rows in all, and whether the streaming answer had more rows than the plan left it. */
export interface LiveDrawing {
  blocks: LiveBlock[];
  height: number;
  /** The streaming answer drew more rows than its share: the area spends every row it may take. */
  full: boolean;
}

export interface LiveRowsOptions {
  /** UI clock (ms): spinners and countdowns. */
  now: number;
  /** The running child whose pane has the keyboard. */
  focused?: string;
  /** What a live tool call waits for, if anything. */
  hold?: (item: TranscriptItem) => CallHold;
  /** Inline: the streaming answer's rows already written into the scrollback (scrollback-log.ts): it is drawn from there on. */
  written?: WrittenAnswer;
}

/** Rows an answer that is live but not the streaming one shows: its last rows. */
const OTHER_ANSWER_ROWS = 3;

/** The height of a block. */
export function blockHeight(block: LiveBlock): number {
  return block.kind === "rows" ? block.rows.length : block.rows;
}

/** The live items drawn at `columns`, in at most `rows` rows (the oldest rows cut first). */
export function liveRows(live: readonly TranscriptItem[], columns: number, rows: number, { now, focused, hold, written }: LiveRowsOptions): LiveDrawing {
  const groups = groupLive(live);
  const tail = [...groups].reverse().find((g) => g.kind === "item" && g.item.kind === "assistant" && !g.item.done);
  const tailId = tail?.kind === "item" ? tail.item.id : undefined;
  // Every item but the streaming answer and the panes, drawn first: the plan spends what they leave.
  const drawn = new Map<string, readonly string[]>();
  const paneGroups: LiveShape["paneGroups"] = [];
  let otherRows = 0;
  for (const g of groups) {
    if (g.kind === "panes") {
      paneGroups.push({ ids: g.agents.map((a) => a.childId), extraRows: Object.fromEntries(g.agents.map((a) => [a.childId, a.note ? 1 : 0])) });
      continue;
    }
    if (g.item.id === tailId) continue;
    const item = g.item;
    const itemRows = item.kind === "assistant" && !item.done ? ["", ...markdownTail(item.text, OTHER_ANSWER_ROWS, columns).rows] : liveItemLines(item, columns, now, hold?.(item));
    drawn.set(item.id, itemRows);
    otherRows += itemRows.length;
  }
  const plan = livePlan({ paneGroups, otherRows, hasAssistant: tailId !== undefined }, columns, rows, focused);
  let full = false;
  let paneGroup = 0;
  const blocks: LiveBlock[] = groups.map((g) => {
    if (g.kind === "panes") {
      const p = plan.groups[paneGroup++]!;
      return { kind: "panes", key: g.key, agents: g.agents, plan: p, rows: paneGroupRows(g.agents, p) };
    }
    if (g.item.id !== tailId) return { kind: "rows", key: g.item.id, rows: drawn.get(g.item.id)! };
    const text = g.item.kind === "assistant" ? g.item.text : "";
    const from = written?.id === g.item.id ? written.at : 0;
    // Rows already in the scrollback (the leading blank one with them) are not drawn again.
    const t = markdownTail(from > 0 ? text.slice(from) : text, plan.assistantTail, columns);
    full = t.more;
    return { kind: "rows", key: g.item.id, rows: from > 0 ? t.rows : ["", ...t.rows] };
  });
  return { ...cutTop(blocks, rows), full };
}

/**
 * `blocks` cut to at most `rows` rows, the oldest first: whole blocks above the cut dropped, a
 * block of rows straddling it keeps its last rows, a pane group straddling it is dropped whole (a
 * bordered box is not cut; the area is then shorter than `rows`).
 */
export function cutTop(blocks: readonly LiveBlock[], rows: number): { blocks: LiveBlock[]; height: number } {
  const room = Math.max(0, Math.floor(rows));
  const kept: LiveBlock[] = [];
  let height = 0;
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    const h = blockHeight(block);
    if (height + h <= room) {
      kept.unshift(block);
      height += h;
      continue;
    }
    const left = room - height;
    if (block.kind === "rows" && left > 0) {
      kept.unshift({ ...block, rows: block.rows.slice(block.rows.length - left) });
      height += left;
    }
    break;
  }
  return { blocks: kept, height };
}
