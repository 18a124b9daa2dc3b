/**
 * Rewind (issue #40): takes the files, the conversation, or both, back to just before a main
 * turn. All or nothing: a file the person changed since the agents left it, a running child, or a
 * conversation compacted since the turn stops the rewind before anything changes, with a message
 * naming what and how to go on (force, stop the children, files only).
 */
import { createHash } from "node:crypto";
import type { AgentMessage } from "../protocol/messages.js";
import { shortId } from "../session/ids.js";
import type { ChangeAgent, CheckpointStore, TurnSummary } from "./store.js";

export interface RewindOptions {
  /** Put the files agents changed back (default true). */
  files?: boolean;
  /** Cut the conversation to before the turn (default true). */
  conversation?: boolean;
  /** Overwrite files the person changed since (they are named otherwise). */
  force?: boolean;
  /** Stop running children first (otherwise a running child refuses the rewind). */
  stopChildren?: boolean;
}

export interface RewindResult {
  ok: boolean;
  /** One line for the person: what was done, or why nothing was. */
  message: string;
  restored: string[];
  /** Files the person changed since (not overwritten unless force). */
  changedSince: string[];
  /** Running children that refused the rewind (or were stopped, with stopChildren). */
  children: string[];
  /** Messages the conversation kept (when it was rewound). */
  kept?: number;
}

export interface RewindDeps {
  store: CheckpointStore;
  history: AgentMessage[];
  /** Saves the conversation cut in the session file (a marker line; earlier lines stay). */
  recordCut: (keep: number, turn: number) => void;
  runningChildren: () => string[];
  /** Stops the children and resolves once they ended. */
  stopChildren: (ids: string[]) => Promise<void>;
}

/** A hash of the first message of a history ("" when empty): a compaction since a turn changes it. */
export function historyHead(history: readonly AgentMessage[]): string {
  return history.length === 0 ? "" : createHash("sha256").update(JSON.stringify(history[0])).digest("hex").slice(0, 16);
}

/** The checkpoint store's bound, as the listing and the rewind name it. */
export interface CheckpointBound {
  maxTurns: number;
  maxBytes: number;
}

/** "256 MB", "300 KB". */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Why the oldest turns are gone: the store's policy with its numbers. */
function droppedReason(bound: CheckpointBound, whose: "its" | "their" = "its"): string {
  return `${whose} checkpoints were dropped to keep the store to its bound (the last ${bound.maxTurns} turns, at most ${size(bound.maxBytes)} of snapshots)`;
}

/** Who changed files, as the panes name it: `main`, `rewind`, or a child's `general · fix the login [ab12cd]`. */
function changeAgentName(agent: ChangeAgent): string {
  if (agent.id === "main" || agent.id === "rewind") return agent.id;
  return `${agent.label}${agent.description ? ` · ${agent.description}` : ""} [${shortId(agent.id)}]`;
}

/** "a.ts +2 −1" lines of a turn: `main: a.ts +2 −1, b.ts +0 −3`. */
export function describeTurn(t: TurnSummary): string {
  const what = t.changes.length === 0 ? "no file changes" : t.changes.map((c) => `${changeAgentName(c.agent)}: ${c.files.map((f) => `${f.path} +${f.added} −${f.removed}`).join(", ")}`).join("; ");
  return `turn ${t.turn} "${t.prompt.split("\n")[0]!.slice(0, 60)}" — ${what}`;
}

