/**
 * ApprovalModal: the bordered question shown when a tool needs the person's permission — tool,
 * who asks, the cwd, the full command (wrapped; ↑/↓ scroll a long one) or an edit's diff — answered
 * by y (once), a (always), n (deny), r + a typed reason + Enter (deny with that reason), or — when
 * the request carries a rule — s (allow and save that rule to the user's settings).
 */
import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { answerRows, approvalBodyLines, askerLabel, type ApprovalLine } from "./approval-lines.js";
import type { ApprovalAnswer, ApprovalRequest } from "./hooks/approval-broker.js";

export interface ApprovalModalProps {
  /** The request to answer. */
  request: ApprovalRequest;
  /** Called with the person's answer (y / n / a; Esc means no; r + text + Enter: no with a reason). */
  onAnswer: (id: number, answer: ApprovalAnswer, reason?: string) => void;
  /** Terminal width. */
  width?: number;
  /** Most rows the modal may take, border included (the layout's cap). */
  maxRows?: number;
  /** Requests queued behind this one. */
  waiting?: number;
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
export function ApprovalModal({ request, onAnswer, width = 100, maxRows = 40, waiting = 0 }: ApprovalModalProps) {
  const [scroll, setScroll] = useState(0);
  const [reason, setReasonState] = useState<string | undefined>(undefined);
  // Keys can arrive before the re-render that swaps the handler: the ref is always current.
  const reasonRef = useRef<string | undefined>(undefined);
  const setReason = (next: string | undefined) => {
    reasonRef.current = next;
    setReasonState(next);
  };
  const body = approvalBodyLines(request, innerWidth(width));
  const choiceRows = answerRows(request.rule, innerWidth(width));
  const bodyRows = Math.max(1, maxRows - CHROME - choiceRows.length);
  const maxScroll = Math.max(0, body.length - bodyRows);
  useInput((input, key) => {
    const reason = reasonRef.current;
    if (reason !== undefined) {
      if (key.escape) return setReason(undefined);
      if (key.return) return onAnswer(request.id, "no", reason.trim() || undefined);
      if (key.backspace || key.delete) return setReason(reason.slice(0, -1));
      if (key.ctrl || key.meta) return;
      return setReason(reason + input);
    }
    if (key.escape) return onAnswer(request.id, "no");
    if (key.upArrow) return setScroll((s) => Math.max(0, s - 1));
    if (key.downArrow) return setScroll((s) => Math.min(maxScroll, s + 1));
    if (key.ctrl || key.meta) return;
    const k = input.toLowerCase();
    if (k === "y") onAnswer(request.id, "yes");
    else if (k === "n") onAnswer(request.id, "no");
    else if (k === "a") onAnswer(request.id, "always");
    else if (k === "s" && request.rule !== undefined) onAnswer(request.id, "save");
    else if (k === "r") setReason("");
  });
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
      </Text>
      {shown.map((line, i) => (
        <Text key={top + i} wrap="truncate-end" {...TONE[line.tone]}>
          {line.text || " "}
        </Text>
      ))}
      {reason !== undefined ? (
        <Text wrap="truncate-end">
          <Text bold>Reason: </Text>
          <Text>{reason}</Text>
          <Text inverse> </Text>
          <Text dimColor> (Enter denies, Esc back)</Text>
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
