/**
 * What the main screen does for each slash command's outcome (state/slash-commands.ts says what a
 * command asks for; this does it against the session, the stream and the screen).
 */
import type { TuiSession } from "../src/host/tui-session.js";
import { errorMessage } from "../src/protocol/error-message.js";
import { copyOut, lastHistoryAnswer } from "./state/copy-answer.js";
import { costLines } from "./state/cost-lines.js";
import type { SlashOutcome } from "./state/slash-commands.js";
import type { AgentStream } from "./hooks/use-agent-stream.js";
import { PERMISSION_MODES, type PermissionMode } from "../src/permissions/decide.js";
import { parseRewindArgs, rewindListing } from "../src/checkpoints/rewind.js";
import { queueListing } from "../src/merge/merge-queue.js";
import { parseMergeArgs } from "../src/merge/session-merge.js";
import { mergeAnswer, rewindAnswer } from "../src/host/builtin-commands.js";

/** Clears the screen and the scrollback, cursor home: only on the person's explicit /clear in inline mode. */
export const CLEAR_SCREEN = "\u001b[2J\u001b[3J\u001b[H";

/** What an outcome may act on. */
export interface SlashActionContext {
  session: TuiSession;
  stream: AgentStream;
  inline: boolean;
  write: (data: string) => void;
  /** Switches to a new conversation; an error message when it cannot. Absent: /clear clears the screen only. */
  onNewConversation?: () => string | undefined;
  openPicker: () => void;
  leave: () => void;
  /** Forgets the visible transcript (when /clear cannot start a new conversation). */
  clearView: () => void;
  /** Asks `N children are still running. Stop them and <then>? y/n` (at once when none run); y runs `act`. Absent: no question, the action refuses instead. */
  stopChildrenThen?: (then: string, act: () => void) => void;
}

/** The modes Alt-M and a bare /mode step through (yolo only by name). */
const MODE_CYCLE: readonly PermissionMode[] = ["default", "accept-edits", "plan"];

/** Switches the session's permission mode to `name`, or to the next of MODE_CYCLE; says so in the transcript. */
export function switchPermissionMode(session: TuiSession, stream: AgentStream, name?: string): void {
  const next = name ?? MODE_CYCLE[(MODE_CYCLE.indexOf(session.facts().permissionMode) + 1) % MODE_CYCLE.length]!;
  if (!(PERMISSION_MODES as readonly string[]).includes(next)) return stream.notice(`/mode: unknown mode "${next}" — use one of ${PERMISSION_MODES.join(", ")}`, "error");
  session.submit({ type: "set_mode", mode: next as PermissionMode });
  const mode = session.facts().permissionMode;
  const what: Record<PermissionMode, string> = {
    default: "every bash, edit and write asks (rules first)",
    "accept-edits": "edits and writes inside the working directory are allowed; bash still asks",
    plan: "only read-only tools run; everything else is refused",
    yolo: "every tool runs without asking",
  };
  stream.notice(`permission mode: ${mode} — ${what[mode]} (children too)`, mode === "yolo" ? "warn" : "info");
}

