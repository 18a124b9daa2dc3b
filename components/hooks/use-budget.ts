/**
 * useBudgetQuestion: gives the session a budget asker (a BudgetBroker) while the screen is up, and
 * returns the question to show now. The tree's spend against its budget (the status bar's figure)
 * is one of the session's facts (useSession).
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import type { SessionFacts, TuiSession } from "../../src/host/tui-session.js";
import { BudgetBroker, type BudgetRequest } from "../state/budget-broker.js";

/**
 * The broker asking the person for `session`, and its current question. A question about the
 * session's budget carries the tree's spend now (`spentNow` from `spent`, the status bar's figure,
 * updated as other agents finish their requests); a child's own question keeps the spend it was asked at.
 */
export function useBudgetQuestion(session: TuiSession, spent: SessionFacts["treeSpent"]): { broker: BudgetBroker; request: BudgetRequest | undefined } {
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
  const spentNow = asked?.scope === "tree" ? spent[asked.reached.kind] : undefined;
  const request = useMemo(() => (asked && spentNow !== undefined ? { ...asked, spentNow } : asked), [asked, spentNow]);
  return { broker, request };
}
