/**
 * Transcript: finished items inside <Static> (TranscriptHistory: written once, never redrawn —
 * long transcripts cost nothing), then the live items of the current run (LiveItems), redrawn as
 * they change. Children running side by side are grouped into one PaneGroup at the place of
 * their task calls. The two halves are separate so the screen can put the sidebar next to the
 * live items without touching the history.
 */
import { Box, Static } from "ink";
import type { ChildView, TranscriptItem } from "../state/transcript-types.js";
import { BottomClamp } from "../layout/BottomClamp.js";
import { itemLines } from "../layout/item-lines.js";
import { ItemRows } from "./ItemRows.js";
import { livePlan, type LiveShape } from "../layout/live-plan.js";
import { rowCount } from "../layout/measure.js";
import { PaneGroup } from "./PaneGroup.js";
import { TranscriptItemView } from "./TranscriptItemView.js";
import { liveTail } from "./Markdown.js";

export interface TranscriptHistoryProps {
  /** Finished items (append-only). */
  finished: TranscriptItem[];
  /** Changes when the transcript was cleared or must be redrawn, so <Static> writes it afresh. */
  epoch: number | string;
  /** Terminal width. */
  columns: number;
}

export interface LiveItemsProps {
  /** Live items of the current run. */
  live: TranscriptItem[];
  /** UI clock (ms). */
  now: number;
  /** Width available to the live items. */
  columns: number;
  /** Rows the live items may take (never more: the top is cut first). */
  rows: number;
  /** The running child whose pane has the keyboard. */
  focusedChildId?: string;
  /** Always take exactly `rows` rows, content at the bottom (full-screen, when the plan spends every row: see liveFillsRows). */
  fill?: boolean;
}

export type TranscriptProps = TranscriptHistoryProps & LiveItemsProps;

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

/** The finished items, each written to the terminal once. */
export function TranscriptHistory({ finished, epoch, columns }: TranscriptHistoryProps) {
  return (
    <Static key={epoch} items={finished}>
      {(item) => (
        // Static's own box is absolutely positioned, so nothing else bounds an item's width: without
        // this, a row of a marker and wrapped text was laid out a column or more past the terminal.
        <Box key={item.id} flexDirection="column" width={columns}>
          <ItemRows rows={itemLines(item, columns)} />
        </Box>
      )}
    </Static>
  );
}

/** Rows a live item other than the streaming answer draws: its rows (an answer not streaming shows its last 3 lines). */
function liveItemRows(item: TranscriptItem, columns: number): number {
  const shown = item.kind === "assistant" && !item.done ? { ...item, text: liveTail(item.text, 3, columns) } : item;
  return itemLines(shown, columns).length;
}

/** The shape livePlan needs: pane groups, the streaming answer, and the rows of everything else. */
export function liveShape(groups: readonly Group[], columns: number): LiveShape & { tailId?: string } {
  const tail = [...groups].reverse().find((g) => g.kind === "item" && g.item.kind === "assistant" && !g.item.done);
  const tailId = tail?.kind === "item" ? tail.item.id : undefined;
  let otherRows = 0;
  const paneGroups: LiveShape["paneGroups"] = [];
  for (const g of groups) {
    if (g.kind === "panes") paneGroups.push({ ids: g.agents.map((a) => a.childId), extraRows: Object.fromEntries(g.agents.map((a) => [a.childId, a.note ? 1 : 0])) });
    else if (g.item.id !== tailId) otherRows += liveItemRows(g.item, columns);
  }
  return { paneGroups, otherRows, hasAssistant: tailId !== undefined, tailId };
}

/**
 * Whether the live items' plan spends all `rows` rows: a streaming answer longer than the rows
 * left for its tail. Then the live area can take exactly `rows` rows (`fill`) and nothing above it
 * in the region is visible (full-screen skips drawing the history window).
 */
export function liveFillsRows(live: readonly TranscriptItem[], columns: number, rows: number, focusedChildId?: string): boolean {
  const shape = liveShape(groupLive(live), columns);
  if (shape.tailId === undefined) return false;
  const tail = live.find((i) => i.id === shape.tailId);
  const plan = livePlan(shape, columns, rows, focusedChildId);
  // Counted as Markdown's liveTail counts the rows it keeps.
  return tail?.kind === "assistant" && rowCount(tail.text, Math.max(10, columns - 4)) > plan.assistantTail;
}

/** The live items, planned to fit `rows` rows (BottomClamp cuts anything an estimate missed, oldest rows first). */
export function LiveItems({ live, now, columns, rows, focusedChildId, fill = false }: LiveItemsProps) {
  const groups = groupLive(live);
  const shape = liveShape(groups, columns);
  const plan = livePlan(shape, columns, rows, focusedChildId);
  let paneGroup = 0;
  return (
    <BottomClamp maxRows={rows} fill={fill}>
      {groups.map((g) =>
        g.kind === "panes" ? (
          <PaneGroup key={g.key} agents={g.agents} now={now} plan={plan.groups[paneGroup++]!} focusedId={focusedChildId} />
        ) : (
          <TranscriptItemView key={g.item.id} item={g.item} now={now} width={columns} tailLines={g.item.id === shape.tailId ? plan.assistantTail : 3} />
        ),
      )}
    </BottomClamp>
  );
}

/** The whole transcript (history, then live items). */
export function Transcript(props: TranscriptProps) {
  return (
    <>
      <TranscriptHistory finished={props.finished} epoch={props.epoch} columns={props.columns} />
      <LiveItems live={props.live} now={props.now} columns={props.columns} rows={props.rows} focusedChildId={props.focusedChildId} />
    </>
  );
}
