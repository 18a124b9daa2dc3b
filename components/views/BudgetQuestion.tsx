/**
 * BudgetQuestion: the bordered question shown when a child's budget (or the session's) is reached
 * — who, which budget, what was spent — answered by 1 (+50%), 2 (2×), t + an amount + Enter, or
 * s / Esc (stop; a child stays resumable). Keys: state/budget-keys.ts.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { formatAmount, presetExtensions } from "../../src/subagents/runtime/budget.js";
import type { BudgetAnswer } from "../../src/subagents/runtime/budget.js";
import type { BudgetRequest } from "../state/budget-broker.js";
import { budgetKey, initialBudgetKeys, type BudgetKeyState } from "../state/budget-keys.js";
import { DEFAULT_APPROVAL_TIMING, type ApprovalTiming } from "../state/approval-keys.js";
import { useRawInput } from "../hooks/use-raw-input.js";
import chalk from "chalk";
import { cellWidth, wrapRows } from "../layout/measure.js";

/** Rows of the question's border. */
const BORDER_ROWS = 2;

export interface BudgetQuestionProps {
  request: BudgetRequest;
  onAnswer: (id: number, answer: BudgetAnswer) => void;
  width?: number;
  /** Rows the layout gave the question: fewer than wrapping needs, each line keeps to one row, cut at its end. */
  maxRows?: number;
  timing?: ApprovalTiming;
  typedAt?: number;
  onTypeAhead?: (raw: string) => void;
}

/** Who reached the budget, for the question's first line. */
export function budgetAsker(request: BudgetRequest): string {
  if (request.scope === "tree") return request.agent.depth === 0 ? "main agent" : `child ${request.agent.description ? `"${request.agent.description}"` : request.agent.label}`;
  const a = request.agent;
  return `child ${a.description ? `"${a.description}"` : a.label}`;
}

/** The question's first line: which budget, who reached it, what was spent (the live spend when the request has one). */
function headText(request: BudgetRequest): { title: string; spent: string } {
  const { kind, spent, text, next } = request.reached;
  const what = next === undefined ? "reached" : `would be crossed by the next request (about ${formatAmount(kind, next)})`;
  return {
    title: `${request.scope === "tree" ? "The session's b" : "B"}${text.slice(1)} ${what}: `,
    spent: ` (spent ${request.spentNow ?? formatAmount(kind, spent)}, ${request.turns} turn${request.turns === 1 ? "" : "s"})`,
  };
}

/**
 * The two presets as the person reads them: dollar amounts get the decimals they need to differ
 * (a $0.0002 budget: +$0.0001 and +$0.0002, not the same figure twice).
 */
export function presetTexts(kind: "tokens" | "cost", limit: number): { half: string; double: string } {
  const presets = presetExtensions(limit);
  if (kind === "tokens") return { half: formatAmount(kind, presets.half), double: formatAmount(kind, presets.double) };
  for (let decimals = presets.half >= 0.01 ? 2 : 4; ; decimals++) {
    const half = `$${presets.half.toFixed(decimals)}`;
    const double = `$${presets.double.toFixed(decimals)}`;
    if ((half !== double && Number(half.slice(1)) > 0) || decimals >= 10) return { half, double };
  }
}

/** The answers: each key with what it adds (`bold` styles the keys). */
function choices(request: BudgetRequest, bold: (s: string) => string = (s) => s): string[] {
  const { kind, limit } = request.reached;
  const presets = presetTexts(kind, limit);
  return [`${bold("[1]")} +50% (+${presets.half})`, `${bold("[2]")} 2× (+${presets.double})`, `${bold("[t]")} type an amount`, `${bold("[s]")} ${request.scope === "tree" ? "stop" : "stop (resumable)"}`];
}

