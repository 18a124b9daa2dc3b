/**
 * Runs the person starts beside the main agent's prompts: a `!command` (a bash call of the main
 * agent that only deny rules refuse) and a `task` run (a child resumed from the sidebar, a forked
 * command file; see person-resume.ts). Each is recorded in the session file, and what it produced
 * waits (PendingNotes) to go to the main agent with the next user message.
 */
import { MAIN_AGENT } from "../core/loop.js";
import type { PendingNotes } from "../core/pending-notes.js";
import { runShellCommand } from "../core/shell-command.js";
import type { OnToolCall } from "../core/tool-runner.js";
import type { AgentEvent } from "../protocol/events.js";
import type { ToolResult } from "../protocol/messages.js";
import type { AnyTool } from "../protocol/tool.js";
import type { MainSessionFile } from "../session/main-session-file.js";
import { runPersonTask } from "../subagents/runtime/person-resume.js";

export interface PersonRunDeps {
  tools: readonly AnyTool[];
  cwd: string;
  pending: PendingNotes;
  /** The approval policy's personal check: deny rules only, never a question. */
  personal: OnToolCall;
  stopChild: (childId: string) => boolean;
  file?: MainSessionFile;
}

type RunOpts = { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void };

/** Runs `command` (typed after `!`) as the main agent's bash call; its note is queued and saved. Resolves with what the tool returned. */
export async function runPersonShell(d: PersonRunDeps, command: string, opts: RunOpts): Promise<ToolResult> {
  const { note, result, durationMs } = await runShellCommand({ command, tools: d.tools, cwd: d.cwd, agent: MAIN_AGENT, onToolCall: d.personal, signal: opts.signal, emit: (e) => opts.onEvent?.(e) });
  d.pending.shell.push(note);
  d.file?.recordLater({ type: "shell", ...note, ...(durationMs !== undefined ? { durationMs } : {}) }, opts.onEvent);
  return result;
}

/**
 * A `task` run the person started (a resume, or `command`'s forked child), live as a `task` call
 * with id `toolCallId`, recorded, with its report queued for the main agent. Never throws.
 */
export function runPersonTaskRun(d: PersonRunDeps, args: { prompt: string; resume?: string; agent?: string }, toolCallId: string, opts: RunOpts, command?: string): Promise<ToolResult> {
  const emit = (event: AgentEvent) => opts.onEvent?.(event);
  // The file is named by what the person typed: a forked command's name; a child's resume prompt is
  // not their question, so a file it creates waits for their first question (a `title` entry).
  d.file?.record(undefined, opts.onEvent, command);
  return runPersonTask({
    task: d.tools.find((t) => t.name === "task")!,
    args,
    cwd: d.cwd,
    stopChild: d.stopChild,
    signal: opts.signal,
    emit,
    toolCallId,
    onRecord: (record, out) => {
      d.file?.record({ type: "task_record", record }, emit);
      d.pending.reports.push({ childId: args.resume ?? record.sessionId ?? record.childId, profile: record.profile, prompt: args.prompt, ...(command ? { command } : {}), status: record.status, report: out.output });
    },
  });
}
