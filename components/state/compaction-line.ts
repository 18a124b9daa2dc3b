/** The one dim line a context compaction (main agent or child) leaves in the transcript or pane. */
import type { CompactionEvent } from "../../src/core/compaction.js";
import { formatTokens } from "./format.js";
import type { ItemTone } from "./transcript-types.js";

/** The line for a finished compaction; `compaction_start` gives none (the status bar shows it). */
export function compactionLine(event: CompactionEvent): { text: string; tone: ItemTone } | undefined {
  if (event.type !== "compaction_end") return undefined;
  const why = event.reason === "overflow" ? " (the model said the context was too long)" : "";
  if (!event.ok) return { text: `✂ context compaction failed${why}: ${event.error}`, tone: "warn" };
  const n = event.replacedCount;
  return { text: `✂ context compacted: ${n} message${n === 1 ? "" : "s"} summarised (${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens)${why}`, tone: "dim" };
}
