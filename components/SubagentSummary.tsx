/**
 * SubagentSummary: a finished child collapsed to one line —
 * `✓ scout · find login handler · 3 turns · 2.1s · 1.2k tokens · $0.04 — first line of report` (the cost only when its
 * model has a price).
 */
import { Text } from "ink";
import { formatCost } from "../src/core/pricing.js";
import { CHILD_COLOR, CHILD_GLYPH, plainFirstLine, turnsLabel } from "./child-status.js";
import { formatDuration, formatTokens, shortId, totalTokens, truncate } from "./format.js";
import type { ChildView } from "./hooks/transcript-types.js";
import { childTitle } from "../src/subagents/runtime/child-label.js";

export interface SubagentSummaryProps {
  /** The finished child. */
  child: ChildView;
  /** The task tool's result, used when the child left no report. */
  result?: string;
  /** Width available (default 100). */
  width?: number;
}

/** The one-line summary. */
export function SubagentSummary({ child, result, width = 100 }: SubagentSummaryProps) {
  const color = CHILD_COLOR[child.status];
  const statusWord = child.status === "ok" ? "" : ` · ${child.status}`;
  const stats = `${statusWord} · ${turnsLabel(child.turns)} · ${formatDuration(child.durationMs ?? 0)} · ${formatTokens(totalTokens(child.usage))} tokens${child.cost && formatCost(child.cost) ? ` · ${formatCost(child.cost)}` : ""}`;
  const gist = child.status === "ok" ? plainFirstLine(child.report) || plainFirstLine(result ?? "") : child.reason ?? plainFirstLine(result ?? "");
  // The name gives way first, so the gist keeps 10 columns and the id stays on the line.
  const name = truncate(childTitle(child), Math.max(12, Math.min(Math.floor(width * 0.35), width - stats.length - 26)));
  const room = Math.max(10, width - name.length - stats.length - 16);
  return (
    <Text wrap="truncate-end">
      <Text color={color}>{CHILD_GLYPH[child.status]} </Text>
      <Text bold>{name}</Text>
      <Text color={child.status === "ok" ? undefined : color} dimColor={child.status === "ok"}>
        {stats}
      </Text>
      {gist ? <Text> — {truncate(gist, room)}</Text> : null}
      <Text dimColor> [{shortId(child.childId)}]</Text>
    </Text>
  );
}
