/**
 * Tool-call ids made unique. A model server that sends one id twice (in one message, or again in
 * a later one) would make the history invalid for the provider — and a saved session unresumable.
 * The loop renames such a call before anything is saved (`uniqueCallIds`); a session file that
 * already holds duplicates is renamed the same way on load (`uniqueToolIds`), each result paired
 * with its call by order. Pure; inputs are never mutated.
 */
import { toolCallsOf, type AgentMessage, type AssistantMessage, type ToolResultMessage } from "./messages.js";

/** A fresh id based on `id` that is not in `taken`. */
function freshId(id: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const candidate = `${id}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * `message` with every tool-call id already in `seen` (or earlier in the message) renamed; `seen`
 * gains the message's ids. Returns the same object when nothing was renamed, and the renames in call order.
 */
export function uniqueCallIds(message: AssistantMessage, seen: Set<string>): { message: AssistantMessage; renamed: Array<{ from: string; to: string }> } {
  const renamed: Array<{ from: string; to: string }> = [];
  const content = message.content.map((block) => {
    if (block.type !== "toolCall") return block;
    if (!seen.has(block.id)) {
      seen.add(block.id);
      return block;
    }
    const to = freshId(block.id, seen);
    seen.add(to);
    renamed.push({ from: block.id, to });
    return { ...block, id: to };
  });
  return renamed.length === 0 ? { message, renamed } : { message: { ...message, content }, renamed };
}

/** The tool-call ids of a history that grows by appends, for `uniqueCallIds` once per model call. */
export interface CallIdIndex {
  /**
   * Every tool-call id in the history now. Reads only the messages appended since the last call;
   * reads the whole history again when it was rewritten meanwhile (shorter, or its first or last
   * read message replaced — compaction splices in a summary). The set is the index's own: ids a
   * caller adds (uniqueCallIds) count until the next rewrite.
   */
  ids(): Set<string>;
  /** Messages read so far, re-reads included (tests: a long run reads each message about once). */
  readonly reads: number;
}

/** An index of `history`'s tool-call ids, read lazily on the first `ids()`. */
export function createCallIdIndex(history: readonly AgentMessage[]): CallIdIndex {
  let ids = new Set<string>();
  let count = 0;
  let first: AgentMessage | undefined;
  let last: AgentMessage | undefined;
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    ids() {
      if (count > history.length || (count > 0 && (history[0] !== first || history[count - 1] !== last))) {
        ids = new Set();
        count = 0;
      }
      for (; count < history.length; count++) {
        const m = history[count]!;
        reads++;
        if (m.role === "assistant") for (const c of toolCallsOf(m)) ids.add(c.id);
      }
      first = history[0];
      last = history[count - 1];
      return ids;
    },
  };
}

/** `messages` with duplicate tool-call ids renamed and the results that follow each call paired by order; `notes` names each rename. */
export function uniqueToolIds(messages: readonly AgentMessage[], label: (index: number) => string = (i) => `message ${i}`): { messages: AgentMessage[]; notes: string[] } {
  const seen = new Set<string>();
  const out: AgentMessage[] = [];
  const notes: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant" || toolCallsOf(m).length === 0) {
      out.push(m);
      continue;
    }
    const originals = toolCallsOf(m).map((c) => c.id);
    const { message, renamed } = uniqueCallIds(m, seen);
    out.push(message);
    if (renamed.length === 0) continue;
    notes.push(`renamed tool call id(s) used twice in ${label(i)}: ${renamed.map((r) => `${r.from} → ${r.to}`).join(", ")}`);
    // The k-th result naming an id answers the k-th call that had that id in this message.
    const finals = toolCallsOf(message).map((c) => c.id);
    const pending = new Map<string, string[]>();
    originals.forEach((id, k) => pending.set(id, [...(pending.get(id) ?? []), finals[k]!]));
    while (i + 1 < messages.length && messages[i + 1]!.role === "toolResult") {
      const results = (messages[++i] as ToolResultMessage).results.map((r) => {
        const queue = pending.get(r.toolCallId);
        const to = queue?.shift();
        return to === undefined || to === r.toolCallId ? r : { ...r, toolCallId: to };
      });
      out.push({ role: "toolResult", results });
    }
  }
  return { messages: out, notes };
}