export async function rewindTo(deps: RewindDeps, turn: number, opts: RewindOptions = {}): Promise<RewindResult> {
  const files = opts.files ?? true;
  const conversation = opts.conversation ?? true;
  const none = { restored: [], changedSince: [], children: [] };
  const summary = deps.store.turns().find((t) => t.turn === turn);
  if (!files && !conversation) return { ok: false, message: "nothing to rewind: choose files, conversation or both", ...none };
  if (!summary) {
    const kept = deps.store.turns();
    const range = kept.length === 0 ? "none is kept yet" : `turns ${kept[0]!.turn}–${kept.at(-1)!.turn} are kept`;
    if (kept.length > 0 && turn < kept[0]!.turn) return { ok: false, message: `turn ${turn} can no longer be rewound: ${droppedReason(deps.store)}; ${range}`, ...none };
    return { ok: false, message: `no checkpoint for turn ${turn}: ${range}`, ...none };
  }
  if (conversation && summary.historyLength > 0 && (deps.history.length < summary.historyLength || historyHead(deps.history) !== summary.head)) {
    return { ok: false, message: `the conversation before turn ${turn} was compacted since, so it cannot be cut there; rewind the files only`, ...none };
  }
  const running = deps.runningChildren();
  if (running.length > 0) {
    if (!opts.stopChildren) return { ok: false, message: `${running.length} child${running.length === 1 ? " is" : "ren are"} still running (${running.join(", ")}); stop ${running.length === 1 ? "it" : "them"} first to rewind`, ...none, children: running };
    await deps.stopChildren(running);
  }
  let restored: string[] = [];
  let changedSince: string[] = [];
  if (files) {
    const r = await deps.store.rewindFiles(turn, { force: opts.force });
    ({ restored, changedSince } = r);
    if (changedSince.length > 0 && !opts.force) {
      return { ok: false, message: `changed since by someone else, not overwritten: ${changedSince.join(", ")} — nothing was rewound; rewind again with force to overwrite ${changedSince.length === 1 ? "it" : "them"}`, restored: [], changedSince, children: running };
    }
  }
  let kept: number | undefined;
  if (conversation) {
    kept = summary.historyLength;
    deps.history.splice(kept);
    deps.recordCut(kept, turn);
    deps.store.noteConversationRewind(turn);
  }
  const parts = [
    files ? (restored.length === 0 ? "no file needed restoring" : `restored ${restored.length} file${restored.length === 1 ? "" : "s"} (${restored.join(", ")})`) : undefined,
    conversation ? `the conversation is back to before turn ${turn}` : undefined,
    running.length > 0 ? `stopped ${running.join(", ")}` : undefined,
  ].filter(Boolean);
  return { ok: true, message: `rewound to before turn ${turn}: ${parts.join("; ")}`, restored, changedSince, children: running, ...(kept !== undefined ? { kept } : {}) };
}

/** How `/rewind <turn> [files|conversation|both] [force] [stop]` is written. */
export const REWIND_USAGE = "/rewind <turn> [files|conversation|both] [force] [stop] — files and conversation by default; force overwrites files changed since; stop stops running children first";

/** What `/rewind …` asks: the listing (no turn), a rewind, or an error naming the word and the usage. */
export function parseRewindArgs(args: string): { list: true } | { turn: number; opts: RewindOptions } | { error: string } {
  const words = args.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { list: true };
  const turn = Number(words[0]);
  if (!Number.isInteger(turn) || turn < 1) return { error: `/rewind: "${words[0]}" is not a turn number — ${REWIND_USAGE}` };
  const opts: RewindOptions = {};
  for (const w of words.slice(1)) {
    if (w === "files") Object.assign(opts, { files: true, conversation: false });
    else if (w === "conversation" || w === "chat") Object.assign(opts, { files: false, conversation: true });
    else if (w === "both") Object.assign(opts, { files: true, conversation: true });
    else if (w === "force") opts.force = true;
    else if (w === "stop") opts.stopChildren = true;
    else return { error: `/rewind: unknown word "${w}" — ${REWIND_USAGE}` };
  }
  return { turn, opts };
}

/** The `/rewind` listing: one line per turn (newest last), the turns dropped to keep the store to its bound, and how to choose. */
export function rewindListing(turns: readonly TurnSummary[], bound?: CheckpointBound): string[] {
  if (turns.length === 0) return ["No checkpoints yet: a turn is counted when you send a prompt, and every edit, write and bash of an agent in this tree is checkpointed."];
  const first = turns[0]!.turn;
  const dropped = first > 1 ? [`  ${first === 2 ? "turn 1" : `turns 1–${first - 1}`} can no longer be rewound: ${bound ? droppedReason(bound, first === 2 ? "its" : "their") : `${first === 2 ? "its" : "their"} checkpoints were dropped to keep the store to its bound`}`] : [];
  return ["Turns (rewinding to one takes everything from it on back):", ...dropped, ...turns.map((t) => `  ${describeTurn(t)}`), REWIND_USAGE];
}
