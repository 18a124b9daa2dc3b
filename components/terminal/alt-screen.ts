/**
 * The alternate screen: full-screen mode draws there (the shell's screen and scrollback are left
 * untouched underneath and come back on exit). Leaving is registered as an exit cleanup, so every
 * way out — /exit, Ctrl-C twice, SIGTERM, SIGHUP (the terminal closed), an uncaught error — puts
 * the terminal back: normal screen, cursor shown, bracketed paste and mouse reports off.
 */
import { onExit } from "../../src/host/exit-hooks.js";
import { inkCommand } from "../../src/host/launch-command.js";
import { MOUSE_OFF, MOUSE_ON } from "./mouse.js";

export const ENTER_ALT_SCREEN = "\u001b[?1049h\u001b[H";
export const LEAVE_ALT_SCREEN = "\u001b[?1049l";
const SHOW_CURSOR = "\u001b[?25h";
const PASTE_OFF = "\u001b[?2004l";

export interface AltScreen {
  /** Leaves the alternate screen (once; later calls do nothing). */
  leave(): void;
}

/** Enters the alternate screen on `stdout` (with mouse-wheel reports when `mouse`) and returns how to leave it (also done on any exit). */
export function enterAltScreen(stdout: NodeJS.WriteStream, opts: { mouse?: boolean } = {}): AltScreen {
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    unregister();
    try {
      stdout.write(`${opts.mouse ? MOUSE_OFF : ""}${PASTE_OFF}${SHOW_CURSOR}${LEAVE_ALT_SCREEN}`);
    } catch {
      // the terminal is gone (SIGHUP): nothing to restore
    }
  };
  const unregister = onExit(leave);
  stdout.write(opts.mouse ? ENTER_ALT_SCREEN + MOUSE_ON : ENTER_ALT_SCREEN);
  return { leave };
}

/** Lines printed on the normal screen after a full-screen run: the last answer, then how to come back (with `command`, the one that started this run). */
export function farewellLines(lastAnswer: string | undefined, sessionId: string | undefined, maxLines = 30, command = inkCommand()): string[] {
  const out: string[] = [];
  if (lastAnswer?.trim()) {
    const lines = lastAnswer.trimEnd().split("\n");
    if (lines.length > maxLines) out.push(`… (${lines.length - maxLines} earlier lines of the last answer)`);
    out.push(...lines.slice(-maxLines), "");
  }
  if (sessionId) out.push(`Resume this session: ${command} --resume ${sessionId}`);
  return out;
}
