/**
 * The transcript lines some run events leave (an interruption, the turn limit, a warning, an
 * error) and the line of an `@` attachment: one wording for the live transcript, the session file
 * (saved as notes, so a resumed session shows them) and a resumed transcript.
 */
import type { AgentEvent } from "../../src/protocol/events.js";
import type { AttachedBlock } from "../../src/protocol/attachment-blocks.js";
import type { ItemTone } from "./transcript-types.js";
import { shortId } from "../../src/session/ids.js";

/** `📎 attached lib/npm.js (526 lines)` — one attached file or directory. */
export function attachmentLine(f: AttachedBlock): string {
  const count = `${f.lines} ${f.directory ? "entries" : f.lines === 1 ? "line" : "lines"}`;
  return `📎 attached ${f.path}${f.directory ? "/" : ""} (${count}${f.truncated ? ", its head only" : ""})`;
}

/** The line `event` of the main agent leaves in the transcript; undefined for events that leave none of these. */
export function eventNote(event: AgentEvent): { text: string; tone: ItemTone } | undefined {
  switch (event.type) {
    case "agent_end":
      if (event.reason === "aborted") return { text: "⏹ interrupted — the run was stopped", tone: "warn" };
      if (event.reason === "max_iterations") return { text: `stopped after ${event.turns} turns (turn limit)`, tone: "warn" };
      return undefined;
    case "warning":
      return { text: `warning: ${event.message}`, tone: "warn" };
    case "error":
      return { text: `error: ${event.message}`, tone: "error" };
    case "background_delivery": {
      const which = event.childIds.map((id) => `[${shortId(id)}]`).join(", ");
      const what = event.childIds.length === 1 ? `background child ${which} ended; its report` : `background children ${which} ended; their reports`;
      return { text: event.startsTurn ? `↩ ${what} started a turn of the main agent` : `↩ ${what} went to the main agent`, tone: "dim" };
    }
    default:
      return undefined;
  }
}
