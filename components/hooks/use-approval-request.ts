/**
 * useApprovalRequest: the approval request the modal should show now; useApprovalWaiting: which
 * agents have a question waiting; useApprovalWaitingCalls: which tool calls wait (re-render when
 * any changes). The screen passes the sets down as props (ScreenBody → LiveItems → PaneGroup, the
 * panes and child rows, and each call's hold), which then say "waiting for approval".
 */
import { useCallback, useSyncExternalStore } from "react";
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

/** How many requests wait behind the shown one (re-renders when the queue changes). */
export function useApprovalQueueLength(broker: ApprovalBroker): number {
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.waitingCount(), [broker]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
