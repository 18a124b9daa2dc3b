/**
 * ChildRow: a running child in one row, for when full panes do not fit —
 * `⠋ scout · find login handler [ab12cd] 12s · 1.2k tok · ⏺ grep "login"` — glyph, profile,
 * description (else the prompt's first words), short id, elapsed time,
 * tokens, and its newest activity (the last tool call, else the last words of its text). A child
 * silent for a while says so instead (`no output for 14s`), and one whose model call waits to be
 * tried again says that (`429 rate limited · retrying in 4s · attempt 2/9`). The row has the keyboard's highlight
 * when focused.
 *
 * Cost: the spinner, elapsed time, tokens and countdowns follow the child tick (CHILD_TICK_MS,
 * once a second); only the activity follows the child's stream. The row is drawn by a memoised
 * line of plain strings, so a row whose text did not change is not rendered again.
 */
import { Text } from "ink";
import { memo, useContext } from "react";
import { WaitingForApproval } from "./hooks/use-approval-request.js";
import { useSampled } from "./hooks/use-sampled.js";
import { CHILD_COLOR, childAlert, childHead, childSpinner, childTick, liveTokens, runningElapsed, STALL_MS } from "./child-status.js";
import { formatArgs, formatDuration, formatTokens, truncate } from "./format.js";
import type { ChildView } from "./hooks/transcript-types.js";

export { STALL_MS };

export interface ChildRowProps {
  child: ChildView;
  /** UI clock (ms); the row reads it at the child tick. */
  now: number;
  /** Columns available. */
  width: number;
  focused?: boolean;
}

/** The newest thing the child did, as plain text. */
export function childActivity(child: ChildView): string {
  for (let i = child.entries.length - 1; i >= 0; i--) {
    const e = child.entries[i]!;
    if (e.kind === "tool") return `⏺ ${e.name} ${formatArgs(e.args, 60)}`;
    const words = lastWords(e.text);
    if (words !== "") return words.length > 80 ? `…${words.slice(-79)}` : words;
  }
  return child.thinking ? "thinking…" : "starting…";
}

/**
 * The end of `text` with its whitespace runs made one space and trimmed: all of it, or a part of
 * more than 80 characters that ends it (a streaming answer is read again on every tick and grows
 * to many thousands of characters, so only its last 400 are read when they are enough).
 */
export function lastWords(text: string): string {
  if (text.length > 400) {
    const tail = text.slice(-400).replace(/\s+/g, " ").trim();
    if (tail.length > 80) return tail;
  }
  return text.replace(/\s+/g, " ").trim();
}

/** What one row shows, as plain values: equal values draw the same row. */
export interface ChildRowLineProps {
  glyph: string;
  glyphColor: string;
  head: string;
  headColor?: string;
  /** ` 12s · 1.2k tok · ` */
  figures: string;
  activity: string;
  /** The activity is an alert (stopping, asking, retrying, silent): yellow. */
  alert: boolean;
  focused: boolean;
}

/** The row's text; rendered again only when one of its values changes. */
export const ChildRowLine = memo(function ChildRowLine(p: ChildRowLineProps) {
  return (
    <Text wrap="truncate-end" inverse={p.focused}>
      <Text color={p.glyphColor}>{p.glyph} </Text>
      <Text bold color={p.headColor}>{p.head}</Text>
      <Text dimColor>{p.figures}</Text>
      <Text color={p.alert ? "yellow" : undefined} dimColor={!p.alert}>
        {p.activity}
      </Text>
    </Text>
  );
});

/** The one-row view. */
export function ChildRow({ child, now, width, focused = false }: ChildRowProps) {
  const tick = childTick(now);
  const running = child.status === "running";
  const elapsed = running ? runningElapsed(child.startedAt, tick) : formatDuration(child.durationMs ?? tick - child.startedAt);
  const tokens = useSampled(liveTokens(child), `${tick}:${child.status}`);
  const figures = `${child.model ? `${child.model} · ` : ""}${formatTokens(tokens)} tok`;
  // Its name takes at most ~45% of the row, so the activity keeps room at 80 columns.
  const head = childHead(child, Math.floor(width * 0.45));
  const asking = useContext(WaitingForApproval).has(child.childId);
  const alert = childAlert(child, tick, asking);
  const room = Math.max(4, width - head.length - elapsed.length - figures.length - 10);
  return (
    <ChildRowLine
      glyph={asking ? "?" : running ? childSpinner(tick) : "■"}
      glyphColor={asking ? "yellowBright" : CHILD_COLOR[child.status]}
      head={head}
      headColor={asking ? "yellowBright" : child.color}
      figures={` ${elapsed} · ${figures} · `}
      activity={alert ? alert.text : truncate(childActivity(child), room)}
      alert={alert !== undefined}
      focused={focused}
    />
  );
}
