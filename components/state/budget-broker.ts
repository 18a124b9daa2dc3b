/**
 * BudgetBroker: the bridge between the core's budget question (`AskBudget`, asked from inside a
 * run when a child's or the session's budget is reached) and the question line in the UI. Questions
 * queue and are shown one at a time; leaving (or stopping the run) answers every open one "stop".
 */
import type { AskBudget, BudgetAnswer, BudgetQuestion } from "../../src/subagents/runtime/budget.js";

/** One open question. */
export interface BudgetRequest extends BudgetQuestion {
  id: number;
  /** The spend to show, when live (the tree's now, as the status bar shows it); else the question's `reached.spent`. */
  spentNow?: string;
}

interface Pending extends BudgetRequest {
  resolve: (answer: BudgetAnswer) => void;
}

export class BudgetBroker {
  private readonly queue: Pending[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  /** The `AskBudget` to give the session (session.setBudgetAsk): resolves when the person answers. */
  readonly ask: AskBudget = (question, signal) =>
    new Promise<BudgetAnswer>((resolve) => {
      const pending: Pending = { ...question, id: this.nextId++, resolve };
      this.queue.push(pending);
      // The asking run was stopped: the question goes away unanswered.
      signal.addEventListener("abort", () => this.drop(pending.id, "stop"), { once: true });
      this.notify();
    });

  /** The question to show now (stable identity until it changes). */
  current(): BudgetRequest | undefined {
    return this.queue[0];
  }

  /** Answers question `id`. */
  answer(id: number, answer: BudgetAnswer): void {
    this.drop(id, answer);
  }

  /** Answers every open question "stop" (the person stopped the run or leaves). */
  cancelAll(): void {
    for (const p of [...this.queue]) this.drop(p.id, "stop");
  }

  /** Calls `listener` whenever the queue changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private drop(id: number, answer: BudgetAnswer): void {
    const index = this.queue.findIndex((p) => p.id === id);
    if (index < 0) return;
    const [pending] = this.queue.splice(index, 1);
    pending!.resolve(answer);
    this.notify();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }
}
