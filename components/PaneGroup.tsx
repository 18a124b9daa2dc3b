/** PaneGroup: children running in parallel, side by side when there is room, else stacked. */
import { Box } from "ink";
import type { ChildView } from "./hooks/transcript-types.js";
import type { LiveLayout } from "./live-layout.js";
import { SubagentPane } from "./SubagentPane.js";

export interface PaneGroupProps {
  /** The running children, in call order. */
  agents: ChildView[];
  /** UI clock (ms). */
  now: number;
  /** Sizes from liveLayout. */
  layout: LiveLayout;
  /** The child whose pane has the keyboard. */
  focusedId?: string;
}

/** The panes laid out in rows of `layout.perRow`. */
export function PaneGroup({ agents, now, layout, focusedId }: PaneGroupProps) {
  return (
    <Box flexDirection="row" flexWrap="wrap">
      {agents.map((child) => (
        <SubagentPane key={child.childId} child={child} now={now} width={layout.paneWidth} lines={layout.textLines + layout.toolLines} focused={child.childId === focusedId} />
      ))}
    </Box>
  );
}
