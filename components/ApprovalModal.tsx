/**
 * ApprovalModal: the one-line question shown when a tool needs the person's permission —
 * `Allow bash {"command":"ls"} (asked by scout …)? [y]es / [n]o / [a]lways` — answered by key.
 */
import { Box, Text, useInput } from "ink";
import { truncate } from "./format.js";
import type { ApprovalAnswer, ApprovalRequest } from "./hooks/approval-broker.js";

export interface ApprovalModalProps {
  /** The request to answer. */
  request: ApprovalRequest;
  /** Called with the person's answer (y / n / a; Esc means no). */
  onAnswer: (id: number, answer: ApprovalAnswer) => void;
  /** Terminal width. */
  width?: number;
}

/** The question plus its key handler. */
export function ApprovalModal({ request, onAnswer, width = 100 }: ApprovalModalProps) {
  useInput((input, key) => {
    if (key.escape) return onAnswer(request.id, "no");
    if (key.ctrl || key.meta) return;
    const k = input.toLowerCase();
    if (k === "y") onAnswer(request.id, "yes");
    else if (k === "n") onAnswer(request.id, "no");
    else if (k === "a") onAnswer(request.id, "always");
  });
  const who = request.agent.depth > 0 ? ` (asked by ${request.agent.label} ${request.agent.id})` : "";
  const args = truncate(JSON.stringify(request.call.arguments), Math.max(30, width - who.length - 50));
  return (
    <Box borderStyle="round" borderColor="yellow" paddingX={1} flexDirection="column">
      <Text>
        <Text color="yellow" bold>
          Allow {request.call.name}
        </Text>
        <Text> {args}</Text>
        <Text dimColor>{who}</Text>
        <Text>? </Text>
        <Text bold>[y]</Text>
        <Text>es / </Text>
        <Text bold>[n]</Text>
        <Text>o / </Text>
        <Text bold>[a]</Text>
        <Text>lways</Text>
      </Text>
    </Box>
  );
}
