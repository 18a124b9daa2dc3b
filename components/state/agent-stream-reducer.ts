/**
 * reduceStream: the pure heart of the UI. It turns the session's event stream (plus a few UI
 * actions: run start/end, notices, clear) into transcript items. Items of a run stay `live` until
 * they and every item before them are done; then they move, in order, to `finished` (rendered
 * once in <Static>), so a running task pane stays at the place of its call. A long tool result
 * whose session file saves it keeps only its head in the item; the whole text is held in
 * `heldResults` until the turn's result message reaches the file (and kept there if it never does).
 */
import type { AgentEvent } from "../../src/protocol/events.js";
import { emptyUsage, type AgentMessage, type AssistantMessage } from "../../src/protocol/messages.js";
import { emptyCost } from "../../src/core/pricing.js";
import { spentBy, tallyOf, usageOf } from "../../src/core/usage-ledger.js";
import type { SpendRow } from "../../src/protocol/spend.js";
import { lastLines } from "./format.js";
import { abandonChild, endChild, foldReport, markStopping, reduceChild, startChild } from "./child-reducer.js";
import { compactionLine } from "./compaction-line.js";
import { endsRetry, retryView } from "./retry-status.js";
import { historyItems } from "./history-items.js";
import { attachmentLine, eventNote } from "./event-notes.js";
import { isShortResult, resultHead } from "./result-head.js";
import type { TaskRecord, ViewEntry } from "../../src/session/types.js";
import type { ItemTone, StreamState, ToolItem, TranscriptItem } from "./transcript-types.js";

/** What the reducer consumes. `at` is the UI clock (ms) when the action happened. */
export type StreamAction =
  /**
   * `savedTo`: the main session file that saves this event's tool results, when writing it works
   * now (absent: sessions are off, saving fails, or the results are not saved as tool results).
   */
  | { type: "event"; event: AgentEvent; at: number; savedTo?: string; note?: { text: string; tone: ItemTone } }
  /** A run begins: a prompt to the main agent (`text`), to a resumed child (`text` + `target`), or a command without a message. */
  | { type: "run_start"; text?: string; target?: string; at: number }
  | { type: "run_end"; error?: string; at: number }
  | { type: "notice"; text: string; tone?: ItemTone }
  /** The person asked to stop one running child. */
  | { type: "child_stop"; childId: string }
  /** The session's usage ledger changed: its rows now (the session fact `spend`, src/host/tui-session.ts). */
  | { type: "spend"; rows: readonly SpendRow[] }
  | { type: "clear" };

/** The header shown at start-up. */
export interface HeaderInfo {
  cwd: string;
  model: string;
  provider: string;
  notices: string[];
}

/**
 * A fresh state; with `header`, the transcript starts with the start-up header, then the `history`
 * of a resumed session (its children, from `records`, as the summaries the live run showed); long
 * tool results of the history keep only their head when `file` (the session file they were read from) is given;
 * `view`: the notes and `!` commands saved beside the history, shown where they were; `spend`: the
 * session's usage ledger (the session fact `spend`: at start, a resumed session's saved rows), which every token and cost figure reads.
 */
export function initialStreamState(header?: HeaderInfo, history: readonly AgentMessage[] = [], records: readonly TaskRecord[] = [], file?: string, view: readonly ViewEntry[] = [], spend: readonly SpendRow[] = []): StreamState {
  const finished: TranscriptItem[] = header ? [{ kind: "header", id: "header", done: true, ...header, notices: [...header.notices] }] : [];
  finished.push(...historyItems(history, records, file, view));
  const state: StreamState = { finished, live: [], epoch: 0, running: false, spend: [], usage: emptyUsage(), cost: emptyCost(), contextTokens: contextOf(history), childIndex: {}, nextId: 1, runError: false, compacting: false };
  return withSpend(state, spend, true);
}

/** The context in use as the main agent's latest model call of a loaded history saw it (its input incl. cache reads and writes). */
function contextOf(history: readonly AgentMessage[]): number {
  let contextTokens = 0;
  for (const m of history) {
    if (m.role !== "assistant" || !m.usage) continue;
    // A turn stopped before the model reported its usage (zeros) says nothing about the context.
    const input = m.usage.input + m.usage.cacheRead + m.usage.cacheWrite;
    if (input > 0) contextTokens = input;
  }
  return contextTokens;
}

