/**
 * Sidebar: the resumable child sessions — this session's children first, then the project's
 * earlier ones — one row each, in columns under a header (`agent  id  age  task`): status glyph,
 * profile, short id (as in the summary lines, e.g. `[2e814b]`), age (see rowAge: a finished
 * child's counts from its end, in minutes), its description (else the first line of its prompt). Keyboard only (the screen handles the keys): ↑/↓
 * select, Enter opens the transcript (where r resumes), Tab/Esc leave; other typing goes to the
 * prompt.
 */
import { Box, Text } from "ink";
import { CHILD_COLOR, CHILD_GLYPH } from "../state/child-status.js";
import { shortId, truncate } from "../state/format.js";
import { rowAge, type SidebarRow } from "../state/sidebar-rows.js";
import { listWindow } from "../layout/live-plan.js";
import { cutCells, fitRow, GIVE_WAY } from "../layout/fit-row.js";
import { cellWidth } from "../layout/measure.js";
import { useNow } from "../hooks/use-now.js";

export interface SidebarProps {
  rows: readonly SidebarRow[];
  /** Selected row index. */
  selected: number;
  /** Clock (ms since the epoch) for the ages. */
  now: number;
  /** Outer width in columns. */
  width: number;
  /** Most rows of sessions shown at once. */
  height: number;
  /** The sidebar has the keyboard. */
  focused: boolean;
}

function glyph(row: SidebarRow): { text: string; color: string } {
  return row.status === "unknown" ? { text: "·", color: "gray" } : { text: CHILD_GLYPH[row.status], color: CHILD_COLOR[row.status] };
}

/** What a row's task column says. */
function rowTask(row: SidebarRow): string {
  return row.description || row.prompt || "(no prompt)";
}

/** Widest profile column; a longer name is cut with "…". */
const PROFILE_MAX = 16;

/** The name of a row's group: this session, or the earlier session that started it. */
function groupName(row: SidebarRow): string {
  if (row.current) return "this session";
  return row.parent ? `earlier: session ${shortId(row.parent)}` : "earlier in this project";
}

/** Whether `rows[index]` starts a group (a heading is drawn above it). */
function startsGroup(rows: readonly SidebarRow[], index: number): boolean {
  return index === 0 || groupName(rows[index - 1]!) !== groupName(rows[index]!);
}

/** The rows from `start` that fit in `height` rows with their headings (at least one). */
function fitting(rows: readonly SidebarRow[], start: number, height: number): number {
  let used = 0;
  let n = 0;
  for (let i = start; i < rows.length; i++) {
    const cost = 1 + (startsGroup(rows, i) || i === start ? 1 : 0);
    if (n > 0 && used + cost > height) break;
    used += cost;
    n++;
  }
  return n;
}

