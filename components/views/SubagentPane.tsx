/**
 * SubagentPane: a running child agent, live, at the place of its task call — profile and
 * description (else its prompt's first words), short id,
 * elapsed time, turns, tokens and status, then the latest of what it did — text lines and tool
 * calls interleaved in the order they happened; its text drawn with the transcript's Markdown
 * styles, row by row.
 *
 * Cost: the head's glyph is still (childGlyph: the status bar's spinner says work goes on); the
 * elapsed time, tokens and countdowns follow the child tick (CHILD_TICK_MS, once a second), the
 * body (the child's streaming text) every PANE_BODY_MS (2 s); a new entry (a tool call, a new
 * stretch of text) or a new status shows at once. The head is fitted and the body wrapped
 * again only when what they show changed, and the pane is drawn by a memoised frame of plain
 * values, so a pane whose text did not change is not rendered again.
 */
import { Box, Text } from "ink";
import { memo, useMemo } from "react";
import { useSampled } from "../hooks/use-sampled.js";
import { CHILD_COLOR, childAlert, childGlyph, childSpinner, childTick, liveTokens, PANE_BODY_MS, runningElapsed, tickOf, turnsLabel } from "../state/child-status.js";
import { formatArgs, formatDuration, formatTokens, shortId, truncate } from "../state/format.js";
import { paneInner, paneTail } from "../layout/pane-rows.js";
import type { ChildView, ToolStatus } from "../state/transcript-types.js";
import { StatusGlyph } from "./StatusGlyph.js";
import { MarkdownRow } from "./Markdown.js";
import { fitRow, GIVE_WAY } from "../layout/fit-row.js";
import { childDescription } from "../../src/subagents/runtime/child-label.js";

export interface SubagentPaneProps {
  /** The child to show. */
  child: ChildView;
  /** UI clock (ms): elapsed time and spinner, read at the child tick. */
  now: number;
  /** Outer width in columns (default 60). */
  width?: number;
  /** Body lines shown: the latest text lines and tool calls, in order (default 7). */
  lines?: number;
  /** The pane has the keyboard (Tab): highlighted border and the stop key hint. */
  focused?: boolean;
  /** Its question waits for the person's answer (ApprovalBroker.waiting): double yellow border, "waiting for approval". */
  waiting?: boolean;
  /** The body is redrawn at most this often (ms; 0: as the text arrives): paneBodyEvery of the panes streaming beside it (default PANE_BODY_MS). */
  bodyEvery?: number;
}

export { paneTail, type PaneLine } from "../layout/pane-rows.js";

/** One drawn body row of a pane, as plain values. */
type PaneRow = { kind: "text"; text: string } | { kind: "tool"; id: string; status: ToolStatus; name: string; args: string };

/** What one pane shows, as plain values (the body as rows): equal values draw the same pane. */
interface PaneFrameProps {
  width: number;
  border: { style: "double" | "round"; color?: string };
  /** Header: glyph, profile, description, status word, elapsed, stop hint — as fitted (paneHeader). */
  glyph: string;
  glyphColor: string;
  color: string;
  profile: string;
  profileColor?: string;
  description: string;
  status: string;
  statusColor: string;
  elapsed: string;
  stopHint: string;
  ids: string;
  prompt: string;
  body: PaneRow[];
  /** Glyph of a running tool call in the body (the child tick's spinner). */
  toolSpinner: string;
  note?: string;
  reason?: string;
}

function sameRow(a: PaneRow, b: PaneRow): boolean {
  if (a.kind === "text" || b.kind === "text") return a.kind === "text" && b.kind === "text" && a.text === b.text;
  return a.id === b.id && a.status === b.status && a.name === b.name && a.args === b.args;
}

/** Props equal in everything drawn (the border and body compared by value). */
function sameFrame(a: PaneFrameProps, b: PaneFrameProps): boolean {
  for (const key of Object.keys(a) as (keyof PaneFrameProps)[]) {
    if (key === "border" || key === "body") continue;
    if (a[key] !== b[key]) return false;
  }
  return a.border.style === b.border.style && a.border.color === b.border.color && a.body.length === b.body.length && a.body.every((row, i) => sameRow(row, b.body[i]!));
}

const PaneFrame = memo(function PaneFrame(p: PaneFrameProps) {
  const inner = Math.max(10, p.width - 4);
  return (
    <Box flexDirection="column" borderStyle={p.border.style} borderColor={p.border.color} width={p.width} paddingX={1} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text color={p.glyphColor}>{p.glyph}</Text>
        <Text bold color={p.profileColor}>{p.profile}</Text>
        <Text bold>{p.description}</Text>
        <Text dimColor>{p.status.slice(0, 3)}</Text>
        <Text color={p.statusColor}>{p.status.slice(3)}</Text>
        <Text dimColor>{p.elapsed}</Text>
        <Text color="magentaBright" bold>{p.stopHint}</Text>
      </Text>
      <Text dimColor wrap="truncate-end">
        {p.ids}
      </Text>
      <Text dimColor wrap="truncate-end">
        {"› "}
        {p.prompt}
      </Text>
      {p.body.map((line, i) =>
        line.kind === "text" ? (
          <Text key={`t${i}`} wrap="truncate-end">
            <MarkdownRow text={truncate(line.text, inner)} />
          </Text>
        ) : (
          <Text key={`tool:${line.id}`} wrap="truncate-end">
            {line.status === "ok" || line.status === "error" ? <StatusGlyph status={line.status} now={0} /> : <Text color="yellow">{p.toolSpinner}</Text>}
            <Text bold> {line.name}</Text>
            <Text dimColor> {line.args}</Text>
          </Text>
        ),
      )}
      {p.note ? (
        <Text dimColor wrap="truncate-end">
          {truncate(p.note, inner)}
        </Text>
      ) : null}
      {p.reason ? (
        <Text color={p.color} wrap="truncate-end">
          {truncate(p.reason, inner)}
        </Text>
      ) : null}
    </Box>
  );
}, sameFrame);