/** Carries out `outcome`. */
export function applySlashOutcome(outcome: SlashOutcome, ctx: SlashActionContext): void {
  const { session, stream } = ctx;
  switch (outcome.kind) {
    case "lines":
      return stream.notice(outcome.lines.join("\n"), outcome.tone);
    case "compact":
      stream.compact();
      return;
    case "cost":
      return stream.notice(costLines(stream.state).join("\n"), "info");
    case "model":
      if (outcome.name === undefined) {
        void session.submit({ type: "list_models" }).then((lines) => stream.notice(lines.join("\n"), "info"));
        return;
      }
      try {
        const warning = session.submit({ type: "set_model", model: outcome.name });
        stream.notice(`model switched to ${session.facts().model} for the next turns (children without a model of their own too)`, "info");
        if (warning) stream.notice(`/model: ${warning}`, "warn");
      } catch (err) {
        stream.notice(`/model: ${errorMessage(err)}`, "error");
      }
      return;
    case "resume":
      return ctx.openPicker();
    case "copy": {
      const answer = lastHistoryAnswer(session.submit({ type: "get_history" }));
      if (answer === undefined) return stream.notice("There is no answer to copy yet.", "warn");
      return stream.notice(copyOut(answer, "the last answer", session.facts().sessionId, ctx.write), "info");
    }
    case "clear": {
      // An explicit request: inline, the terminal's screen and scrollback are cleared too.
      if (ctx.inline) ctx.write(CLEAR_SCREEN);
      if (!ctx.onNewConversation) return ctx.clearView();
      const problem = ctx.onNewConversation();
      if (problem) stream.notice(problem, "error");
      return;
    }
    case "mode":
      return switchPermissionMode(session, stream, outcome.name);
    case "exit":
      return ctx.leave();
    case "file-command":
      return runFileCommand(outcome, ctx);
    case "rewind":
      void runRewind(outcome.args, ctx);
      return;
    case "merge":
      void runMerge(outcome.args, ctx);
      return;
  }
}

/** `/merge`: lists the kept worktree branches, or merges the chosen ones in order and says what happened. */
async function runMerge(args: string, ctx: SlashActionContext): Promise<void> {
  const { session, stream } = ctx;
  const asked = parseMergeArgs(args);
  try {
    if ("list" in asked) return stream.notice(queueListing(await session.submit({ type: "list_branches" })).join("\n"), "info");
  } catch (err) {
    return stream.notice(`/merge: ${errorMessage(err)}`, "error");
  }
  if ("hand" in asked) {
    const c = session.facts().mergeConflict;
    if (!c) return stream.notice("/merge hand: no merge stopped at a conflict in this session — /merge <n…>|all merges, stopping at the first one", "error");
    if (!c.childId) return stream.notice(`/merge hand: ${c.branch} has no child to hand its conflict to — resolve it in ${c.worktree ?? "its branch"} and /merge again`, "error");
    if (!stream.handMergeConflict(c.title ?? c.branch)) stream.notice("/merge hand: a run is in progress — try again when it ends", "warn");
    return;
  }
  const answer = mergeAnswer(args, await session.submit({ type: "merge", branches: asked.pick, squash: asked.squash, allowDirty: asked.allowDirty }));
  stream.notice(answer.text, answer.ok ? "info" : "warn");
}

/** `/rewind`: lists the turns, or rewinds to before one and says what was done (or why nothing was). */
async function runRewind(args: string, ctx: SlashActionContext): Promise<void> {
  const { session, stream } = ctx;
  const asked = parseRewindArgs(args);
  if ("error" in asked) return stream.notice(asked.error, "error");
  if ("list" in asked) return stream.notice(rewindListing(await session.submit({ type: "list_turns" }), session.facts().checkpointBound).join("\n"), "info");
  if (!asked.opts.stopChildren && ctx.stopChildrenThen && session.facts().runningChildren.length > 0) {
    // The usual question first: y stops the running children, then rewinds.
    return ctx.stopChildrenThen(`rewind to before turn ${asked.turn}`, () => void runRewind(`${args} stop`, ctx));
  }
  const r = await session.submit({ type: "rewind", turn: asked.turn, ...asked.opts });
  const answer = rewindAnswer(args, r);
  // The screen still shows what the rewind took out of the conversation.
  stream.notice(answer.text + (r.ok && r.kept !== undefined ? " (what follows it above is no longer part of the conversation)" : ""), answer.ok ? "info" : "warn");
}

/** Runs a command file: its prompt (arguments substituted, `` !`cmd` `` context run) as a main turn, or as a child when it forks. */
function runFileCommand(outcome: Extract<SlashOutcome, { kind: "file-command" }>, ctx: SlashActionContext): void {
  ctx.stream.runCommandFile(outcome.typed, outcome.command.name);
}
