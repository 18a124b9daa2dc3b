/**
 * ScreenBody: the transcript region of the screen, laid out by screenLayout. Full-screen: the
 * scrolled history window (HistoryWindow) with the live items under it — or, scrolled up, a
 * one-row "↓ N new lines" hint in their place — and the child-session sidebar standing beside it
 * in a wide terminal. Inline: only the live items (history went to the terminal's scrollback via
 * <Static>). In both modes the sidebar stacks under the live items when there is no room beside,
 * and a child's transcript overlay takes the region's place. Every box has a fixed height, or is
 * drawn to rows and cut to the rows it was given (the live items), so the region never takes more
 * rows than the layout gave it.
 */
import { Box, Text } from "ink";
import { HistoryWindow } from "./HistoryWindow.js";
import type { SidebarRow } from "../state/sidebar-rows.js";
import type { StreamState } from "../state/transcript-types.js";
import type { OverlayLine } from "../state/ui-reducer.js";
import type { ScreenLayout } from "../layout/screen-layout.js";
import type { ScreenMode } from "../state/ui-reducer.js";
import { LiveSidebar } from "./Sidebar.js";
import { drawLive, LiveItems, type LiveWaiting } from "./Transcript.js";
import type { WrittenAnswer } from "../layout/scrollback-log.js";
import { TranscriptOverlay } from "./TranscriptOverlay.js";

export interface ScreenBodyProps {
  mode: ScreenMode;
  layout: ScreenLayout;
  state: StreamState;
  now: number;
  /** The running child whose pane has the keyboard. */
  focusedChildId?: string;
  /** Full-screen scroll position (rows up from the bottom) and rows that arrived below it. */
  scroll: { offset: number; scrolled: boolean; unseen: number };
  /** The open child transcript, when shown. */
  overlay?: { title: string; lines: readonly OverlayLine[]; offset: number; keys?: string };
  sidebar: { rows: readonly SidebarRow[]; selected: number; focused: boolean };
  /** Running children (for the scrolled-up hint). */
  running: number;
  /** Counts rendered history items (tests). */
  onHistoryRendered?: (count: number) => void;
  /** Details open (Ctrl-O, full-screen). */
  detail?: boolean;
  /** What waits for the person's answer, for the live items. */
  waiting?: LiveWaiting;
  /** Inline: the streaming answer's rows already in the scrollback (layout/scrollback-log.ts). */
  written?: WrittenAnswer;
}

function ScrolledHint({ unseen, running, width }: { unseen: number; running: number; width: number }) {
  const news = unseen > 0 ? `↓ ${unseen} new line${unseen === 1 ? "" : "s"}` : "↓ scrolled up";
  const work = running > 0 ? ` · ${running} agent${running === 1 ? "" : "s"} running` : "";
  return (
    <Box width={width} flexShrink={0}>
      <Text color="cyan" wrap="truncate-end">{`${news}${work} · End or PgDn to follow`}</Text>
    </Box>
  );
}

/** The region. */
export function ScreenBody(props: ScreenBodyProps) {
  const { mode, layout, state, now, scroll } = props;
  const width = layout.regionColumns;
  const sb = layout.sidebar;
  const sidebar =
    sb.placement === "none" ? null : (
      <Box height={sb.rows} width={sb.columns} overflow="hidden" flexShrink={0} flexDirection="column">
        <LiveSidebar now={props.running > 0 ? now : undefined} rows={props.sidebar.rows} selected={props.sidebar.selected} width={sb.columns} height={sb.listRows} focused={props.sidebar.focused} />
      </Box>
    );
  const stacked = sb.placement === "stacked" ? sidebar : null;
  // Full-screen, following the end: a streaming answer that fills the region hides the history
  // under it, so the window is not drawn at all (the live area takes exactly its rows).
  // The live area is drawn once a frame: whether it fills, then what LiveItems shows.
  const liveProps = { live: state.live, now, columns: width, rows: layout.liveRows, focusedChildId: props.focusedChildId, waiting: props.waiting, written: props.written };
  const drawing = props.overlay ? undefined : drawLive(liveProps);
  const fills = mode === "fullscreen" && !scroll.scrolled && drawing?.full === true;
  const live = <LiveItems {...liveProps} fill={fills} drawing={drawing} />;
  let main;
  if (props.overlay) {
    main = <TranscriptOverlay title={props.overlay.title} lines={props.overlay.lines} offset={props.overlay.offset} height={layout.overlayRows} width={width} keys={props.overlay.keys} fill={mode === "fullscreen"} />;
  } else if (mode === "inline") {
    main = (
      <>
        {live}
        {stacked}
      </>
    );
  } else {
    main = (
      <>
        {fills ? null : (
          <Box flexGrow={1} flexShrink={1} flexDirection="column" justifyContent="flex-end" overflow="hidden">
            <HistoryWindow items={state.finished} width={width} height={layout.regionRows} offset={scroll.offset} onRendered={props.onHistoryRendered} detail={props.detail} />
          </Box>
        )}
        {scroll.scrolled ? <ScrolledHint unseen={scroll.unseen} running={props.running} width={width} /> : live}
        {stacked}
      </>
    );
  }
  const region = (
    <Box flexDirection="column" width={width} flexShrink={0} {...(mode === "fullscreen" ? { height: layout.regionRows, overflow: "hidden" as const } : {})}>
      {main}
    </Box>
  );
  if (sb.placement !== "column") return region;
  return (
    <Box flexDirection="row" flexShrink={0} {...(mode === "fullscreen" ? { height: layout.regionRows, overflow: "hidden" as const } : {})}>
      {region}
      {sidebar}
    </Box>
  );
}