/**
 * `state` reading the ledger `rows`: the totals, and the cost of each child run shown live (with
 * `all`, every child of the transcript: a loaded session's), its run's rows priced by their model.
 */
function withSpend(state: StreamState, rows: readonly SpendRow[], all = false): StreamState {
  if (rows === state.spend) return state;
  const priced = (items: TranscriptItem[]) => sameItems(items, items.map((item) => {
      if (item.kind !== "tool" || !item.child) return item;
      const cost = tallyOf(rows, spentBy(item.child.childId, item.child.run));
      const was = item.child.cost;
      // An item whose cost did not change is kept (the same object): its row and pane are not drawn again.
      if (was ? was.usd === cost.usd && was.known === cost.known && was.partial === cost.partial : !cost.known && !cost.partial) return item;
      return { ...item, child: { ...item.child, cost } };
    }));
  return { ...state, spend: rows, usage: usageOf(rows), cost: tallyOf(rows), live: priced(state.live), ...(all ? { finished: priced(state.finished) } : {}) };
}

/** `next`, or `items` itself when every item of `next` is the same object as in `items`. */
function sameItems(items: TranscriptItem[], next: TranscriptItem[]): TranscriptItem[] {
  return next.every((item, i) => item === items[i]) ? items : next;
}

/** Applies one action (pure; returns a new state). */
export function reduceStream(state: StreamState, action: StreamAction): StreamState {
  switch (action.type) {
    case "notice":
      return append(state, { kind: "info", text: action.text, tone: action.tone ?? "info" }, "finished");
    case "spend":
      return withSpend(state, action.rows);
    case "clear":
      return { ...state, finished: [], epoch: state.epoch + 1 };
    case "run_start": {
      const s = action.text === undefined ? state : append(state, { kind: "user", text: action.text, ...(action.target ? { target: action.target } : {}) }, "finished");
      return { ...s, running: true, runError: false };
    }
    case "child_stop": {
      const toolId = state.childIndex[action.childId];
      return toolId === undefined ? state : mapTool(state, toolId, (t) => (t.child ? { ...t, child: markStopping(t.child) } : t));
    }
    case "run_end": {
      let s = settle(dropRetry(state), action.at);
      if (action.error !== undefined && !s.runError) s = append(s, { kind: "info", text: `error: ${action.error}`, tone: "error" }, "live");
      return flush({ ...s, running: false, compacting: false, runError: s.runError || action.error !== undefined });
    }
    case "event": {
      const s = endsRetry(action.event) ? dropRetry(state) : state;
      return flush(reduceEvent(s, action.event, action.at, action.savedTo, action.note));
    }
  }
}

/** Applies a batch of actions in order. */
export function reduceAll(state: StreamState, actions: readonly StreamAction[]): StreamState {
  return actions.reduce(reduceStream, state);
}

type NewItem = TranscriptItem extends infer T ? (T extends TranscriptItem ? Omit<T, "id" | "done"> & { done?: boolean } : never) : never;

function append(state: StreamState, item: NewItem, where: "finished" | "live"): StreamState {
  const full = { done: true, ...item, id: `i${state.nextId}` } as TranscriptItem;
  const next = { ...state, nextId: state.nextId + 1 };
  return where === "finished" ? { ...next, finished: [...state.finished, full] } : { ...next, live: [...state.live, full] };
}

/**
 * Moves the longest run of done items at the front of `live` to `finished`. A running background
 * child's row does not hold the conversation back: it stays live while what follows it moves on.
 */
function flush(state: StreamState): StreamState {
  const moved: TranscriptItem[] = [];
  const kept: TranscriptItem[] = [];
  let open = true;
  for (const item of state.live) {
    if (open && item.done) moved.push(item);
    else if (open && item.kind === "tool" && item.background) kept.push(item);
    else {
      open = false;
      kept.push(item);
    }
  }
  if (moved.length === 0) return state;
  return { ...state, finished: [...state.finished, ...moved], live: kept };
}

/**
 * The main agent's one retry line, made or updated in place (a storm of retries stays one live
 * line); it keeps the items after it live until `dropRetry` takes it out.
 */
