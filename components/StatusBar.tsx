/**
 * StatusBar: the model, then running and queued children (first, so a narrow terminal that cuts
 * the row's end keeps them), a compaction in progress, context use (the main agent's latest input
 * tokens over the model's window), tokens in/out and the cost (when the models have a price) for
 * the whole session (against the session's budget when the settings set one: `$0.42 / $2.00`), and the provider — and, while the session file cannot be written, that it is
 * kept in memory only; under it
 * a key hint line (the keys of whatever has the keyboard).
 */
import { Box, Text } from "ink";
import type { Usage } from "../src/protocol/messages.js";
import { formatCost, type CostTally } from "../src/core/pricing.js";
import { formatTokens, spinnerFrame } from "./format.js";

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
}

const MODE_COLOR: Record<string, string> = { "accept-edits": "green", plan: "blue", yolo: "red" };

/** Context use as a whole percentage (0 when the window is unknown). */
export function contextPercent(tokens: number, window: number): number {
  if (!(window > 0)) return 0;
  return Math.min(100, Math.round((tokens / window) * 100));
}

/** Two rows, each cut to the width (never wrapped): facts, then hints. */
export function StatusBar(props: StatusBarProps) {
  const pct = contextPercent(props.contextTokens, props.contextWindow);
  const ctxColor = pct >= 85 ? "red" : pct >= 60 ? "yellow" : undefined;
  const tokensIn = props.usage.input + props.usage.cacheRead + props.usage.cacheWrite;
  const keys = props.keys ?? (props.running ? "Ctrl-C stop · Ctrl-C twice exit" : "Enter send · ↑/↓ history · /help · Ctrl-C twice exit");
  const queued = props.queuedChildren ?? 0;
  const cost = props.cost ? formatCost(props.cost) : "";
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {props.running ? <Text color="cyan">{spinnerFrame(props.now)} </Text> : null}
        <Text bold>{props.model}</Text>
        {props.permissionMode && props.permissionMode !== "default" ? <Text color={MODE_COLOR[props.permissionMode] ?? "yellow"} bold>{` · ⏵ ${props.permissionMode}`}</Text> : null}
        {props.unsaved ? <Text color="red" bold>{" · not saved (in memory)"}</Text> : null}
        {/* What runs comes first: a narrow terminal cuts the row's end, never the children's count. */}
        {props.runningChildren > 0 ? <Text color="cyan">{` · ${props.runningChildren} agent${props.runningChildren === 1 ? "" : "s"} running`}</Text> : null}
        {queued > 0 ? <Text color="yellow">{` · ${queued} queued`}</Text> : null}
        {props.compacting ? <Text color="yellow">{" · compacting…"}</Text> : null}
        <Text dimColor>{" · "}</Text>
        <Text color={ctxColor} dimColor={ctxColor === undefined}>{`ctx ${pct}% of ${formatTokens(props.contextWindow)}`}</Text>
        <Text dimColor>{` · ↑${formatTokens(tokensIn)} ↓${formatTokens(props.usage.output)} tokens${cost && !props.budget ? ` · ${cost}` : ""}`}</Text>
        {props.budget ? <Text color={props.budget.reached ? "red" : undefined} dimColor={!props.budget.reached}>{` · ${props.budget.text}`}</Text> : null}
        <Text dimColor>{` · ${props.provider}`}</Text>
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
