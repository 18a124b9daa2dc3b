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
