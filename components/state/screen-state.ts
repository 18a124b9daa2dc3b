/**
 * The screen's state in one place, pure: everything MainScreen and its hooks keep between frames
 * that is the screen's own (not the session's, not the stream's). Navigation (`ui`: who has the
 * keys, the overlay, the sidebar selection, the resume line, the picker — ui-reducer.ts), the
 * standing sidebar's preference, details in place, the inline history's epoch (a /clear starts a
 * new <Static>), the status bar's hint, the prompt's history and its rows, the prompts waiting for
 * the run to end, what goes back into the input box when a run ends, whether the first frame is painted, the full-screen transcript's scroll position,
 * the Ctrl-F search, the "stop the running children?" question and the "press Ctrl-C again" guard. `reduceScreen` applies one action; `createScreenStore` holds the state for a screen
 * (getState / dispatch / subscribe, the shape React's useSyncExternalStore reads). Key handlers read
 * `getState()` at key time, so several keys arriving in one chunk each see the state the last one left.
 * An action that changes nothing returns the same state object, and the store then tells no one.
 */
import { INITIAL_UI, reduceUi, type UiAction, type UiState } from "./ui-reducer.js";

/** The standing sidebar: "auto" stands it while it lists something; Ctrl-S makes it "shown" (even empty) or "hidden". */
export type SidebarPref = "auto" | "shown" | "hidden";

/** A row of the transcript named by its item: `row` rows into item `item` (layout/virtual-window.ts measures with it). */
export interface ScrollAnchor {
  item: number;
  row: number;
}

/** Where the full-screen transcript is scrolled (hooks/use-transcript-scroll.ts derives the offset from it). */
export interface ScrollState {
  /** The view's top row; undefined: following the end. */
  anchor?: ScrollAnchor;
  /** Items there were when the person scrolled up (those after it arrived unseen). */
  since: number;
}

/** The Ctrl-F search over the transcript (its hits are derived from the items and the query). */
export interface SearchState {
  open: boolean;
  query: string;
  /** The current hit among the hits, newest first (-1 before the first jump). */
  index: number;
}

/** Which input box a row count is for: the main prompt or the resumed child's line. */
export type DraftBox = "main" | "resume";

export interface ScreenState {
  ui: UiState;
  sidebarPref: SidebarPref;
  /** Details opened in place (Ctrl-O, full-screen). */
  detail: boolean;
  /** Bumped by /clear: the inline history starts again. */
  epoch: number;
  /** The status bar's one-line hint. */
  hint?: string;
  /** Prompts sent, oldest first (↑ on the prompt recalls them); the same prompt twice in a row is kept once. */
  history: readonly string[];
  /** Prompts typed during a run, oldest first: each is sent as a run ends (a stop or a failure gives them back to the box). */
  queued: readonly string[];
  /** What goes back into the input box when a run ends (a stopped or failed prompt, the prompts held behind it); a new `seq` each time, so the box takes the same text twice. */
  boxRestore?: { text: string; seq: number };
  /** The text rows each input box shows now (a draft of several rows, a menu): the layout leaves them free. */
  draftRows: Readonly<Record<DraftBox, number>>;
  /** The first frame is on screen (the standing sidebar's scan of saved sessions waits for it). */
  painted: boolean;
  scroll: ScrollState;
  search: SearchState;
  /** The open "stop N running children?" question; `then`: what y does after stopping them (`exit`, `rewind to before turn 3`). */
  stopAsk?: { count: number; then?: string };
  /** The first Ctrl-C on an idle screen armed "press again to exit". */
  exitArmed: boolean;
}

/** The hint that stays while the app exits (a focus change does not clear it). */
export const EXITING_HINT = "exiting…";

export const INITIAL_SCREEN: ScreenState = {
  ui: INITIAL_UI,
  sidebarPref: "auto",
  detail: false,
  epoch: 0,
  history: [],
  queued: [],
  draftRows: { main: 1, resume: 1 },
  painted: false,
  scroll: { since: 0 },
  search: { open: false, query: "", index: -1 },
  exitArmed: false,
};