/** Columns a wrapped line of the question goes on from: continuation rows hang under its text, not at the box's edge. */
const HANG = 4;
const LEADING_SPACES = /^((?:\u001b\[[\d;]*m)*) +/;

/** `text` in rows of `width`, the rows after the first indented by HANG (a hanging indent). */
function hangRows(text: string, width: number): string[] {
  const rows = wrapRows(text, width);
  if (rows.length <= 1 || width <= HANG + 10) return rows;
  const rest = rows.slice(1).join("").replace(LEADING_SPACES, "$1");
  return [rows[0]!, ...wrapRows(rest, width - HANG).map((r) => " ".repeat(HANG) + r.replace(LEADING_SPACES, "$1"))];
}

/** The answers packed into rows of `width`, never splitting one (`[s] stop` stays whole), the rows after the first hung by HANG. */
function choiceRows(items: readonly string[], width: number): string[] {
  const rows: string[] = [];
  let row = "";
  for (const item of items) {
    const room = rows.length === 0 ? width : width - HANG;
    if (row !== "" && cellWidth(`${row} / ${item}`) > room) {
      rows.push(rows.length === 0 ? `${row} /` : `${" ".repeat(HANG)}${row} /`);
      row = item;
    } else row = row === "" ? item : `${row} / ${item}`;
  }
  rows.push(rows.length === 0 ? row : `${" ".repeat(HANG)}${row}`);
  return rows;
}

/** Rows the question takes at `width` columns (border included): its lines wrap, so every key stays on screen. */
export function budgetQuestionRows(request: BudgetRequest | undefined, width: number): number {
  if (!request) return 0;
  const inner = Math.max(1, width - 4);
  const { title, spent } = headText(request);
  return BORDER_ROWS + hangRows(title + budgetAsker(request) + spent, inner).length + choiceRows(choices(request), inner).length;
}

/** The question plus its key handler. */
export function BudgetQuestion({ request, onAnswer, width = 100, maxRows = Infinity, timing = DEFAULT_APPROVAL_TIMING, typedAt = 0, onTypeAhead }: BudgetQuestionProps) {
  const keys = useRef<BudgetKeyState | undefined>(undefined);
  keys.current ??= initialBudgetKeys(timing.now(), typedAt);
  const [view, setView] = useState<BudgetKeyState>(keys.current);
  const answered = useRef(false);
  const { kind, limit } = request.reached;
  useRawInput(
    (raw) => {
      if (answered.current) return onTypeAhead?.(raw);
      const step = budgetKey(keys.current!, raw, kind, limit, timing);
      keys.current = step.state;
      if (step.answer) {
        answered.current = true;
        onAnswer(request.id, step.answer);
      } else setView(step.state);
      if (step.toDraft !== undefined) onTypeAhead?.(step.toDraft);
    },
    { sync: true },
  );
  const presets = presetTexts(kind, limit);
  const stage = view.stage;
  const head = headText(request);
  const fits = budgetQuestionRows(request, width) <= maxRows;
  const wrap = fits ? "wrap" : "truncate-end";
  const inner = Math.max(1, width - 4);
  return (
    <Box borderStyle="round" borderColor="yellow" paddingX={1} flexDirection="column" width={width}>
      {fits ? (
        hangRows(chalk.yellow.bold(head.title) + budgetAsker(request) + chalk.dim(head.spent), inner).map((row, i) => <Text key={`h${i}`} wrap="truncate-end">{row}</Text>)
      ) : (
        <Text wrap={wrap}>
          <Text color="yellow" bold>{head.title}</Text>
          <Text>{budgetAsker(request)}</Text>
          <Text dimColor>{head.spent}</Text>
        </Text>
      )}
      {stage.kind === "amount" ? (
        <Text wrap="truncate-end">
          <Text bold>Add: </Text>
          <Text>{stage.text}</Text>
          <Text inverse> </Text>
          {stage.error ? <Text color="red">{` ${stage.error}`}</Text> : <Text dimColor>{` (${kind === "tokens" ? "e.g. 20k" : "e.g. 0.50"}; Enter adds it, Esc back)`}</Text>}
        </Text>
      ) : fits ? (
        choiceRows(choices(request, (s) => chalk.bold(s)), inner).map((row, i) => <Text key={`k${i}`} wrap="truncate-end">{row}</Text>)
      ) : (
        <Text wrap={wrap}>
          <Text bold>[1]</Text>
          {` +50% (+${presets.half}) / `}
          <Text bold>[2]</Text>
          {` 2× (+${presets.double}) / `}
          <Text bold>[t]</Text>
          {" type an amount / "}
          <Text bold>[s]</Text>
          {request.scope === "tree" ? " stop" : " stop (resumable)"}
        </Text>
      )}
    </Box>
  );
}
