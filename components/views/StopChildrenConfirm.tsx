/**
 * StopChildrenConfirm: "Stop 3 running children? y/n", asked by Ctrl-C on an empty prompt while
 * children run. Keys are guarded like an approval's (approval-keys.ts): only a lone y / n / Esc
 * pressed once the question has settled answers it; type-ahead goes to the prompt's draft.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { approvalKey, DEFAULT_APPROVAL_TIMING, initialApprovalKeys, type ApprovalKeyState, type ApprovalTiming } from "../state/approval-keys.js";
import { useRawInput } from "../hooks/use-raw-input.js";

/** Rows the question takes (border included). */
export const STOP_CONFIRM_ROWS = 3;

export interface StopChildrenConfirmProps {
  count: number;
  /** What y does after stopping them (`exit`, `rewind to before turn 3`): the question says so. */
  then?: string;
  /** true: stop them; false: keep them running. */
  onAnswer: (stop: boolean) => void;
  width?: number;
  timing?: ApprovalTiming;
  /** When the prompt was last typed into (a question shown mid-typing takes no keys for a while). */
  typedAt?: number;
  onTypeAhead?: (raw: string) => void;
}

/** The question and its key handler. */
export function StopChildrenConfirm({ count, then, onAnswer, width = 100, timing = DEFAULT_APPROVAL_TIMING, typedAt = 0, onTypeAhead }: StopChildrenConfirmProps) {
  const keys = useRef<ApprovalKeyState | undefined>(undefined);
  keys.current ??= initialApprovalKeys(timing.now(), typedAt);
  const [diverted, setDiverted] = useState(false);
  const answered = useRef(false);
  useRawInput((raw) => {
      if (answered.current) return onTypeAhead?.(raw);
    const step = approvalKey(keys.current!, raw, false, timing);
    // Only yes and no mean something here: any other stage (a, r) stays at the question.
    keys.current = { ...step.state, stage: { kind: "question" } };
    if (step.answer && (step.answer.answer === "yes" || step.answer.answer === "no") && step.answer.reason === undefined) {
      answered.current = true;
      onAnswer(step.answer.answer === "yes");
    }
    if (step.state.diverted) setDiverted(true);
    if (step.toDraft !== undefined) onTypeAhead?.(step.toDraft);
  }, { sync: true });
  return (
    <Box borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text wrap="truncate-end">
        <Text color="yellow" bold>
          {then ? `${count} ${count === 1 ? "child is" : "children are"} still running. Stop ${count === 1 ? "it" : "them"} and ${then}? y/n` : `Stop ${count} running ${count === 1 ? "child" : "children"}? y/n`}
        </Text>
        <Text dimColor> ({then === "exit" ? "each stays resumable; n: stay" : then ? "each stays resumable; n: nothing is done" : "n: they keep working in the background; each stays resumable"}){diverted ? " · your typing went to the prompt" : ""}</Text>
      </Text>
    </Box>
  );
}