/** The bordered list with its column header. */
export function Sidebar({ rows, selected, now, width, height, focused }: SidebarProps) {
  const inner = Math.max(16, width - 4);
  // Group headings take rows too: the window keeps the selection in view within `height` rows.
  let start = listWindow(selected, rows.length, height);
  while (start < selected && start + fitting(rows, start, height) <= selected) start++;
  const visible = rows.slice(start, start + fitting(rows, start, Math.max(1, height)));
  // Columns sized to the visible rows, so the header stands over its column.
  const profileWidth = Math.min(PROFILE_MAX, Math.max(5, ...visible.map((r) => (r.profile ?? "general").length)));
  const idWidth = Math.max(2, ...visible.map((r) => shortId(r.id).length + 2));
  const ages = visible.map((r) => rowAge(r, now));
  const ageWidth = Math.max(3, ...ages.map((a) => a.length));
  // The columns fitted to the widest task (see fitRow): the age gives way first, then the agent
  // column (cut, then dropped); the task and the id last.
  const widest = Math.max(4, ...visible.map((r) => cellWidth(rowTask(r))));
  const [, agentCol, , ageCol, taskCol] = fitRow(
    [
      { text: "  ", priority: GIVE_WAY.id, keep: true },
      { text: ` ${"x".repeat(profileWidth)}`, priority: GIVE_WAY.profile, min: 6 }, // cut to no fewer than 5 cells: its heading "agent" stays whole (cut to "age…" it read as the age column)
      { text: ` ${"x".repeat(idWidth)}`, priority: GIVE_WAY.id, keep: true },
      { text: ` ${"x".repeat(ageWidth)}`, priority: GIVE_WAY.figures },
      { text: ` ${"x".repeat(widest)}`, priority: GIVE_WAY.description, keep: true, min: 5 },
    ],
    inner,
  ).map((p) => cellWidth(p.text));
  const agentWidth = Math.max(0, agentCol! - 1);
  const showAge = ageCol! > 0;
  const room = Math.max(1, taskCol! - 1);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={focused ? "cyan" : "gray"} width={width} paddingX={1} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text bold>Child sessions</Text>
        <Text dimColor>{` (${rows.length}) · Enter transcript, then r resume · Esc close`}</Text>
      </Text>
      {rows.length === 0 ? <Text dimColor>No child sessions yet — they appear here when the agent delegates work with task.</Text> : null}
      {visible.length > 0 ? <Text dimColor wrap="truncate-end">{`  ${agentWidth > 0 ? ` ${truncate("agent", agentWidth).padEnd(agentWidth)}` : ""} ${"id".padEnd(idWidth)}${showAge ? ` ${"age".padStart(ageWidth)}` : ""} task`}</Text> : null}
      {start > 0 ? <Text dimColor>{`  ↑ ${start} more`}</Text> : null}
      {visible.map((row, i) => {
        const index = start + i;
        const g = glyph(row);
        const isSelected = index === selected;
        // The first visible row always names its group, so a scrolled list still says whose children these are.
        const heading = i === 0 || startsGroup(rows, index) ? groupName(row) : undefined;
        const profile = agentWidth > 0 ? ` ${truncate(row.profile ?? "general", agentWidth).padEnd(agentWidth)}` : "";
        const age = showAge ? ` ${ages[i]!.padStart(ageWidth)}` : "";
        const id = `[${shortId(row.id)}]`.padEnd(idWidth);
        return (
          <Box key={row.id} flexDirection="column">
            {heading ? <Text dimColor wrap="truncate-end">{heading}</Text> : null}
            <Text wrap="truncate-end" inverse={isSelected && focused} bold={isSelected}>
              <Text>{isSelected ? "›" : " "}</Text>
              <Text color={g.color}>{g.text}</Text>
              <Text bold>{profile}</Text>
              <Text dimColor>{` ${id}${age} `}</Text>
              <Text>{cutCells(rowTask(row), room)}</Text>
            </Text>
          </Box>
        );
      })}
      {start + visible.length < rows.length ? <Text dimColor>{`  ↓ ${rows.length - start - visible.length} more`}</Text> : null}
    </Box>
  );
}

/** How often a shown sidebar redraws on its own, so ages move on while the screen is idle. */
export const SIDEBAR_REFRESH_MS = 10_000;

/**
 * The Sidebar on the screen: ages at `clock()` when drawn, and redrawn every `refreshMs` even when
 * nothing else changes — an idle screen's "<1m" becomes "2m" in time, without ticking every second.
 * While children run, `now` is the screen's clock (it ticks then): the ages are read at it, the
 * clock their panes and rows read, so both show the same elapsed time. Undefined: its own clock.
 */
export function LiveSidebar({ clock = Date.now, refreshMs = SIDEBAR_REFRESH_MS, now, ...props }: Omit<SidebarProps, "now"> & { now: number | undefined; clock?: () => number; refreshMs?: number }) {
  const tick = useNow(true, refreshMs, clock);
  return <Sidebar {...props} now={now ?? Math.max(tick, clock())} />;
}
