/**
 * SubagentSummary: a finished child collapsed to one line —
 * `✓ scout · find login handler · 3 turns · 2.1s · 1.2k tokens · $0.04 — first line of report` (the cost only when its
 * model has a price).
 */
import { Text } from "ink";
import { formatCost } from "../../src/core/pricing.js";
import { CHILD_COLOR, CHILD_GLYPH, plainFirstLine, turnsLabel } from "../state/child-status.js";
import { formatDuration, formatTokens, shortId, totalTokens } from "../state/format.js";
import { fitRow, GIVE_WAY } from "../layout/fit-row.js";
import type { ChildView } from "../state/transcript-types.js";
import { childDescription } from "../../src/subagents/runtime/child-label.js";

export interface SubagentSummaryProps {
  /** The finished child. */
  child: ChildView;
  /** The task tool's result, used when the child left no report. */
  result?: string;
  /** Width available (default 100). */
  width?: number;
}

/**
 * The summary's parts fitted into `width` columns (see fitRow): the tokens and the cost give way
 * first, then the duration and the turns, then the report's first line (cut to what is left,
 * dropped below 12 columns), then the status word and the profile; the description and the short id last.
 */
export function summaryParts(child: ChildView, result: string | undefined, width: number): { glyph: string; profile: string; description: string; stats: string; status: string; gist: string; id: string } {
  const what = childDescription(child);
  const profile = child.profile ?? "general";
  const cost = child.cost ? formatCost(child.cost) : "";
  const gist = child.status === "ok" ? plainFirstLine(child.report) || plainFirstLine(result ?? "") : child.reason ?? plainFirstLine(result ?? "");
  const [glyph, prof, desc, status, turns, duration, tokens, price, line, id] = fitRow(
    [
      { text: `${CHILD_GLYPH[child.status]} `, priority: GIVE_WAY.id, keep: true },
      what ? { text: profile, priority: GIVE_WAY.profile, min: 4 } : { text: profile, priority: GIVE_WAY.description, keep: true, min: 4 },
      { text: what ? ` · ${what}` : "", priority: GIVE_WAY.description, keep: true, min: 8 },
      { text: child.status === "ok" ? "" : ` · ${child.status}`, priority: GIVE_WAY.alert },
      { text: ` · ${turnsLabel(child.turns)}`, priority: GIVE_WAY.cost },
      { text: ` · ${formatDuration(child.durationMs ?? 0)}`, priority: GIVE_WAY.cost },
      { text: ` · ${formatTokens(totalTokens(child.usage))} tokens`, priority: GIVE_WAY.tokens },
      { text: cost ? ` · ${cost}` : "", priority: GIVE_WAY.cost },
      { text: gist ? ` — ${gist}` : "", priority: GIVE_WAY.preview, min: 12, shrinkFirst: 32 },
      { text: ` [${shortId(child.childId)}]`, priority: GIVE_WAY.id, keep: true },
    ],
    width,
  ).map((p) => p.text) as [string, string, string, string, string, string, string, string, string, string];
  return { glyph, profile: prof, description: prof === "" ? desc.replace(/^ · /, "") : desc, status, stats: `${turns}${duration}${tokens}${price}`, gist: line, id };
}

/** The one-line summary. */
export function SubagentSummary({ child, result, width = 100 }: SubagentSummaryProps) {
  const color = CHILD_COLOR[child.status];
  const p = summaryParts(child, result, width);
  return (
    <Text wrap="truncate-end">
      <Text color={color}>{p.glyph}</Text>
      <Text bold>{p.profile}{p.description}</Text>
      <Text color={color}>{p.status}</Text>
      <Text color={child.status === "ok" ? undefined : color} dimColor={child.status === "ok"}>
        {p.stats}
      </Text>
      <Text>{p.gist}</Text>
      <Text dimColor>{p.id}</Text>
    </Text>
  );
}