function showRetry(state: StreamState, event: Extract<AgentEvent, { type: "retry" }>, at: number): StreamState {
  const retry = retryView(event, at);
  const text = `${retry.label} · retrying · attempt ${retry.attempt + 1}/${retry.maxAttempts}`;
  const i = state.live.findIndex((item) => item.kind === "info" && item.retry !== undefined);
  if (i === -1) return append(closeOpen(state), { kind: "info", text, tone: "warn", retry, done: false }, "live");
  const live = [...state.live];
  live[i] = { ...(live[i] as Extract<TranscriptItem, { kind: "info" }>), text, retry };
  return { ...state, live };
}

/** `state` without the main agent's retry line (its call went on, gave up, or the run ended). */
function dropRetry(state: StreamState): StreamState {
  const live = state.live.filter((item) => item.kind !== "info" || item.retry === undefined);
  return live.length === state.live.length ? state : { ...state, live };
}

/** Marks the open assistant text / thinking item done. */
function closeOpen(state: StreamState, keep?: "assistant" | "thinking"): StreamState {
  const last = state.live[state.live.length - 1];
  if (!last || last.done || (last.kind !== "assistant" && last.kind !== "thinking") || last.kind === keep) return state;
  return { ...state, live: [...state.live.slice(0, -1), { ...last, done: true }] };
}

/**
 * `state` with the answer items of `message`'s turn holding the message's own text strings: an
 * item's text was built from the stream's deltas, a second copy of what the agent's history keeps
 * (the same text, so nothing drawn changes). Matched from the end: the turn's last answer items
 * against its last text blocks, stopping at the first that differs.
 */
function shareTexts(state: StreamState, message: AssistantMessage): StreamState {
  const texts = message.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
  let live: TranscriptItem[] | undefined;
  for (let i = state.live.length - 1, t = texts.length - 1; i >= 0 && t >= 0; i--) {
    const item = state.live[i]!;
    if (item.kind === "user") break;
    if (item.kind !== "assistant") continue;
    if (item.text !== texts[t]) break;
    (live ??= [...state.live])[i] = { ...item, text: texts[t--]! };
  }
  return live ? { ...state, live } : state;
}

function mapTool(state: StreamState, id: string, fn: (t: ToolItem) => ToolItem): StreamState {
  let hit = false;
  const live = state.live.map((item) => {
    if (item.kind !== "tool" || item.id !== id) return item;
    hit = true;
    return fn(item);
  });
  return hit ? { ...state, live } : state;
}

function hasTool(state: StreamState, id: string): boolean {
  return state.live.some((i) => i.kind === "tool" && i.id === id);
}

function addTool(state: StreamState, id: string, name: string, args: Record<string, unknown>): StreamState {
  if (hasTool(state, id)) return state;
  const item: ToolItem = { kind: "tool", id, done: false, name, args, status: "pending" };
  const closed = closeOpen(state);
  return { ...closed, live: [...closed.live, item] };
}

/** Ends everything still open: texts close, unfinished tools become interrupted, children aborted. */
function settle(state: StreamState, at: number): StreamState {
  const live = closeOpen(state).live.map((item): TranscriptItem => {
    if (item.kind === "tool" && item.background && !item.done) return item; // works on beside the conversation
    if (item.kind !== "tool" || item.done) return item.done ? item : { ...item, done: true };
    const child = item.child ? abandonChild(item.child, at) : undefined;
    return { ...item, done: true, status: item.status === "ok" ? "ok" : "error", ...(item.resultHead ? {} : { result: item.result ?? "interrupted" }), child };
  });
  return { ...state, live };
}

/** The finished tool item of `event`: a long result saved in `savedTo` keeps only its head (not a `task` report); a child's report is kept once, in the result that starts with it. */
function finishTool(t: ToolItem, event: Extract<AgentEvent, { type: "tool_end" }>, at: number, savedTo: string | undefined): ToolItem {
  const content = event.result.content;
  const head = savedTo !== undefined && event.call.name !== "task" && !isShortResult(content);
  const { result: _result, ...rest } = t;
  return {
    ...rest,
    done: true,
    status: event.result.isError ? "error" : "ok",
    ...(head ? { ...resultHead(content), saved: { file: savedTo, callId: event.call.id } } : { result: content }),
    durationMs: event.durationMs,
    update: undefined,
    child: t.child ? foldReport(abandonChild(t.child, at), head ? undefined : content) : undefined,
  };
}

