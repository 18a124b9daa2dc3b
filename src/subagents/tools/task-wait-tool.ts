/**
 * The main agent's side of background children: `task_wait {ids?, timeoutMs?}` waits for
 * background children and returns each report as it arrives (completion order), and the
 * delivery note that carries finished reports into its next request (LoopOptions.takeMessages).
 * A report returned either way is taken from the registry, so it is never delivered twice.
 */
import { z } from "zod";
import type { SteerMessage } from "../../core/loop.js";
import { formatBackgroundReports, type BackgroundReport } from "../../protocol/background-report.js";
import type { Tool } from "../../protocol/tool.js";
import type { BackgroundChildren, ChildRow } from "../runtime/background-children.js";
import { MAX_TIMEOUT_MS } from "../profiles/profile-schema.js";
import { childTitle } from "../runtime/child-label.js";
import { shortId } from "../../session/ids.js";

export const taskWaitSchema = z.object({
  ids: z.array(z.string().min(1)).optional().describe("Child ids to wait for (from the background task results); omit to wait for every background child"),
  timeoutMs: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().describe("Stop waiting after this many ms and return what arrived (children keep running)"),
});

/** The reports waiting in `children` as one message for the main agent's next turn boundary (none: []). */
export function takeDeliveries(children: BackgroundChildren, startsTurn = false): SteerMessage[] {
  const reports = children.take();
  if (reports.length === 0) return [];
  const content = formatBackgroundReports(reports);
  return [{ text: content, from: "parent", content, event: { type: "background_delivery", childIds: reports.map((r) => r.childId), startsTurn } }];
}

/** `task_wait`, bound to the session's children. */
export function createTaskWaitTool(children: BackgroundChildren): Tool<typeof taskWaitSchema> {
  return {
    name: "task_wait",
    description:
      "Wait for subagents you started with task({background: true}) and get their reports, each as soon as it arrives (completion order). " +
      "Omit ids to wait for all of them; with timeoutMs, returns what arrived by then and says which are still running. A report returned here is not delivered again.",
    schema: taskWaitSchema,
    concurrent: true,
    readOnly: true,
    async execute(args, ctx) {
      const { reports, pending, unknown, delivered } = await children.wait({
        ids: args.ids,
        timeoutMs: args.timeoutMs,
        signal: ctx.signal,
        onReport: (r) => ctx.onUpdate?.(`child ${r.childId} ended (${r.status})`),
      });
      return { output: waitOutput(reports, pending, unknown, delivered, ctx.signal.aborted), isError: reports.length === 0 && (unknown.length > 0 || pending.length > 0) };
    },
  };
}

function waitOutput(reports: BackgroundReport[], pending: string[], unknown: string[], delivered: string[], aborted: boolean): string {
  const parts: string[] = [];
  if (reports.length > 0) parts.push(formatBackgroundReports(reports));
  if (reports.length === 0 && pending.length === 0 && unknown.length === 0 && delivered.length === 0) parts.push("[task_wait] no background children to wait for.");
  if (delivered.length > 0) parts.push(`[task_wait] already delivered earlier: ${delivered.join(", ")}.`);
  if (unknown.length > 0) parts.push(`[task_wait] unknown child id(s): ${unknown.join(", ")} — use the ids from the background task results.`);
  if (pending.length > 0) parts.push(`[task_wait] ${aborted ? "stopped waiting" : "timed out"}; still running: ${pending.join(", ")} (their reports will be delivered when they end).`);
  return parts.join("\n\n");
}

/**
 * `/tasks`: one line per child of this session (newest last), named as its row names it: profile,
 * description (else its prompt's first words) and short id — `bg scout · find the login handler [ab12cd] running 12s`.
 */
export function formatChildRows(rows: readonly ChildRow[], now: number): string[] {
  if (rows.length === 0) return ["no background children in this session"];
  return rows.map((r) => {
    const state = r.state === "running" ? `running ${Math.round((now - r.startedAt) / 1000)}s` : r.state === "done" ? `${r.status} · report waiting` : `${r.status} · delivered`;
    return `${r.background ? "bg" : "fg"} ${childTitle(r)} [${shortId(r.childId)}] · ${state}`;
  });
}
