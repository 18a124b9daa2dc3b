/**
 * A child resumed by the person (from the sidebar) or started by a forked slash command, run
 * through the same task tool the model uses:
 * the same checks, lock, live events (as a `task` tool call) and result. The person's stop reaches
 * the child as "stopped by the user"; before the child has started, it cancels the run instead.
 */
import type { AgentEvent } from "../../protocol/events.js";
import type { ToolCall, ToolResult } from "../../protocol/messages.js";
import type { AnyTool, ToolOutput } from "../../protocol/tool.js";
import { errorMessage } from "../../protocol/error-message.js";
import type { TaskDetails } from "../../session/types.js";
import type { TaskRecord } from "../../session/types.js";

/** A `task` run the person started: a resume (`args.resume`), or a new child (a forked slash command; `args.agent` optional). */
export interface PersonTaskOptions {
  task: AnyTool;
  args: { prompt: string; resume?: string; agent?: string };
  cwd: string;
  /** Stops the child if it runs; false when it is not running (yet). */
  stopChild: (childId: string) => boolean;
  signal?: AbortSignal;
  emit: (event: AgentEvent) => void;
  toolCallId?: string;
  /** Called with the run's task record (when it has one) before the call's end event. */
  onRecord?: (record: TaskRecord, output: ToolOutput) => void;
}

/**
 * Runs a `task` call the person started (not the model), emitting it as a tool call with its live
 * child events. The person's stop reaches the running child as "stopped by the user"; before it
 * has started, it cancels the run. Never throws (failures come back as an error result).
 */
export async function runPersonTask(o: PersonTaskOptions): Promise<ToolResult> {
  const call: ToolCall = { type: "toolCall", id: o.toolCallId ?? `person-task-${Date.now()}`, name: "task", arguments: { ...o.args } };
  const started = Date.now();
  let childId = o.args.resume;
  const emit = (event: AgentEvent) => {
    if (event.type === "subagent_start" && event.parentToolCallId === call.id) childId = event.childId;
    o.emit(event);
  };
  emit({ type: "tool_start", call });
  const cancel = new AbortController();
  const onStop = () => {
    if (childId === undefined || !o.stopChild(childId)) cancel.abort();
  };
  o.signal?.addEventListener("abort", onStop, { once: true });
  if (o.signal?.aborted) cancel.abort();
  let output: ToolOutput;
  try {
    output = await o.task.execute(o.task.schema.parse(call.arguments), { signal: cancel.signal, cwd: o.cwd, toolCallId: call.id, emit });
  } catch (err) {
    output = { output: `task: ${errorMessage(err)}`, isError: true };
  } finally {
    o.signal?.removeEventListener("abort", onStop);
  }
  const result: ToolResult = { toolCallId: call.id, toolName: "task", content: output.output, isError: output.isError };
  const record = (output.details as TaskDetails | undefined)?.taskRecord;
  if (record) o.onRecord?.(record, output);
  emit({ type: "tool_end", call, result, details: output.details, durationMs: Date.now() - started });
  return result;
}
