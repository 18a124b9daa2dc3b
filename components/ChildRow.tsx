/**
 * ChildRow: a running child in one row, for when full panes do not fit —
 * `⠋ scout · find login handler [ab12cd] 12.4s · 1.2k tok · ⏺ grep "login"` — glyph, profile,
 * description (else the prompt's first words), short id, elapsed time,
 * tokens, and its newest activity (the last tool call, else the last words of its text). A child
 * silent for a while says so instead (`no output for 14s`), and one whose model call waits to be
 * tried again says that (`429 rate limited · retrying in 4s · attempt 2/9`). The row has the keyboard's highlight
 * when focused.
 */
import { Text } from "ink";
import { useContext } from "react";
import { WaitingForApproval } from "./hooks/use-approval-request.js";
import { CHILD_COLOR, childHead, liveTokens } from "./child-status.js";
import { formatArgs, formatDuration, formatTokens, spinnerFrame, truncate } from "./format.js";
import type { ChildView } from "./hooks/transcript-types.js";
import { retryStatus } from "./retry-status.js";

/** Seconds without any event after which a running child is shown as silent. */
export const STALL_MS = 10_000;

export interface ChildRowProps {
  child: ChildView;
  /** UI clock (ms). */
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

/** The one-row view. */
export function ChildRow({ child, now, width, focused = false }: ChildRowProps) {
  const color = CHILD_COLOR[child.status];
  const elapsed = formatDuration(now - child.startedAt);
  const tokens = `${child.model ? `${child.model} · ` : ""}${formatTokens(liveTokens(child))} tok`;
  // Its name takes at most ~45% of the row, so the activity keeps room at 80 columns.
  const head = childHead(child, Math.floor(width * 0.45));
  const silentMs = now - (child.lastEventAt ?? child.startedAt);
  const asking = useContext(WaitingForApproval).has(child.childId);
  const retrying = child.status === "running" && !child.stopping && !asking && child.retry !== undefined;
  const silent = child.status === "running" && !child.stopping && !asking && !retrying && silentMs >= STALL_MS;
  const room = Math.max(4, width - head.length - elapsed.length - tokens.length - 10);
  const activity = child.stopping
    ? "stopping…"
    : asking
      ? "waiting for approval"
      : retrying
        ? retryStatus(child.retry!, now)
        : silent
          ? `no output for ${Math.floor(silentMs / 1000)}s`
          : truncate(childActivity(child), room);
  return (
    <Text wrap="truncate-end" inverse={focused}>
      <Text color={asking ? "yellowBright" : color}>{asking ? "?" : child.status === "running" ? spinnerFrame(now) : "■"} </Text>
      <Text bold color={asking ? "yellowBright" : child.color}>{head}</Text>
      <Text dimColor>{` ${elapsed} · ${tokens} · `}</Text>
      <Text color={silent || asking || retrying || child.stopping ? "yellow" : undefined} dimColor={!silent && !asking && !retrying && !child.stopping}>
        {activity}
      </Text>
    </Text>
  );
}
