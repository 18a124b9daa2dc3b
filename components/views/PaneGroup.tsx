/**
 * PaneGroup: children running in parallel, drawn as the live plan says — full bordered panes (side
 * by side when there is room, else stacked), or one row per child with the focused one expanded
 * and a "+N more" row for those that do not fit.
 */
import { Box, Text } from "ink";
import { ChildRow } from "./ChildRow.js";
import { paneBodyEvery, rowWordsEvery } from "../state/child-status.js";
import type { ChildView } from "../state/transcript-types.js";
import type { PanePlan } from "../layout/live-plan.js";
import { SubagentPane } from "./SubagentPane.js";

export interface PaneGroupProps {
  /** The running children, in call order. */
  agents: ChildView[];
  /** UI clock (ms). */
  now: number;
  /** How to draw them (livePlan). */
  plan: PanePlan;
  /** The child whose pane has the keyboard. */
  focusedId?: string;
  /** Ids of the children whose question waits for the person (ApprovalBroker.waiting). */
  waiting?: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/** The group as planned. */
export function PaneGroup({ agents, now, plan, focusedId, waiting = NONE }: PaneGroupProps) {
  if (plan.mode === "full") {
    const bodyEvery = paneBodyEvery(agents.filter((c) => c.status === "running").length);
    return (
      <Box flexDirection="row" flexWrap="wrap">
        {agents.map((child) => (
          <SubagentPane key={child.childId} child={child} now={now} width={plan.paneWidth} lines={plan.body} focused={child.childId === focusedId} waiting={waiting.has(child.childId)} bodyEvery={bodyEvery} />
        ))}
      </Box>
    );
  }
  const byId = new Map(agents.map((c) => [c.childId, c]));
  const shown = plan.shown.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const wordsEvery = rowWordsEvery(shown.filter((c) => c.status === "running" && c.childId !== plan.expanded).length);
  return (
    <Box flexDirection="column">
      {shown.map((child) =>
        child.childId === plan.expanded ? (
          <SubagentPane key={child.childId} child={child} now={now} width={plan.paneWidth} lines={plan.body} focused={child.childId === focusedId} waiting={waiting.has(child.childId)} bodyEvery={paneBodyEvery(1)} />
        ) : (
          <ChildRow key={child.childId} child={child} now={now} width={plan.paneWidth} focused={child.childId === focusedId} waiting={waiting.has(child.childId)} wordsEvery={wordsEvery} />
        ),
      )}
      {plan.hidden > 0 ? <Text dimColor wrap="truncate-end">{`  +${plan.hidden} more running · Tab to focus one · the sidebar lists all`}</Text> : null}
    </Box>
  );
}
