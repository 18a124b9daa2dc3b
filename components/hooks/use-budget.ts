/**
 * useBudgetQuestion: gives the session a budget asker (a BudgetBroker) while the screen is up, and
 * returns the question to show now; useTreeBudget: the session tree's spend against its budget
 * for the status bar (re-renders when it changes).
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import type { AgentSession } from "../../src/host/agent-session.js";
import type { TreeBudgetView } from "../../src/subagents/runtime/tree-budget.js";
import { BudgetBroker, type BudgetRequest } from "../state/budget-broker.js";

/**
 * The broker asking the person for `session`, and its current question. A question about the
 * session's budget carries the tree's spend now (`spentNow`, the status bar's figure, updated as
 * other agents finish their requests); a child's own question keeps the spend it was asked at.
 */
export function useBudgetQuestion(session: AgentSession): { broker: BudgetBroker; request: BudgetRequest | undefined } {
  const broker = useMemo(() => new BudgetBroker(), []);
  useEffect(() => {
    session.setBudgetAsk(broker.ask, (id, answer) => broker.answer(id, answer));
    return () => {
      session.setBudgetAsk(undefined);
      broker.cancelAll();
    };
  }, [session, broker]);
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.current(), [broker]);
  const asked = useSyncExternalStore(subscribe, snapshot, snapshot);
  const kind = asked?.scope === "tree" ? asked.reached.kind : undefined;
  const subscribeTree = useCallback((listener: () => void) => session.treeBudget.subscribe(listener), [session]);
  const spentSnapshot = useCallback(() => (kind ? session.treeBudget.spent(kind) : undefined), [session, kind]);
  const spentNow = useSyncExternalStore(subscribeTree, spentSnapshot, spentSnapshot);
  const request = useMemo(() => (asked && spentNow !== undefined ? { ...asked, spentNow } : asked), [asked, spentNow]);
  return { broker, request };
}

/** `$0.42 / $2.00` while the settings set a budget for the session tree; undefined otherwise. */
export function useTreeBudget(session: AgentSession): TreeBudgetView | undefined {
  const subscribe = useCallback((listener: () => void) => session.treeBudget.subscribe(listener), [session]);
  const snapshot = useCallback(() => session.treeBudget.view(), [session]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
