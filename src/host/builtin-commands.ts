/**
 * `/rewind` and `/merge` for the front ends without a screen (`--acp`, `ink -p`): the typed text is
 * read as the TUI reads it (parseRewindArgs, parseMergeArgs), done by ops (`list_turns`, `rewind`,
 * `list_branches`, `merge`, `merge_hand`) and answered as text, in the TUI's words. A rewind that
 * running children refuse is put to the person when the front end can ask (`confirm`, ACP), as the
 * TUI asks; otherwise the answer says so (`stop` stops them first).
 */
import { parseRewindArgs, rewindListing, type RewindResult } from "../checkpoints/rewind.js";
import { mergeNotice, queueListing, type MergeOutcome } from "../merge/merge-queue.js";
import { keptBranches, parseMergeArgs, sessionRecords } from "../merge/session-merge.js";
import { errorMessage } from "../protocol/error-message.js";
import { shortId } from "../session/ids.js";
import { childTitle } from "../subagents/runtime/child-label.js";
import type { SessionClient } from "./session-client.js";
import type { SubmitOptions } from "./session-submit.js";

/** The built-ins a screenless front end answers itself, with what an editor shows for them. */
export const SCREENLESS_COMMANDS: ReadonlyArray<{ name: "rewind" | "merge"; description: string; hint: string }> = [
  { name: "rewind", description: "List the turns, or take files and/or the conversation back to just before one", hint: "[turn] [files|conversation|both] [force] [stop]" },
  { name: "merge", description: "List this session's kept worktree branches, or merge them in order (hand: give a conflict to its child)", hint: "[n… | all] [squash] [dirty] | hand" },
];

/** `text` as a built-in `/rewind` or `/merge` (any case), with its arguments; undefined for anything else. */
export function screenlessCommand(text: string): { name: "rewind" | "merge"; args: string } | undefined {
  const m = /^\/(rewind|merge)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? { name: m[1]!.toLowerCase() as "rewind" | "merge", args: (m[2] ?? "").trim() } : undefined;
}

/** What the command gave: the text to show, and whether it did what was asked (false: the reason is in `text`). */
export interface CommandAnswer {
  ok: boolean;
  text: string;
}

/**
 * How a command runs: the signal and events of a `/merge hand` (a resumed child's run), `confirm`
 * when the person can be asked, and `progress` for a line shown before slow work (git merging).
 */
export interface ScreenlessOptions extends SubmitOptions {
  /** Puts a yes/no question to the person; resolves true for yes. */
  confirm?: (question: string) => Promise<boolean>;
  /** Shows `line` (no newline) as soon as slow work starts, before the answer. */
  progress?: (line: string) => void;
}

/**
 * Runs built-in `command` on `session` through its ops; never throws (a failure is an answer with
 * ok false).
 */
export async function runScreenlessCommand(session: SessionClient, command: { name: "rewind" | "merge"; args: string }, opts: ScreenlessOptions = {}): Promise<CommandAnswer> {
  try {
    return command.name === "rewind" ? await rewind(session, command.args, opts.confirm) : await merge(session, command.args, opts);
  } catch (err) {
    return { ok: false, text: `/${command.name}: ${errorMessage(err)}` };
  }
}

/**
 * What to type next after a refused rewind: the person's own words (files, conversation) with the one
 * word added — "/rewind 2 force" after "/rewind 2 files" would cut the conversation too.
 */
export function rewindRetryHint(args: string, r: RewindResult): string {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const has = (word: string) => words.some((w) => w.toLowerCase() === word);
  const plus = (word: string) => `/rewind ${[...words, ...(has(word) ? [] : [word])].join(" ")}`;
  if (r.changedSince.length > 0 && !has("force")) return ` — ${plus("force")} overwrites`;
  if (r.children.length > 0 && !has("stop")) return ` — ${plus("stop")} stops them first`;
  return "";
}

/** What rewind `r` (asked with `args`) gave, as text: the TUI, ACP and -p say it alike. */
export function rewindAnswer(args: string, r: RewindResult): CommandAnswer {
  if (r.ok) return { ok: true, text: r.message };
  return { ok: false, text: `/rewind: ${r.message}${rewindRetryHint(args, r)}` };
}

/** What merge `o` (asked with `args`) gave, as text: the TUI, ACP and -p say it alike. */
export function mergeAnswer(args: string, o: MergeOutcome): CommandAnswer {
  const dirtyHint = !o.ok && o.error?.includes("uncommitted changes") ? ` (/merge ${args.trim()} dirty merges anyway)` : "";
  return { ok: o.ok, text: `/merge: ${mergeNotice(o)}${dirtyHint}` };
}

async function rewind(session: SessionClient, args: string, confirm?: ScreenlessOptions["confirm"]): Promise<CommandAnswer> {
  const asked = parseRewindArgs(args);
  if ("error" in asked) return { ok: false, text: asked.error };
  if ("list" in asked) return { ok: true, text: rewindListing(await session.submit({ type: "list_turns" }), session.submit({ type: "get_state" }).checkpointBound).join("\n") };
  let r = await session.submit({ type: "rewind", turn: asked.turn, ...asked.opts });
  if (!r.ok && r.children.length > 0 && !asked.opts.stopChildren && confirm) {
    const one = r.children.length === 1;
    const question = `Stop the running ${one ? "child" : `${r.children.length} children`} (${childNames(session, r.children)}) and rewind to before turn ${asked.turn}?`;
    if (!(await confirm(question))) return { ok: false, text: `/rewind: nothing was rewound; the ${one ? "child keeps" : "children keep"} running` };
    r = await session.submit({ type: "rewind", turn: asked.turn, ...asked.opts, stopChildren: true });
  }
  return rewindAnswer(args, r);
}

/** `general · watch the tests [ab12cd], …`: the children `ids` as their panes name them. */
function childNames(session: SessionClient, ids: readonly string[]): string {
  const rows = session.submit({ type: "list_children" });
  return ids.map((id) => `${childTitle(rows.find((c) => c.childId === id) ?? {})} [${shortId(id)}]`).join(", ");
}

async function merge(session: SessionClient, args: string, opts: ScreenlessOptions): Promise<CommandAnswer> {
  const asked = parseMergeArgs(args);
  if ("list" in asked) return { ok: true, text: queueListing(await session.submit({ type: "list_branches" })).join("\n") };
  if ("hand" in asked) {
    const { handed, outcome } = await session.submit({ type: "merge_hand" }, opts);
    if (!handed && !outcome.ok) return { ok: false, text: `/merge hand: ${outcome.error ?? mergeNotice(outcome)}` };
    return { ok: outcome.ok, text: `/merge hand: ${mergeNotice(outcome)}` };
  }
  // git takes seconds per branch: say it started (all: the kept branches of the session file's task records, as the merge reads them, counted without git).
  const count = asked.pick === "all" ? keptBranches(sessionRecords(session.submit({ type: "get_state" }).sessionPath ?? undefined, session.submit({ type: "list_task_records" }))).length : asked.pick.length;
  if (count > 0) opts.progress?.(`merging ${count} branch${count === 1 ? "" : "es"}…`);
  return mergeAnswer(args, await session.submit({ type: "merge", branches: asked.pick, squash: asked.squash, allowDirty: asked.allowDirty }));
}
