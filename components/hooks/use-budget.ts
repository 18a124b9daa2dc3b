/**
 * useBudgetQuestion: gives the session a budget asker (a BudgetBroker) while the screen is up, and
 * returns the question to show now; useTreeBudget: the session tree's spend against its budget
 * for the status bar (re-renders when it changes).
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import type { AgentSession } from "../../src/agent-session.js";
import type { TreeBudgetView } from "../../src/subagents/tree-budget.js";
import { BudgetBroker, type BudgetRequest } from "./budget-broker.js";

/** The broker asking the person for `session`, and its current question. */
export function useBudgetQuestion(session: AgentSession): { broker: BudgetBroker; request: BudgetRequest | undefined } {
  const broker = useMemo(() => new BudgetBroker(), []);
  useEffect(() => {
    session.setBudgetAsk(broker.ask);
    return () => {
      session.setBudgetAsk(undefined);
      broker.cancelAll();
    };
  }, [session, broker]);
  const subscribe = useCallback((listener: () => void) => broker.subscribe(listener), [broker]);
  const snapshot = useCallback(() => broker.current(), [broker]);
  const request = useSyncExternalStore(subscribe, snapshot, snapshot);
  return { broker, request };
}

/** `$0.42 / $2.00` while the settings set a budget for the session tree; undefined otherwise. */
export function useTreeBudget(session: AgentSession): TreeBudgetView | undefined {
  const subscribe = useCallback((listener: () => void) => session.treeBudget.subscribe(listener), [session]);
  const snapshot = useCallback(() => session.treeBudget.view(), [session]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
