/**
 * useTerminalNotify: rings the terminal (settings `notify`, see terminal-notify.ts) when a child
 * ends or waits for an approval and when a long main run ends. Written beside the frame
 * (useTerminalWrite: the frame is drawn again after it), so frames are never corrupted;
 * nothing is written when stdout is not a terminal.
 */
import { useStdout } from "ink";
import { useEffect, useMemo, useRef } from "react";
import { useTerminalWrite } from "../terminal/terminal-write.js";
import { DEFAULT_NOTIFY, TerminalNotifier, type NotifyMode } from "../terminal/terminal-notify.js";
import { NotifyTracker } from "../state/notify-triggers.js";
import type { StreamState } from "../state/transcript-types.js";

export interface TerminalNotifyOptions {
  /** Overrides stdout's own isTTY (tests). */
  isTTY?: boolean;
  clock?: () => number;
  env?: NodeJS.ProcessEnv;
}

/** Watches `state` and the approval `waiting` set and notifies per `mode` (default DEFAULT_NOTIFY). */
export function useTerminalNotify(mode: NotifyMode | undefined, state: StreamState, waiting: ReadonlySet<string>, options: TerminalNotifyOptions = {}): void {
  const { stdout } = useStdout();
  const write = useTerminalWrite();
  const clock = options.clock ?? Date.now;
  const isTTY = options.isTTY ?? stdout.isTTY === true;
  const notifier = useMemo(() => new TerminalNotifier({ mode: mode ?? DEFAULT_NOTIFY, write, isTTY, clock, env: options.env }), [mode, write, isTTY, clock, options.env]);
  const tracker = useRef(new NotifyTracker());
  useEffect(() => {
    const texts = tracker.current.update(state, waiting, clock());
    if (texts.length > 0) notifier.notify(`Ink: ${texts.join("; ")}`);
  }, [state, waiting, notifier, clock]);
}