export type ScreenAction =
  /** Navigation: applied to `ui` by reduceUi. */
  | UiAction
  /** Ctrl-S: the standing sidebar shown or hidden. */
  | { type: "sidebar_pref"; pref: SidebarPref }
  /** Ctrl-O: details in place opened or closed. */
  | { type: "detail_toggle" }
  /** /clear: a new inline history, and the view back to following the end (`count`: the items there are now). */
  | { type: "view_clear"; count: number }
  /** The status bar's hint (undefined clears it). */
  | { type: "hint"; text: string | undefined }
  /** Clears the hint unless the app is exiting. */
  | { type: "hint_clear_unless_exiting" }
  /** A prompt sent: appended to the history unless it repeats the last one. */
  | { type: "history_add"; text: string }
  /** A prompt typed during a run waits at the end of the queue. */
  | { type: "queue_add"; text: string }
  /** The newest waiting prompt leaves the queue (↑ took it back to edit). */
  | { type: "queue_pop" }
  /** The oldest waiting prompt leaves the queue (it was sent). */
  | { type: "queue_shift" }
  /** Every waiting prompt leaves the queue (the run was stopped: they go back to the box). */
  | { type: "queue_clear" }
  /** `text` goes back into the input box. */
  | { type: "box_restore"; text: string }
  | { type: "draft_rows"; box: DraftBox; rows: number }
  | { type: "painted" }
  /** Back to following the end; `count`: the items there are now. */
  | { type: "scroll_follow"; count: number }
  /** Scrolled up, the view's top row held at `anchor`; `count`: the items there are now (counted from when scrolling up began). */
  | { type: "scroll_hold"; anchor: ScrollAnchor; count: number }
  /** Ctrl-F: the search opens with an empty query. */
  | { type: "search_start" }
  | { type: "search_close" }
  /** The query typed so far (the current hit is reset). */
  | { type: "search_edit"; query: string }
  /** The current hit. */
  | { type: "search_jump"; index: number }
  /** Asks whether to stop the `count` running children; `then` names what follows (absent: what the open question had, if any). */
  | { type: "stop_ask"; count: number; then?: string }
  /** The question was answered. */
  | { type: "stop_answered" }
  | { type: "exit_arm" }
  | { type: "exit_disarm" };

function sameAnchor(a: ScrollAnchor | undefined, b: ScrollAnchor | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.item === b.item && a.row === b.row);
}

/** Applies one action (pure); an action that changes nothing returns `state` itself. */
export function reduceScreen(state: ScreenState, action: ScreenAction): ScreenState {
  switch (action.type) {
    case "sidebar_pref":
      return state.sidebarPref === action.pref ? state : { ...state, sidebarPref: action.pref };
    case "detail_toggle":
      return { ...state, detail: !state.detail };
    case "view_clear":
      return { ...state, epoch: state.epoch + 1, scroll: state.scroll.anchor === undefined ? state.scroll : { since: action.count } };
    case "hint":
      return state.hint === action.text ? state : { ...state, hint: action.text };
    case "hint_clear_unless_exiting":
      return state.hint === undefined || state.hint === EXITING_HINT ? state : { ...state, hint: undefined };
    case "history_add":
      return state.history[state.history.length - 1] === action.text ? state : { ...state, history: [...state.history, action.text] };
    case "queue_add":
      return { ...state, queued: [...state.queued, action.text] };
    case "queue_pop":
      return state.queued.length === 0 ? state : { ...state, queued: state.queued.slice(0, -1) };
    case "queue_shift":
      return state.queued.length === 0 ? state : { ...state, queued: state.queued.slice(1) };
    case "queue_clear":
      return state.queued.length === 0 ? state : { ...state, queued: [] };
    case "box_restore":
      return { ...state, boxRestore: { text: action.text, seq: (state.boxRestore?.seq ?? 0) + 1 } };
    case "draft_rows":
      return state.draftRows[action.box] === action.rows ? state : { ...state, draftRows: { ...state.draftRows, [action.box]: action.rows } };
    case "painted":
      return state.painted ? state : { ...state, painted: true };
    case "scroll_follow":
      return state.scroll.anchor === undefined ? state : { ...state, scroll: { since: action.count } };
    case "scroll_hold": {
      const since = state.scroll.anchor ? state.scroll.since : action.count;
      if (sameAnchor(state.scroll.anchor, action.anchor) && since === state.scroll.since) return state;
      return { ...state, scroll: { anchor: action.anchor, since } };
    }
    case "search_start":
      return { ...state, search: { open: true, query: "", index: -1 } };
    case "search_close":
      return state.search.open ? { ...state, search: { ...state.search, open: false } } : state;
    case "search_edit":
      return { ...state, search: { ...state.search, query: action.query, index: -1 } };
    case "search_jump":
      return state.search.index === action.index ? state : { ...state, search: { ...state.search, index: action.index } };
    case "stop_ask": {
      const then = action.then ?? state.stopAsk?.then;
      if (state.stopAsk?.count === action.count && state.stopAsk.then === then) return state;
      return { ...state, stopAsk: then === undefined ? { count: action.count } : { count: action.count, then } };
    }
    case "stop_answered":
      return state.stopAsk === undefined ? state : { ...state, stopAsk: undefined };
    case "exit_arm":
      return state.exitArmed ? state : { ...state, exitArmed: true };
    case "exit_disarm":
      return state.exitArmed ? { ...state, exitArmed: false } : state;
    default: {
      const ui = reduceUi(state.ui, action);
      return ui === state.ui ? state : { ...state, ui };
    }
  }
}

/** The state of one screen: read it, change it by actions, hear about changes. */
export interface ScreenStore {
  getState(): ScreenState;
  dispatch(action: ScreenAction): void;
  /** Calls `listener` after each change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** A store starting at `initial` (default: INITIAL_SCREEN). */
export function createScreenStore(initial: ScreenState = INITIAL_SCREEN): ScreenStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = reduceScreen(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
