/**
 * What the transcript overlay shows for a child session: for a finished one (`childOverlay`) its
 * saved conversation (loaded and repaired by the session store) and, when this session saw the
 * child end, the result the task tool returned to the main agent; for a running one
 * (`liveChildOverlay`) its live view from the event stream. Loading problems become a clear
 * line, never a throw.
 */
import { finalAssistantText } from "../../src/protocol/messages.js";
import type { SessionStore } from "../../src/session/store.js";
import { formatDuration, shortId, truncate } from "./format.js";
import { childTitle } from "../../src/subagents/runtime/child-label.js";
import { rowAge, transcriptChildren, type SidebarRow } from "./sidebar-rows.js";
import { liveChildLines, sectionLines, transcriptLines } from "./transcript-lines.js";
import type { ChildView, TranscriptItem } from "./transcript-types.js";
import type { OverlayLine } from "./ui-reducer.js";
import { errorMessage } from "../../src/protocol/error-message.js";

/** The overlay's content: a title and the pre-wrapped lines. */
export interface OverlayView {
  title: string;
  lines: OverlayLine[];
}

/** Most columns of a child's title (profile · description) in an overlay title. */
const LABEL_TITLE_MAX = 40;
/** Most columns of a child's title in a prompt's label (`↻ resume …`, `✉ message …`), which shares the row with the typing. */
export const PROMPT_LABEL_TITLE_MAX = 24;

/** `general · find login handler [ab12cd]`: how the UI names a child (see childTitle), its title cut to `max` columns. */
export function childLabel(row: Pick<SidebarRow, "id" | "profile"> & { description?: string; prompt?: string }, max = LABEL_TITLE_MAX): string {
  return `${truncate(childTitle(row), max)} [${shortId(row.id)}]`;
}

/** The prompt label of child `id`: from its sidebar row when listed, else from the stream's view of it (a running pane's child). */
export function promptChildLabel(id: string, rows: readonly SidebarRow[], items: readonly TranscriptItem[]): string {
  const row = rows.find((r) => r.id === id) ?? transcriptChildren(items).find((r) => r.id === id);
  return childLabel(row ?? { id }, PROMPT_LABEL_TITLE_MAX);
}

/** The overlay title of a running child; `now` is the UI clock (ms) for its elapsed time. */
export function liveChildTitle(child: ChildView, now: number): string {
  return `${childLabel({ id: child.childId, profile: child.profile, description: child.description, prompt: child.prompt })} · running ${formatDuration(now - child.startedAt)} · live view`;
}

/** A running child's live view (title and lines wrapped to `width`). */
export function liveChildOverlay(child: ChildView, width: number, now: number): OverlayView {
  return { title: liveChildTitle(child, now), lines: liveChildLines(child, width) };
}

/** The overlay for saved child `row`, its lines wrapped to `width` columns; `now` in ms since the epoch. */
export function childOverlay(store: SessionStore | undefined, row: SidebarRow, width: number, now: number): OverlayView {
  const label = childLabel(row);
  const title = `${label} · ${row.status} · ${rowAge(row, now)} ago`;
  let lines: OverlayLine[];
  let report = "";
  if (!store) lines = [{ text: "This run does not save sessions, so the child's transcript is not available.", tone: "error" }];
  else {
    try {
      const loaded = store.load(row.id);
      report = finalAssistantText(loaded.messages).trim();
      lines = [...loaded.notes.map((text): OverlayLine => ({ text: `! ${text}`, tone: "dim" })), ...transcriptLines(loaded.messages, width)];
    } catch (err) {
      lines = [{ text: `cannot load the transcript of ${row.id}: ${errorMessage(err)}`, tone: "error" }];
    }
  }
  if (row.result !== undefined) {
    // The result usually starts with the child's last reply, already shown above: don't repeat it.
    const result = row.result.trim();
    const repeated = report !== "" && result.startsWith(report);
    const text = repeated ? `(the child's last reply above, then:)\n${result.slice(report.length).trim()}` : result;
    lines.push(...sectionLines("── result returned to the main agent ──", text, width));
  }
  return { title, lines };
}
