/**
 * useChildStops: stops that never destroy work. Esc stops the main agent's turn only: its running
 * children move to the background first and keep working (the transcript says so and which key
 * stops them). Ctrl-C on an empty prompt with children running asks `Stop N running children? y/n`
 * (see StopChildrenConfirm); y stops the run and every child (each stays resumable), n keeps them.
 * Ctrl-B moves the focused running child, or every foreground child, to the background. The open
 * question is the screen store's (`stopAsk`); what y then does is kept here.
 */
import { useCallback, useRef } from "react";
import type { TuiSession } from "../../src/host/tui-session.js";
import type { AgentStream } from "./use-agent-stream.js";
import type { ItemTone } from "../state/transcript-types.js";
import { shortId } from "../state/format.js";
import type { ScreenStore, ScreenState } from "../state/screen-state.js";

export interface ChildStops {
  /** The children the open question would stop (undefined: no question open). */
  confirm?: number;
  /** What y does after stopping them (`exit`, `rewind to before turn 3`); undefined: only stop them. */
  confirmThen?: string;
  /** Exit (`/exit`): with children running, asks first; y stops them (each stays resumable) and exits. */
  exitAsking(leave: () => void): void;
  /**
   * Something that needs the running children stopped first (`then` names it, e.g. `rewind to before
   * turn 3`): with none running it runs at once; else it asks `N children are still running. Stop them
   * and <then>? y/n`, and y runs `act` (which stops them), n does nothing.
   */
  stopChildrenThen(then: string, act: () => void): void;
  /** Esc on the prompt during a run. */
  escape(): void;
  /** Ctrl-C with nothing typed: true when it asked about the running children (the caller does nothing more). */
  askBeforeStopping(): boolean;
  /** The answer to the question. */
  answer(stop: boolean): void;
  /** Ctrl-B: the focused pane's child (`childId`), or every foreground child. */
  background(childId?: string): void;
}

/**
 * The stop keys' actions for `session` and its `stream`; `stopRun` is the screen's stop of the main
 * run (holds queued prompts back, cancels approvals); `asked` is the store's open question.
 */
export function useChildStops(store: ScreenStore, asked: ScreenState["stopAsk"], session: TuiSession, stream: AgentStream, stopRun: (why: string, note?: { text: string; tone: ItemTone }) => void): ChildStops {
  // What y does after stopping the children (set with the question that names it).
  const act = useRef<(() => void) | undefined>(undefined);

  const escape = useCallback(() => {
    const moved = stream.moveToBackground();
    // One line says what happened: the stop's own line (`⏹ interrupted`) gives way to it.
    const which = moved.map((id) => `[${shortId(id)}]`).join(", ");
    const one = moved.length === 1;
    const note = moved.length > 0 ? { text: `⏹ stopped the main agent's turn; ${one ? "its child" : `its ${moved.length} children`} ${which} ${one ? "keeps" : "keep"} working in the background — Ctrl-C on an empty prompt stops ${one ? "it" : "them"} (Ctrl-X on a focused pane stops one)`, tone: "warn" as const } : undefined;
    stopRun("the user stopped the main agent's turn (Esc)", note);
  }, [stream, stopRun]);

  const askBeforeStopping = useCallback(() => {
    const n = session.facts().runningChildren.length;
    if (n === 0) return false;
    store.dispatch({ type: "stop_ask", count: n });
    return true;
  }, [session, store]);

  const stopChildrenThen = useCallback(
    (then: string, then_: () => void) => {
      const n = session.facts().runningChildren.length;
      if (n === 0) return then_();
      act.current = then_;
      store.dispatch({ type: "stop_ask", count: n, then });
    },
    [session, store],
  );
  const exitAsking = useCallback((leave: () => void) => stopChildrenThen("exit", leave), [stopChildrenThen]);

  const answer = useCallback(
    (stop: boolean) => {
      const then = store.getState().stopAsk?.then;
      const after = then === undefined ? undefined : act.current;
      act.current = undefined;
      store.dispatch({ type: "stop_answered" });
      if (stop && after) return after(); // exiting (or the rewind) stops every child; each stays resumable
      if (!stop && after && then !== "exit") return stream.notice(`nothing done (${then}); the children keep working`, "dim");
      if (!stop) return stream.notice("the children keep working; their reports will come to the main agent", "dim");
      const ids = session.facts().runningChildren;
      for (const id of ids) stream.stopChild(id);
      stopRun("the user stopped every child (Ctrl-C)");
      stream.notice(`⏹ stopped ${ids.length === 1 ? "1 child" : `${ids.length} children`} (each stays resumable from the sidebar)`, "warn");
    },
    [session, stream, stopRun, store],
  );

  const background = useCallback(
    (childId?: string) => {
      const moved = stream.moveToBackground(childId);
      if (moved.length === 0) return stream.notice(childId ? "that child already works in the background" : "no child runs in the foreground", "dim");
      stream.notice(`⇢ moved ${moved.map((id) => `[${id}]`).join(", ")} to the background; the main agent goes on and gets ${moved.length === 1 ? "its report" : "their reports"} when they end`, "dim");
    },
    [stream],
  );

  return { confirm: asked?.count, confirmThen: asked?.then, exitAsking, stopChildrenThen, escape, askBeforeStopping, answer, background };
}
