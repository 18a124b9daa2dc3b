/**
 * `!cmd` typed by the person: the command runs through the session's own bash tool (the same
 * process-group handling and output cap as a model's call) and the check it is given (the session
 * passes one where only deny rules refuse), and its output waits as a note (protocol/shell-note.ts)
 * that goes first in the next user message, so the model sees what the person ran.
 */
import type { AgentEvent, AgentInfo } from "../protocol/events.js";
import type { ToolResult } from "../protocol/messages.js";
import type { AnyTool } from "../protocol/tool.js";
import { runToolCalls, type OnToolCall } from "./tool-runner.js";
import type { ShellNote } from "../protocol/shell-note.js";

export { formatShellNote, splitShellNotes, withShellNotes, type ShellNote } from "../protocol/shell-note.js";

export interface ShellCommandOptions {
  command: string;
  tools: readonly AnyTool[];
  cwd: string;
  agent: AgentInfo;
  onToolCall?: OnToolCall;
  signal?: AbortSignal;
  /** The bash call's tool_start / tool_update / tool_end events (the transcript draws them as a tool line). */
  emit: (event: AgentEvent) => void;
}

let seq = 0;

/**
 * Runs `command` as a bash tool call of `agent` (`onToolCall` checks it first); resolves with the
 * note to pass on, the tool's result and how long the call took (from its tool_end). A refusal or
 * failure is a note too (isError).
 */
export async function runShellCommand(opts: ShellCommandOptions): Promise<{ note: ShellNote; result: ToolResult; durationMs?: number }> {
  let durationMs: number | undefined;
  const call = { type: "toolCall" as const, id: `user-shell-${Date.now().toString(36)}-${++seq}`, name: "bash", arguments: { command: opts.command } };
  const [result] = await runToolCalls([call], {
    tools: opts.tools,
    cwd: opts.cwd,
    agent: opts.agent,
    signal: opts.signal ?? new AbortController().signal,
    emit: (e) => {
      if (e.type === "tool_end") durationMs = e.durationMs;
      opts.emit(e);
    },
    onToolCall: opts.onToolCall,
  });
  return { note: { command: opts.command, output: result!.content, isError: result!.isError }, result: result!, durationMs };
}
