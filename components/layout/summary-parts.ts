/**
 * A finished child's summary line as parts fitted into a width (fitRow): what SubagentSummary and
 * itemLines draw, each part with its own style.
 */
import { formatCost } from "../../src/core/pricing.js";
import { CHILD_GLYPH, plainFirstLine, turnsLabel } from "../state/child-status.js";
import { formatDuration, formatTokens, shortId, totalTokens } from "../state/format.js";
import type { ChildView } from "../state/transcript-types.js";
import { childReport } from "../state/child-reducer.js";
import { childDescription } from "../../src/subagents/runtime/child-label.js";
import { fitRow, GIVE_WAY } from "./fit-row.js";

/**
 * The summary's parts fitted into `width` columns (see fitRow): the tokens and the cost give way
 * first, then the duration and the turns, then the report's first line (cut to what is left,
 * dropped below 12 columns), then the status word and the profile; the description and the short id last.
 */
export function summaryParts(child: ChildView, result: string | undefined, width: number): { glyph: string; profile: string; description: string; stats: string; status: string; gist: string; id: string } {
  const what = childDescription(child);
  const profile = child.profile ?? "general";
  const cost = child.cost ? formatCost(child.cost) : "";
  const gist = child.status === "ok" ? plainFirstLine(childReport(child, result)) || plainFirstLine(result ?? "") : child.reason ?? plainFirstLine(result ?? "");
  const [glyph, prof, desc, status, turns, duration, tokens, price, line, id] = fitRow(
    [
      { text: `${CHILD_GLYPH[child.status]} `, priority: GIVE_WAY.id, keep: true },
      what ? { text: profile, priority: GIVE_WAY.profile, min: 4 } : { text: profile, priority: GIVE_WAY.description, keep: true, min: 4 },
      { text: what ? ` · ${what}` : "", priority: GIVE_WAY.description, keep: true, min: 8 },
      { text: child.status === "ok" ? "" : ` · ${child.status}`, priority: GIVE_WAY.alert },
      { text: ` · ${turnsLabel(child.turns)}`, priority: GIVE_WAY.cost },
      { text: ` · ${formatDuration(child.durationMs ?? 0)}`, priority: GIVE_WAY.cost },
      { text: ` · ${formatTokens(totalTokens(child.usage))} tokens`, priority: GIVE_WAY.tokens },
      { text: cost ? ` · ${cost}` : "", priority: GIVE_WAY.cost },
      { text: gist ? ` — ${gist}` : "", priority: GIVE_WAY.preview, min: 12, shrinkFirst: 32 },
      { text: ` [${shortId(child.childId)}]`, priority: GIVE_WAY.id, keep: true },
    ],
    width,
  ).map((p) => p.text) as [string, string, string, string, string, string, string, string, string, string];
  return { glyph, profile: prof, description: prof === "" ? desc.replace(/^ · /, "") : desc, status, stats: `${turns}${duration}${tokens}${price}`, gist: line, id };
}

