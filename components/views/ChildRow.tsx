/**
 * ChildRow: a running child in one row, for when full panes do not fit —
 * `● scout · find login handler [ab12cd] 12s · 1.2k tok · ⏺ grep "login"` — glyph, profile,
 * description (else the prompt's first words), short id, elapsed time,
 * tokens, and its newest activity (the last tool call, else the last words of its text). A child
 * silent for a while says so instead (`no output for 14s`), and one whose model call waits to be
 * tried again says that (`429 rate limited · retrying in 4s · attempt 2/9`). The row has the keyboard's highlight
 * when focused.
 *
 * Cost: the glyph is still (childGlyph: the status bar's spinner says work goes on); the elapsed
 * time, tokens and countdowns follow the child tick (CHILD_TICK_MS, once a second), the
 * activity's words change at most every `wordsEvery` ms (rowWordsEvery: 1–5 s by how many rows stream); a new entry (a tool call, a new
 * stretch of text) or a new status shows at once. Its parts are fitted again only
 * when one of them changed, and the row is drawn by a memoised line of plain strings, so a row
 * whose text did not change is not rendered again.
 */
import { Text } from "ink";
import { memo, useMemo } from "react";
import { useSampled } from "../hooks/use-sampled.js";
import { CHILD_WORDS_MS, childAlert, childGlyph, childTick, liveTokens, runningElapsed, STALL_MS, tickOf } from "../state/child-status.js";
import { formatArgs, formatDuration, formatTokens, shortId } from "../state/format.js";
import { fitRow, GIVE_WAY } from "../layout/fit-row.js";
import { childDescription } from "../../src/subagents/runtime/child-label.js";
import type { ChildView } from "../state/transcript-types.js";

export { STALL_MS };

export interface ChildRowProps {
  child: ChildView;
  /** UI clock (ms); the row reads it at the child tick. */
  now: number;
  /** Columns available. */
  width: number;
  focused?: boolean;
  /** Its question waits for the person's answer (ApprovalBroker.waiting): marked "?" and highlighted, not "silent". */
  waiting?: boolean;
  /** Its words change at most this often (ms): rowWordsEvery of the rows streaming beside it (default CHILD_WORDS_MS). */
  wordsEvery?: number;
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
  /** ` scout` (empty when it gave way). */
  profile: string;
  /** ` · find the login handler` (or the profile alone when nothing describes the child). */
  description: string;
  headColor?: string;
  /** ` [ab12cd]` */
  id: string;
  /** ` 12s · claude-haiku-4-5 · 1.2k tok` — whatever of them fitted. */
  figures: string;
  /** ` · ⏺ grep "login"` */
  activity: string;
  /** The activity is an alert (stopping, asking, retrying, silent): yellow. */
  alert: boolean;
  focused: boolean;
}

/** The row's text; rendered again only when one of its values changes. */
export const ChildRowLine = memo(function ChildRowLine(p: ChildRowLineProps) {
  return (
    <Text wrap="truncate-end" inverse={p.focused}>
      <Text color={p.glyphColor}>{p.glyph}</Text>
      <Text bold color={p.headColor}>{p.profile}{p.description}</Text>
      <Text bold color={p.headColor}>{p.id}</Text>
      <Text dimColor>{p.figures}</Text>
      <Text color={p.alert ? "yellow" : undefined} dimColor={!p.alert}>
        {p.activity}
      </Text>
    </Text>
  );
});

/**
 * The row's parts fitted into `width` columns (see fitRow): the model, then the tokens, then the
 * activity (cut, then dropped), then the elapsed time give way first; an alert and the profile
 * after them; the description and the short id last.
 */
export function childRowParts(
  child: Pick<ChildView, "childId" | "profile" | "description" | "prompt" | "model">,
  figures: { glyph: string; elapsed: string; tokens: number; activity: string; alert: boolean },
  width: number,
): { glyph: string; profile: string; description: string; id: string; figures: string; activity: string } {
  const what = childDescription(child);
  const profile = child.profile ?? "general";
  const [glyph, prof, desc, id, elapsed, model, tokens, activity] = fitRow(
    [
      { text: `${figures.glyph} `, priority: GIVE_WAY.id, keep: true },
      what ? { text: profile, priority: GIVE_WAY.profile, min: 4 } : { text: profile, priority: GIVE_WAY.description, keep: true, min: 4 },
      what ? { text: ` · ${what}`, priority: GIVE_WAY.description, keep: true, min: 8 } : { text: "", priority: GIVE_WAY.description },
      { text: ` [${shortId(child.childId)}]`, priority: GIVE_WAY.id, keep: true },
      { text: ` ${figures.elapsed}`, priority: GIVE_WAY.figures },
      { text: child.model ? ` · ${child.model}` : "", priority: GIVE_WAY.model },
      { text: ` · ${formatTokens(figures.tokens)} tok`, priority: GIVE_WAY.tokens },
      { text: ` · ${figures.activity}`, priority: figures.alert ? GIVE_WAY.alert : GIVE_WAY.preview, min: 12, shrinkFirst: 32 },
    ],
    width,
  ).map((p) => p.text) as [string, string, string, string, string, string, string, string];
  // The description's separator follows the profile: without the profile it starts the name.
  return { glyph, profile: prof, description: prof === "" ? desc.replace(/^ · /, " ") : desc, id, figures: `${elapsed}${model}${tokens}`, activity };
}

/** The one-row view. */
export function ChildRow({ child, now, width, focused = false, waiting = false, wordsEvery = CHILD_WORDS_MS }: ChildRowProps) {
  const tick = childTick(now);
  const running = child.status === "running";
  const elapsed = running ? runningElapsed(child.startedAt, tick) : formatDuration(child.durationMs ?? tick - child.startedAt);
  const tokens = useSampled(liveTokens(child), `${tick}:${child.status}`);
  const alert = childAlert(child, tick, waiting);
  const { glyph, color: glyphColor } = childGlyph(child.status, alert, waiting);
  // The activity's words change at most every `wordsEvery` ms (with 8 children streaming they were
  // most of the bytes written: every row's last words changed in every frame, then on every tick);
  // a new entry (a tool call, a new stretch of text) or a new status shows at once.
  const words = useSampled(childActivity(child), `${tickOf(now, wordsEvery)}:${child.status}:${child.entries.length}:${child.dropped}:${child.thinking}`);
  const activity = alert ? alert.text : words;
  const alerted = alert !== undefined;
  // Fitted (fitRow measures every part) only when something the row shows changed: not on each frame the row is rendered in.
  const { childId, profile, description, prompt, model } = child;
  const parts = useMemo(
    () => childRowParts({ childId, profile, description, prompt, model }, { glyph, elapsed, tokens, activity, alert: alerted }, width),
    [childId, profile, description, prompt, model, glyph, elapsed, tokens, activity, alerted, width],
  );
  return (
    <ChildRowLine
      glyph={parts.glyph}
      glyphColor={glyphColor}
      profile={parts.profile}
      description={parts.description}
      headColor={waiting ? "yellowBright" : child.color}
      id={parts.id}
      figures={parts.figures}
      activity={parts.activity}
      alert={alerted}
      focused={focused}
    />
  );
}
