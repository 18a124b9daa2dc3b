/**
 * Transcript: finished items inside <Static> (TranscriptHistory: written once, never redrawn —
 * long transcripts cost nothing), then the live items of the current run (LiveItems), redrawn as
 * they change. Children running side by side are grouped into one PaneGroup at the place of
 * their task calls. The two halves are separate so the screen can put the sidebar next to the
 * live items without touching the history. The live items are drawn to rows and cut to the rows
 * they may take (layout/live-rows.ts).
 */
import { Box, Static } from "ink";
import type { TranscriptItem } from "../state/transcript-types.js";
import type { WaitingCalls } from "../state/approval-broker.js";
import { callHold } from "../layout/item-lines.js";
import { liveRows, type LiveDrawing } from "../layout/live-rows.js";
import { entryRows, type ScrollbackEntry, type WrittenAnswer } from "../layout/scrollback-log.js";
import { ItemRows } from "./ItemRows.js";
import { PaneGroup } from "./PaneGroup.js";

export { groupLive, type Group } from "../layout/live-rows.js";

export interface TranscriptHistoryProps {
  /** What goes into the scrollback, in order (append-only): finished items, and a streaming answer's settled rows (layout/scrollback-log.ts). */
  entries: readonly ScrollbackEntry[];
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
  /** Rows the live items may take (never more: the oldest rows are cut first). */
  rows: number;
  /** The running child whose pane has the keyboard. */
  focusedChildId?: string;
  /** Always take exactly `rows` rows, content at the bottom (full-screen, when the plan spends every row: see drawLive's `full`). */
  fill?: boolean;
  /** What waits for the person's answer (ApprovalBroker): the children asking, and the calls asking or held behind one. */
  waiting?: LiveWaiting;
  /** Inline: the streaming answer's rows already in the scrollback (drawn from there on). */
  written?: WrittenAnswer;
  /** The live items already drawn this frame (drawLive with these props); drawn here when not given. */
  drawing?: LiveDrawing;
}

/** What drawLive draws the live items from: LiveItems' props but how it lays the drawing out. */
export type LiveDrawingProps = Omit<LiveItemsProps, "fill" | "drawing">;

/** What waits for an approval, for the live items: children (by id) and tool calls (ApprovalBroker.waiting / waitingCalls). */
export interface LiveWaiting {
  children: ReadonlySet<string>;
  calls: WaitingCalls;
}

const NOTHING_WAITS: LiveWaiting = { children: new Set(), calls: { calls: new Set(), main: false } };

export type TranscriptProps = Omit<TranscriptHistoryProps, "entries"> & LiveItemsProps & { finished: TranscriptItem[] };

/** The scrollback's entries, each written to the terminal once. */
export function TranscriptHistory({ entries, epoch, columns }: TranscriptHistoryProps) {
  return (
    <Static key={epoch} items={entries as ScrollbackEntry[]}>
      {(entry) => (
        // Static's own box is absolutely positioned, so nothing else bounds an item's width: without
        // this, a row of a marker and wrapped text was laid out a column or more past the terminal.
        <Box key={entry.key} flexDirection="column" width={columns}>
          <ItemRows rows={entryRows(entry, columns)} />
        </Box>
      )}
    </Static>
  );
}

/**
 * The live items drawn to rows at `columns` (layout/live-rows.ts), cut to `rows`, each tool call
 * with what it waits for. The screen draws it once a frame: its `full` (a streaming answer that drew
 * more rows than the plan left its tail) decides whether the live area takes exactly `rows` rows and
 * hides the history window, and the same drawing is what LiveItems shows.
 */
export function drawLive({ live, columns, rows, now, focusedChildId, waiting = NOTHING_WAITS, written }: LiveDrawingProps): LiveDrawing {
  return liveRows(live, columns, rows, { now, focused: focusedChildId, hold: (item) => callHold(item, waiting.calls), written });
}

/**
 * The live items drawn to rows (layout/live-rows.ts), already cut to `rows` on rows, the oldest
 * first: each item's rows as drawn, the running children as their planned pane groups.
 */
export function LiveItems(props: LiveItemsProps) {
  const { live, now, columns, rows, focusedChildId, fill = false, waiting = NOTHING_WAITS, drawing = drawLive(props) } = props;
  const pad = fill ? Math.max(0, Math.floor(rows) - drawing.height) : 0;
  return (
    <Box flexDirection="column" flexShrink={0} width={columns}>
      {pad > 0 ? <Box height={pad} flexShrink={0} /> : null}
      {drawing.blocks.map((b) =>
        b.kind === "panes" ? <PaneGroup key={b.key} agents={b.agents} now={now} plan={b.plan} focusedId={focusedChildId} waiting={waiting.children} /> : <ItemRows key={b.key} rows={b.rows} />,
      )}
    </Box>
  );
}

/** The whole transcript (history, then live items). */
export function Transcript(props: TranscriptProps) {
  return (
    <>
      <TranscriptHistory entries={props.finished.map((item) => ({ key: item.id, item }))} epoch={props.epoch} columns={props.columns} />
      <LiveItems live={props.live} now={props.now} columns={props.columns} rows={props.rows} focusedChildId={props.focusedChildId} waiting={props.waiting} />
    </>
  );
}
