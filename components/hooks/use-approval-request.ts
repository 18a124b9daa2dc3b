/**
 * useApprovalRequest: the approval request the modal should show now; useApprovalWaiting: which
 * agents have a question waiting (re-render when either changes). `WaitingForApproval` carries
 * that set down to the panes and child rows, which then say "waiting for approval".
 */
import { createContext, useCallback, useSyncExternalStore } from "react";
import type { ApprovalBroker, ApprovalRequest, WaitingCalls } from "../state/approval-broker.js";

/** The broker's current request, or undefined when nothing waits for an answer. */
export function useApprovalRequest(broker: ApprovalBroker): ApprovalRequest | undefined {
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.current(), [broker]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** Ids of the agents with a question waiting for the person. */
export function useApprovalWaiting(broker: ApprovalBroker): ReadonlySet<string> {
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.waiting(), [broker]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** Ids of the tool calls waiting for an answer (re-renders when they change). */
export function useApprovalWaitingCalls(broker: ApprovalBroker): WaitingCalls {
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.waitingCalls(), [broker]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * Tool calls waiting for an approval, for the call lines: such a call, and a main-agent call not
 * started while one of the main agent's calls waits (it runs after), show "waiting", not a spinner.
 */
export const CallsWaitingForApproval = createContext<WaitingCalls>({ calls: new Set(), main: false });

/** Agents waiting for an approval, for the panes and rows below the screen. */
export const WaitingForApproval = createContext<ReadonlySet<string>>(new Set());

/** How many requests wait behind the shown one (re-renders when the queue changes). */
export function useApprovalQueueLength(broker: ApprovalBroker): number {
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.waitingCount(), [broker]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
