/**
 * StatusBar: the model, then running and queued children (first, so a narrow terminal that cuts
 * the row's end keeps them), a compaction in progress, context use (the main agent's latest input
 * tokens over the model's window), tokens in/out and the cost (when the models have a price) for
 * the whole session (against the session's budget when the settings set one: `$0.42 / $2.00`), and the provider — and, while the session file cannot be written, that it is
 * kept in memory only; under it
 * a key hint line (the keys of whatever has the keyboard).
 */
import { Box, Text, useStdout } from "ink";
import type { Usage } from "../../src/protocol/messages.js";
import { formatCost, type CostTally } from "../../src/core/pricing.js";
import { formatTokens, spinnerFrame } from "../state/format.js";
import { fitRow, GIVE_WAY, type RowPart } from "../layout/fit-row.js";

export interface StatusBarProps {
  /** Model name. */
  model: string;
  /** Provider name. */
  provider: string;
  /** Input tokens (incl. cache) of the main agent's latest model call. */
  contextTokens: number;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** Session totals (main agent + children). */
  usage: Usage;
  /** Session cost (main agent + children); nothing is shown when no model had a price. */
  cost?: CostTally;
  /** The session tree's spend against its budget (settings maxTokens / maxCostUsd), shown instead of the cost; red once reached. */
  budget?: { text: string; reached: boolean };
  /** Children running now. */
  runningChildren: number;
  /** Task calls waiting for a free child slot. */
  queuedChildren?: number;
  /** The main agent is compacting its context. */
  compacting?: boolean;
  /** The key hints for the focused area (default: the prompt's). */
  keys?: string;
  /** A run is in progress. */
  running: boolean;
  /** UI clock (ms) for the activity spinner. */
  now: number;
  /** A message that replaces the key hints (e.g. "Press Ctrl-C again to exit"). */
  hint?: string;
  /** The session is kept in memory only: its file cannot be written (full disk, read-only, …). */
  unsaved?: boolean;
  /** The permission mode; shown unless it is "default". */
  permissionMode?: string;
  /** Columns of the row (default: the terminal's). */
  width?: number;
}

const MODE_COLOR: Record<string, string> = { "accept-edits": "green", plan: "blue", yolo: "red" };

/** Context use as a whole percentage (0 when the window is unknown). */
export function contextPercent(tokens: number, window: number): number {
  if (!(window > 0)) return 0;
  return Math.min(100, Math.round((tokens / window) * 100));
}

/**
 * The facts row's parts, in order, with their colours and priorities (see fitRow): the provider,
 * then the token counts, then the cost, then the context use (unless it runs high) give way first
 * and the model name is cut after them; what runs (children, queued, compacting), the mode, a
 * reached budget and an unsaved session are kept.
 */
export function statusParts(props: StatusBarProps): (RowPart & { color?: string; dim?: boolean; bold?: boolean })[] {
  const pct = contextPercent(props.contextTokens, props.contextWindow);
  const ctxColor = pct >= 85 ? "red" : pct >= 60 ? "yellow" : undefined;
  const tokensIn = props.usage.input + props.usage.cacheRead + props.usage.cacheWrite;
  const queued = props.queuedChildren ?? 0;
  const cost = props.cost ? formatCost(props.cost) : "";
  const mode = props.permissionMode && props.permissionMode !== "default" ? props.permissionMode : undefined;
  return [
    { text: props.running ? `${spinnerFrame(props.now)} ` : "", priority: GIVE_WAY.id, keep: true, color: "cyan" },
    { text: props.model, priority: GIVE_WAY.profile, keep: true, min: 8, bold: true },
    { text: mode ? ` · ⏵ ${mode}` : "", priority: GIVE_WAY.id, keep: true, color: mode ? (MODE_COLOR[mode] ?? "yellow") : undefined, bold: true },
    { text: props.unsaved ? " · not saved (in memory)" : "", priority: GIVE_WAY.id, keep: true, color: "red", bold: true },
    { text: props.runningChildren > 0 ? ` · ${props.runningChildren} agent${props.runningChildren === 1 ? "" : "s"} running` : "", priority: GIVE_WAY.description, keep: true, color: "cyan" },
    { text: queued > 0 ? ` · ${queued} queued` : "", priority: GIVE_WAY.description, keep: true, color: "yellow" },
    { text: props.compacting ? " · compacting…" : "", priority: GIVE_WAY.alert, color: "yellow" },
    { text: ` · ctx ${pct}% of ${formatTokens(props.contextWindow)}`, priority: ctxColor ? GIVE_WAY.alert : GIVE_WAY.figures, color: ctxColor, dim: ctxColor === undefined },
    { text: ` · ↑${formatTokens(tokensIn)} ↓${formatTokens(props.usage.output)} tokens`, priority: GIVE_WAY.tokens, dim: true },
    { text: cost && !props.budget ? ` · ${cost}` : "", priority: GIVE_WAY.cost, dim: true },
    props.budget ? { text: ` · ${props.budget.text}`, priority: props.budget.reached ? GIVE_WAY.description : GIVE_WAY.cost, keep: props.budget.reached, color: props.budget.reached ? "red" : undefined, dim: !props.budget.reached } : { text: "", priority: GIVE_WAY.cost },
    { text: ` · ${props.provider}`, priority: GIVE_WAY.model, dim: true },
  ];
}

/** Two rows, each fitted to the width (never wrapped): facts, then hints. */
export function StatusBar(props: StatusBarProps) {
  const keys = props.keys ?? (props.running ? "Ctrl-C stop · Ctrl-C twice exit" : "Enter send · ↑/↓ history · /help · Ctrl-C twice exit");
  const { stdout } = useStdout();
  const parts = fitRow(statusParts(props), props.width ?? (stdout.columns || 80));
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {parts.map((p, i) =>
          p.text ? (
            <Text key={i} color={p.color} dimColor={p.dim} bold={p.bold}>
              {p.text}
            </Text>
          ) : null,
        )}
      </Text>
      {props.hint ? (
        <Text color="yellow" wrap="truncate-end">
          {props.hint}
        </Text>
      ) : (
        <Text dimColor wrap="truncate-end">
          {keys}
        </Text>
      )}
    </Box>
  );
}
