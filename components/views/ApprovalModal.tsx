/**
 * ApprovalModal: the bordered question shown when a tool needs the person's permission — tool,
 * who asks, the cwd, the full command (wrapped; ↑/↓ scroll a long one) or an edit's diff — answered
 * by y (once), a then Enter (always), n or Esc (deny), r + a typed reason + Enter (deny with that
 * reason), or — when the request carries a rule — s then Enter (allow and save that rule to the
 * user's settings). Type-ahead never answers it: see state/approval-keys.ts.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { answerRows, approvalBodyLines, askerLabel, type ApprovalLine } from "../state/approval-lines.js";
import type { ApprovalAnswer, ApprovalRequest } from "../state/approval-broker.js";
import { approvalKey, DEFAULT_APPROVAL_TIMING, initialApprovalKeys, type ApprovalKeyState, type ApprovalTiming } from "../state/approval-keys.js";
import { useRawInput } from "../hooks/use-raw-input.js";

export interface ApprovalModalProps {
  /** The request to answer. */
  request: ApprovalRequest;
  /** Called with the person's answer (y / n / a+Enter / s+Enter; Esc means no; r + text + Enter: no with a reason). */
  onAnswer: (id: number, answer: ApprovalAnswer, reason?: string) => void;
  /** Terminal width. */
  width?: number;
  /** Most rows the modal may take, border included (the layout's cap). */
  maxRows?: number;
  /** Requests queued behind this one. */
  waiting?: number;
  /** When keys may answer (state/approval-keys.ts); default: visible 400 ms, nothing typed for 1 s. */
  timing?: ApprovalTiming;
  /** When the person last typed in the prompt (timing's clock; 0: not lately). */
  typedAt?: number;
  /** Keys that are not an answer — type-ahead — for the prompt's draft. */
  onTypeAhead?: (raw: string) => void;
}

const CHROME = 3; // border top/bottom + header (the answer rows are counted by answerRows)

/** Rows the modal takes for `request` at terminal `width`, never more than `maxRows`. */
export function approvalModalRows(request: ApprovalRequest | undefined, width: number, maxRows: number): number {
  if (!request) return 0;
  const body = approvalBodyLines(request, innerWidth(width)).length;
  return Math.max(0, Math.min(maxRows, body + CHROME + answerRows(request.rule, innerWidth(width)).length));
}

function innerWidth(width: number): number {
  return Math.max(10, width - 4);
}

const TONE: Record<ApprovalLine["tone"], { color?: string; dimColor?: boolean }> = {
  plain: {},
  add: { color: "green" },
  remove: { color: "red" },
  dim: { dimColor: true },
};

/** The question plus its key handler. */
export function ApprovalModal({ request, onAnswer, width = 100, maxRows = 40, waiting = 0, timing = DEFAULT_APPROVAL_TIMING, typedAt = 0, onTypeAhead }: ApprovalModalProps) {
  const [scroll, setScroll] = useState(0);
  // Keys can arrive before the re-render that swaps the handler: the ref is always current.
  const keys = useRef<ApprovalKeyState | undefined>(undefined);
  keys.current ??= initialApprovalKeys(timing.now(), typedAt);
  const [view, setView] = useState<ApprovalKeyState>(keys.current);
  const answered = useRef(false);
  const body = approvalBodyLines(request, innerWidth(width));
  const choiceRows = answerRows(request.rule, innerWidth(width));
  const bodyRows = Math.max(1, maxRows - CHROME - choiceRows.length);
  const maxScroll = Math.max(0, body.length - bodyRows);
  useRawInput((raw) => {
    if (answered.current) return onTypeAhead?.(raw); // keys after the answer, before the modal is gone
    const step = approvalKey(keys.current!, raw, request.rule !== undefined, timing);
    keys.current = step.state;
    if (step.scroll) setScroll((s) => Math.max(0, Math.min(maxScroll, s + step.scroll!)));
    if (step.answer) {
      answered.current = true;
      onAnswer(request.id, step.answer.answer, step.answer.reason);
    } else setView(step.state);
    if (step.toDraft !== undefined) onTypeAhead?.(step.toDraft);
  });
  const stage = view.stage;
  const top = Math.min(scroll, maxScroll);
  const shown = body.slice(top, top + bodyRows);
  const more = body.length > bodyRows ? ` (${top + 1}-${top + shown.length} of ${body.length}, ↑/↓ scroll)` : "";
  const cwd = request.agent.cwd ? ` in ${request.agent.cwd}` : "";
  return (
    <Box borderStyle="round" borderColor="yellow" paddingX={1} flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text color="yellow" bold>
          Allow {request.call.name}
        </Text>
        <Text dimColor>
          {" "}
          asked by {askerLabel(request)}
          {cwd}
          {more}
        </Text>
        {waiting > 0 ? <Text color="yellow"> · {waiting} more waiting</Text> : null}
        {view.diverted ? <Text dimColor> · your typing went to the prompt</Text> : null}
      </Text>
      {shown.map((line, i) => (
        <Text key={top + i} wrap="truncate-end" {...TONE[line.tone]}>
          {line.text || " "}
        </Text>
      ))}
      {stage.kind === "reason" ? (
        <Text wrap="truncate-end">
          <Text bold>Reason: </Text>
          <Text>{stage.text}</Text>
          <Text inverse> </Text>
          <Text dimColor> (Enter denies, Esc back)</Text>
        </Text>
      ) : stage.kind === "confirm" ? (
        <Text wrap="truncate-end">
          <Text color="yellow" bold>
            {stage.answer === "always" ? `Allow every ${request.call.name} call for the rest of this session?` : `Save the rule ${request.rule} to your settings?`}
          </Text>
          <Text dimColor> Enter confirms · any other key goes back</Text>
        </Text>
      ) : (
        choiceRows.map((row, i) => (
          <Text key={i} wrap="truncate-end">
            {row.map((choice, j) => (
              <Text key={choice.key}>
                <Text bold>[{choice.key}]</Text>
                {choice.rest}
                {j < row.length - 1 ? " / " : ""}
              </Text>
            ))}
          </Text>
        ))
      )}
    </Box>
  );
}
