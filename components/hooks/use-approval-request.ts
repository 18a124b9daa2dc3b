/** useApprovalRequest: the approval request the modal should show now (re-renders when it changes). */
import { useCallback, useSyncExternalStore } from "react";
import type { ApprovalBroker, ApprovalRequest } from "./approval-broker.js";

/** The broker's current request, or undefined when nothing waits for an answer. */
export function useApprovalRequest(broker: ApprovalBroker): ApprovalRequest | undefined {
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.current(), [broker]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** How many requests wait behind the shown one (re-renders when the queue changes). */
export function useApprovalWaiting(broker: ApprovalBroker): number {
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.waitingCount(), [broker]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