/** `state` no longer holding the results of `ids` (their message is in the session file now). */
function release(state: StreamState, ids: readonly string[]): StreamState {
  const held = state.heldResults;
  if (!held || !ids.some((id) => id in held)) return state;
  const rest = { ...held };
  for (const id of ids) delete rest[id];
  return { ...state, heldResults: rest };
}

/** `note`: the line an `agent_end` leaves instead of its usual one (the stop that said what happened). */
function reduceEvent(state: StreamState, event: AgentEvent, at: number, savedTo?: string, stopNote?: { text: string; tone: ItemTone }): StreamState {
  switch (event.type) {
    case "text_delta": {
      const s = closeOpen(state, "assistant");
      const last = s.live[s.live.length - 1];
      if (last && last.kind === "assistant" && !last.done) return { ...s, live: [...s.live.slice(0, -1), { ...last, text: last.text + event.text }] };
      return append(s, { kind: "assistant", text: event.text, done: false }, "live");
    }
    case "thinking_delta": {
      const s = closeOpen(state, "thinking");
      const last = s.live[s.live.length - 1];
      if (last && last.kind === "thinking" && !last.done) return { ...s, live: [...s.live.slice(0, -1), { ...last, chars: last.chars + event.text.length, text: (last.text ?? "") + event.text }] };
      return append(s, { kind: "thinking", chars: event.text.length, text: event.text, done: false }, "live");
    }
    case "toolcall_start":
      return addTool(state, event.id, event.name, {});
    case "message":
      if (event.message.role === "toolResult") return savedTo === undefined ? state : release(state, event.message.results.map((r) => r.toolCallId));
      return event.message.role === "assistant" ? shareTexts(closeOpen(state), event.message) : state;
    case "turn_end":
      return closeOpen(state);
    case "tool_start":
      return mapTool(addTool(state, event.call.id, event.call.name, event.call.arguments), event.call.id, (t) => ({ ...t, args: event.call.arguments, status: "running" }));
    case "tool_update": {
      const line = lastLines(event.text, 1)[0];
      return line === undefined ? state : mapTool(state, event.toolCallId, (t) => ({ ...t, update: line }));
    }
    case "tool_end": {
      const s = mapTool(addTool(state, event.call.id, event.call.name, event.call.arguments), event.call.id, (t) => finishTool(t, event, at, savedTo));
      const item = s.live.find((i): i is ToolItem => i.kind === "tool" && i.id === event.call.id);
      return item?.saved ? { ...s, heldResults: { ...s.heldResults, [event.call.id]: event.result.content } } : s;
    }
    case "usage": {
      // An aborted call's output-only estimate (no input) says nothing about the context in use.
      const context = event.usage.input + event.usage.cacheRead + event.usage.cacheWrite;
      // Its tokens and cost reach the totals through the ledger (the `spend` action).
      return context > 0 ? { ...state, contextTokens: context } : state;
    }
    case "retry":
      return showRetry(state, event, at);
    case "warning":
      return append(state, { kind: "info", ...eventNote(event)! }, "live");
    case "attachments": {
      const lines = [...event.files.map(attachmentLine), ...event.problems.map((p) => `⚠ ${p}`)];
      return append(state, { kind: "info", text: lines.join("\n"), tone: event.problems.length > 0 ? "warn" : "dim" }, "live");
    }
    case "error":
      return { ...append(closeOpen(state), { kind: "info", ...eventNote(event)! }, "live"), runError: true };
    case "compaction_start":
      return { ...state, compacting: true };
    case "compaction_end": {
      // A manual compaction (/compact) is reported by the command itself.
      const line = event.reason === "manual" ? undefined : compactionLine(event);
      const s = { ...state, compacting: false };
      return line ? append(closeOpen(s), { kind: "info", ...line }, "live") : s;
    }
    case "agent_end": {
      const s = settle(state, at);
      const note = stopNote ?? eventNote(event);
      return note ? append(s, { kind: "info", ...note }, "live") : s;
    }
    case "subagent_start": {
      // A background child has its own row; any other start goes to its call's item.
      const toolId = hasTool(state, `bg-${event.childId}`) ? `bg-${event.childId}` : event.parentToolCallId;
      const s = hasTool(state, toolId) ? state : addTool(state, toolId, "task", { prompt: event.prompt });
      const child = startChild({ childId: event.childId, run: event.parentToolCallId, profile: event.profile, color: event.color, description: event.description, prompt: event.prompt, model: event.model, resumed: event.resumed, worktree: event.worktree, at });
      const withChild = mapTool(s, toolId, (t) => ({ ...t, status: t.done ? t.status : "running", child }));
      return { ...withChild, childIndex: { ...withChild.childIndex, [event.childId]: toolId } };
    }
    case "background_start":
      return toBackground(state, event);
    case "background_delivery": {
      const note = eventNote(event);
      const counted = event.startsTurn ? { ...state, deliveryTurns: (state.deliveryTurns ?? 0) + 1 } : state;
      return note ? append(closeOpen(counted), { kind: "info", ...note }, "live") : counted;
    }
    case "subagent_event": {
      const toolId = state.childIndex[event.childId] ?? event.parentToolCallId;
      const inner = event.event;
      return mapTool(state, toolId, (t) => (t.child ? { ...t, child: reduceChild(t.child, inner, at) } : t));
    }
    case "subagent_end": {
      const toolId = state.childIndex[event.childId] ?? event.parentToolCallId;
      // A background child's row is done with its child: its summary joins the transcript.
      const ended = mapTool(state, toolId, (t) => (t.child ? { ...t, child: endChild(t.child, event.summary), ...(t.background ? { done: true, status: event.summary.status === "ok" ? "ok" : "error" } : {}) } : t));
      return { ...ended, childIndex: withoutChild(ended.childIndex, event.childId) };
    }
    default:
      return state;
  }
}

