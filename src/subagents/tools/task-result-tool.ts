/**
 * The `task_result` tool (issue #25 item 5): the main agent reads back a child's full final report
 * by its id — a report it saw truncated, or one from before a restart (`--continue`) — from the
 * child's session file, so nothing depends on this process having run the child.
 */
import { z } from "zod";
import { finalAssistantText } from "../../protocol/messages.js";
import type { Tool, ToolOutput } from "../../protocol/tool.js";
import { errorMessage } from "../../protocol/error-message.js";
import { isSafeSessionId } from "../../session/ids.js";
import type { SessionStore } from "../../session/store.js";
import { formatChildrenList } from "./task-refusals.js";
import type { RunningChildren } from "../runtime/running-children.js";

export const taskResultSchema = z.object({
  id: z.string().min(1).describe("The child session id from a task result (`child session <id>`)"),
});

export interface TaskResultToolOptions {
  store: SessionStore;
  /** This session's id: an unknown id lists this session's children. */
  parentSessionId?: string;
  /** Children running now (their report is not final yet). */
  running?: RunningChildren;
}

/** Creates the task_result tool over the session store. */
export function createTaskResultTool(options: TaskResultToolOptions): Tool<typeof taskResultSchema> {
  return {
    name: "task_result",
    description:
      "Read back the full final report of a child agent (started earlier with task) by its child session id — e.g. when its task result was truncated, or after the session was restarted. Returns the child's last report, its status and model.",
    schema: taskResultSchema,
    concurrent: true,
    readOnly: true,
    async execute(args) {
      return readChildReport(options, args.id.trim());
    },
  };
}

/** The tool result for child `id`: its status line and full final report, or an error naming the fix. */
export function readChildReport(options: TaskResultToolOptions, id: string): ToolOutput {
  const { store } = options;
  const children = () => formatChildrenList(options.parentSessionId === undefined ? [] : store.list({ parentId: options.parentSessionId, kind: "child" }));
  if (!isSafeSessionId(id)) return { output: `task_result: "${id}" is not a session id.\n${children()}`, isError: true };
  let header;
  try {
    header = store.readHeader(id);
  } catch (err) {
    return { output: `task_result: no child session "${id}" in ${store.dir} (${errorMessage(err)}).\n${children()}`, isError: true };
  }
  if (header.kind !== "child") return { output: `task_result: session ${id} is a main session, not a child.`, isError: true };
  if (options.running?.has(id)) return { output: `task_result: child ${id} is still running; its report comes back through the task call that started it.`, isError: true };
  let report: string;
  try {
    report = finalAssistantText(store.load(id).messages);
  } catch (err) {
    return { output: `task_result: cannot read child ${id}'s transcript ${store.path(id)}: ${errorMessage(err)}`, isError: true };
  }
  const status = store.list({ kind: "child" }).find((s) => s.id === id)?.status ?? "no status (running elsewhere or interrupted)";
  const head = `[task_result] child ${id} · ${header.profile ?? "general"} · ${status} · model ${header.model}`;
  if (report.trim() === "") {
    return { output: `${head}\n[task_result] this child has no final report (no text answer in its transcript ${store.path(id)}); continue it with task({resume: "${id}", prompt: "..."}).`, isError: true };
  }
  return { output: `${head}\n\n${report}`, isError: false };
}
