/**
 * A child resumed by the person (from the sidebar), run through the same task tool the model uses:
 * the same checks, lock, live events (as a `task` tool call) and result. The person's stop reaches
 * the child as "stopped by the user"; before the child has started, it cancels the run instead.
 */
import type { AgentEvent } from "../protocol/events.js";
import type { ToolCall, ToolResult } from "../protocol/messages.js";
import type { AnyTool, ToolOutput } from "../protocol/tool.js";
import { errorMessage } from "../protocol/error-message.js";
import type { TaskDetails } from "./task-tool.js";
import type { TaskRecord } from "../session/types.js";

export interface PersonResumeOptions {
  task: AnyTool;
  childId: string;
  prompt: string;
  cwd: string;
  /** Stops the child if it runs; false when it is not running (yet). */
  stopChild: (childId: string) => boolean;
  signal?: AbortSignal;
  emit: (event: AgentEvent) => void;
  toolCallId?: string;
  /** Called with the run's task record (when it has one) before the call's end event. */
  onRecord?: (record: TaskRecord, output: ToolOutput) => void;
}

/** Runs the resume as a `task` call; never throws (failures come back as an error result). */
export async function runPersonResume(o: PersonResumeOptions): Promise<ToolResult> {
  const call: ToolCall = { type: "toolCall", id: o.toolCallId ?? `resume-${o.childId}-${Date.now()}`, name: "task", arguments: { prompt: o.prompt, resume: o.childId } };
  const started = Date.now();
  o.emit({ type: "tool_start", call });
  const cancel = new AbortController();
  const onStop = () => {
    if (!o.stopChild(o.childId)) cancel.abort();
  };
  o.signal?.addEventListener("abort", onStop, { once: true });
  if (o.signal?.aborted) cancel.abort();
  let output: ToolOutput;
  try {
    output = await o.task.execute(o.task.schema.parse(call.arguments), { signal: cancel.signal, cwd: o.cwd, toolCallId: call.id, emit: o.emit });
  } catch (err) {
    output = { output: `task: ${errorMessage(err)}`, isError: true };
  } finally {
    o.signal?.removeEventListener("abort", onStop);
  }
  const result: ToolResult = { toolCallId: call.id, toolName: "task", content: output.output, isError: output.isError };
  const record = (output.details as TaskDetails | undefined)?.taskRecord;
  if (record) o.onRecord?.(record, output);
  o.emit({ type: "tool_end", call, result, details: output.details, durationMs: Date.now() - started });
  return result;
}
