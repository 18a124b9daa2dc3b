/**
 * Terminal notifications (settings `notify`): when a child ends or starts waiting for an approval,
 * and when a long main run ends, the terminal is rung — `bell` writes BEL; `desktop` writes an
 * OSC 9 (`ESC ] 9 ; text BEL`: iTerm2, WezTerm, Ghostty) or OSC 777 (`ESC ] 777 ; notify ; Ink ;
 * text BEL`: VTE terminals, foot) desktop notification where the terminal is known to show it, else
 * BEL. Inside tmux or screen it is always BEL (tmux passes OSC on only with `allow-passthrough`,
 * which is off by default; tmux forwards a bell to the outer terminal and marks the window).
 * Nothing is ever written when the mode is `off` or the output is not a terminal; several events
 * close together (a burst) ring once.
 */

/** The `notify` setting. */
export type NotifyMode = "off" | "bell" | "desktop";

/** Used when settings say nothing. */
export const DEFAULT_NOTIFY: NotifyMode = "bell";

export const BEL = "\u0007";

/** Events closer together than this (ms) are one burst: one ring. */
export const NOTIFY_BURST_MS = 2000;

/** Which desktop-notification sequence the terminal in `env` shows, if any is known. */
export function desktopProtocol(env: NodeJS.ProcessEnv): "osc9" | "osc777" | undefined {
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(env.TERM ?? "")) return undefined;
  const program = env.TERM_PROGRAM ?? "";
  if (program === "iTerm.app" || program === "WezTerm" || program === "ghostty") return "osc9";
  if (env.VTE_VERSION || /^foot/.test(env.TERM ?? "")) return "osc777";
  return undefined;
}

/** `text` made safe inside an OSC string: one line, no control characters (nor `;` for OSC 777's fields), at most 200 characters. */
function oscText(text: string, semicolons: boolean): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  return (semicolons ? clean : clean.replace(/;/g, ",")).slice(0, 200);
}

/** The bytes one notification of `text` writes in `mode` ("" for off). */
export function notificationBytes(mode: NotifyMode, text: string, env: NodeJS.ProcessEnv): string {
  if (mode === "off") return "";
  const protocol = mode === "desktop" ? desktopProtocol(env) : undefined;
  if (protocol === "osc9") return `\u001b]9;${oscText(text, true)}${BEL}`;
  if (protocol === "osc777") return `\u001b]777;notify;Ink;${oscText(text, false)}${BEL}`;
  return BEL;
}

export interface NotifierOptions {
  mode: NotifyMode;
  /** Writes to the terminal (the TUI passes Ink's `useStdout().write`, so its frame stays intact). */
  write: (data: string) => void;
  /** The output is a terminal; when false nothing is ever written. */
  isTTY: boolean;
  env?: NodeJS.ProcessEnv;
  /** Clock in ms (tests inject one). */
  clock?: () => number;
  burstMs?: number;
}

/** Rings the terminal at most once per burst of events. */
export class TerminalNotifier {
  private lastEventAt = Number.NEGATIVE_INFINITY;
  constructor(private readonly options: NotifierOptions) {}

  /** Notifies `text` unless an event came less than burstMs ago; returns whether anything was written. */
  notify(text: string): boolean {
    const { mode, isTTY, write, env = process.env, clock = Date.now, burstMs = NOTIFY_BURST_MS } = this.options;
    if (mode === "off" || !isTTY) return false;
    const now = clock();
    const inBurst = now - this.lastEventAt < burstMs;
    this.lastEventAt = now;
    if (inBurst) return false;
    write(notificationBytes(mode, text, env));
    return true;
  }
}
