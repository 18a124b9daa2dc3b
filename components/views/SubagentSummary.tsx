/**
 * SubagentSummary: a finished child collapsed to one line —
 * `✓ scout · find login handler · 3 turns · 2.1s · 1.2k tokens · $0.04 — first line of report` (the cost only when its
 * model has a price).
 */
import { Text } from "ink";
import { CHILD_COLOR } from "../state/child-status.js";
import { summaryParts } from "../layout/summary-parts.js";
import type { ChildView } from "../state/transcript-types.js";

export { summaryParts } from "../layout/summary-parts.js";

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