/**
 * The pane's two head rows fitted into `inner` columns (see fitRow). Header: the status word
 * (unless it is an alert or an end status) and the elapsed time give way first, then the focused
 * pane's stop hint, then the profile; the description last. Figures row: the model, the tokens, the turns give way before the id.
 */
export function paneHead(
  child: Pick<ChildView, "childId" | "profile" | "description" | "prompt" | "model" | "turns" | "resumed" | "worktree">,
  head: { glyph: string; status: string; statusAlert: boolean; elapsed: string; stopHint: boolean; tokens: number },
  inner: number,
): { glyph: string; profile: string; description: string; status: string; elapsed: string; stopHint: string; ids: string } {
  const what = childDescription(child);
  const profile = child.profile ?? "general";
  const [glyph, prof, desc, status, elapsed, stopHint] = fitRow(
    [
      { text: `${head.glyph} `, priority: GIVE_WAY.id, keep: true },
      what ? { text: profile, priority: GIVE_WAY.profile, min: 4 } : { text: profile, priority: GIVE_WAY.description, keep: true, min: 4 },
      { text: what ? ` · ${what}` : "", priority: GIVE_WAY.description, keep: true, min: 8 },
      { text: ` · ${head.status}`, priority: head.statusAlert ? GIVE_WAY.alert : GIVE_WAY.figures, min: 8 },
      { text: ` · ${head.elapsed}`, priority: GIVE_WAY.figures },
      { text: head.stopHint ? "  ^X stop" : "", priority: GIVE_WAY.alert }, // the focused pane says how to stop it
    ],
    inner,
  ).map((p) => p.text) as [string, string, string, string, string, string];
  const ids = fitRow(
    [
      { text: shortId(child.childId), priority: GIVE_WAY.id, keep: true },
      { text: child.model ? ` · ${child.model}` : "", priority: GIVE_WAY.model, min: 10 },
      { text: ` · ${turnsLabel(child.turns)}`, priority: GIVE_WAY.figures },
      { text: ` · ${formatTokens(head.tokens)} tokens`, priority: GIVE_WAY.tokens },
      { text: child.resumed ? " · resumed" : "", priority: GIVE_WAY.preview },
      { text: child.worktree ? " · worktree" : "", priority: GIVE_WAY.alert },
    ],
    inner,
  )
    .map((p) => p.text)
    .join("");
  return { glyph, profile: prof, description: prof === "" ? desc.replace(/^ · /, "") : desc, status, elapsed, stopHint, ids };
}

/** The bordered live pane. */
export function SubagentPane({ child, now, width = 60, lines = 7, focused = false, waiting = false, bodyEvery = PANE_BODY_MS }: SubagentPaneProps) {
  const tick = childTick(now);
  const inner = paneInner(width);
  const running = child.status === "running";
  const elapsed = running ? runningElapsed(child.startedAt, tick) : formatDuration(child.durationMs ?? tick - child.startedAt);
  const tokens = useSampled(liveTokens(child), `${tick}:${child.status}`);
  const color = CHILD_COLOR[child.status];
  const alert = childAlert(child, tick, waiting);
  const status = running ? (alert?.text ?? (child.thinking ? "thinking" : "running")) : child.status;
  const stopHint = focused && running;
  // The head is fitted (fitRow measures every part) and the body wrapped only when what they show changed: not on each frame the pane is rendered in.
  const { glyph, color: glyphColor } = childGlyph(child.status, alert, waiting);
  const statusAlert = !running || alert !== undefined;
  const { childId, profile, description, prompt, model, turns, resumed, worktree } = child;
  // With many panes streaming the body is redrawn every `bodyEvery` ms, not on every delta the child
  // streams (8 panes redrawn ~5 times a second were most of the bytes written inline); a new entry
  // or status at once. bodyEvery 0: as the text arrives.
  const entries = useSampled(child.entries, bodyEvery > 0 ? `${tickOf(now, bodyEvery)}:${child.status}:${child.entries.length}:${child.dropped}` : child.entries);
  const head = useMemo(
    () => paneHead({ childId, profile, description, prompt, model, turns, resumed, worktree }, { glyph, status, statusAlert, elapsed, stopHint, tokens }, inner),
    [childId, profile, description, prompt, model, turns, resumed, worktree, glyph, status, statusAlert, elapsed, stopHint, tokens, inner],
  );
  const body = useMemo(
    () =>
      paneTail({ entries }, lines, inner).map((line): PaneRow =>
        line.kind === "text" ? line : { kind: "tool", id: line.tool.id, status: line.tool.status, name: line.tool.name, args: formatArgs(line.tool.args, Math.max(8, inner - line.tool.name.length - 4)) },
      ),
    [entries, lines, inner],
  );
  return (
    <PaneFrame
      width={width}
      border={{ style: focused || waiting ? "double" : "round", color: waiting ? "yellowBright" : focused ? "magentaBright" : running && child.color ? child.color : color }}
      glyph={head.glyph}
      glyphColor={glyphColor}
      color={color}
      profile={head.profile}
      profileColor={child.color}
      description={head.description}
      status={head.status}
      statusColor={alert && alert.kind !== "stopping" ? "yellow" : color}
      elapsed={head.elapsed}
      stopHint={head.stopHint}
      ids={head.ids}
      prompt={truncate(child.prompt.replace(/\s+/g, " "), inner - 2)}
      body={body}
      toolSpinner={childSpinner(tick)}
      note={child.note}
      reason={child.reason && !running ? child.reason : undefined}
    />
  );
}