/**
 * A child works in the background now: it gets a row of its own at the end of the live items
 * (`bg-<childId>`), taking over the pane state its `task` call had (moved by the person) or
 * waiting for its start (started so); the call's own item then just shows what the call returned.
 */
function toBackground(state: StreamState, event: Extract<AgentEvent, { type: "background_start" }>): StreamState {
  const id = `bg-${event.childId}`;
  if (hasTool(state, id)) return state;
  const from = state.childIndex[event.childId];
  const call = from === undefined ? undefined : state.live.find((i): i is ToolItem => i.kind === "tool" && i.id === from);
  const s = call?.child ? mapTool(state, call.id, (t) => ({ ...t, child: undefined })) : state;
  const item: ToolItem = { kind: "tool", id, done: false, name: "task", args: { prompt: event.prompt }, status: "running", background: true, ...(call?.child ? { child: call.child } : {}) };
  return { ...s, live: [...s.live, item], childIndex: { ...s.childIndex, [event.childId]: id } };
}

/**
 * `index` without `childId`: an ended child's entry goes (nothing routes to it once it ended; a
 * resumed child starts anew), so the index holds the running children only — kept for every child
 * of a long session it grew by one key a child, each start copying all of them (a soak's heap
 * snapshots: a new object shape a child, ~0.4 MB over 6 minutes).
 */
function withoutChild(index: Readonly<Record<string, string>>, childId: string): Record<string, string> {
  if (!(childId in index)) return index;
  const { [childId]: _ended, ...rest } = index;
  return rest;
}

/** Children still running in the live items. */
export function runningChildren(state: StreamState): number {
  return state.live.filter((i) => i.kind === "tool" && i.child?.status === "running").length;
}

/** Ids of the running children, in the order of their task calls. */
export function runningChildIds(state: StreamState): string[] {
  return state.live.flatMap((i) => (i.kind === "tool" && i.child?.status === "running" ? [i.child.childId] : []));
}

/** Task calls waiting for a free child slot (started, no child yet), and children running now. */
export function childCounts(state: StreamState): { running: number; queued: number } {
  const queued = state.live.filter((i) => i.kind === "tool" && i.name === "task" && !i.done && i.status === "running" && !i.child).length;
  return { running: runningChildren(state), queued };
}
