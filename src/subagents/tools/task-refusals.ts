/**
 * The `task` tool's refusals: every result it gives without running a child (bad arguments, an
 * unknown agent, a resume that cannot go ahead, a child that could not start; the parent's abort before the start is in runtime/child-job.ts). Each says what
 * was wrong and what the model can do instead. The results of a child run are in task-result.ts.
 */
import type { ToolOutput } from "../../protocol/tool.js";
import type { ToolCall, ToolResult } from "../../protocol/messages.js";
import { emptyUsage } from "../../protocol/messages.js";
import { NOT_STARTED_STATUS, REFUSED_STATUS, type SessionSummary, type TaskRecord } from "../../session/types.js";
import type { NotStartedDetails } from "../runtime/child-job.js";
import { safeCut } from "./task-result.js";

/** Children listed after an unknown resume id; the rest are counted. */
export const MAX_CHILDREN_LISTED = 20;
/** Characters of a child's task shown in that list. */
const CHILD_PROMPT_CHARS = 80;

/** `agent` and/or `worktree` were passed together with `resume` (names each one passed). */
export function resumeCombinedResult(args: { agent?: unknown; worktree?: unknown; model?: unknown; thinking?: unknown }): ToolOutput {
  const names = [args.agent !== undefined && "agent", args.worktree !== undefined && "worktree", args.model !== undefined && "model", args.thinking !== undefined && "thinking"].filter((n): n is string => Boolean(n));
  const bad = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  return { output: `task: ${bad} cannot be combined with resume — a resumed child keeps its profile, model, thinking and working directory. Pass only resume and prompt.`, isError: true };
}

/** A prompt of only whitespace, for a new (`resumed` false) or a resumed child. */
export function emptyPromptResult(resumed: boolean): ToolOutput {
  return { output: `task: the prompt is empty (only whitespace); say what the ${resumed ? "resumed child should do next" : "child should do and what to report"}.`, isError: true };
}

/** A problem found before the child started (profile tools or model, worktree creation, session file): `task: <message>`. */
export function notStartedResult(message: string): ToolOutput {
  return { output: `task: ${message}`, isError: true };
}

/**
 * The error for an `agent` name that matches no loaded profile. With `untrustedFiles` > 0 the
 * project has profiles that were not loaded because it is not trusted: the model is told so (and
 * that the user decides about trust), never invited to write profile files into that project.
 */
export function unknownAgentResult(name: string, available: readonly string[], untrustedFiles = 0): ToolOutput {
  const loaded = available.length === 0 ? "No agents are loaded." : `Available agents: ${available.join(", ")}.`;
  if (untrustedFiles > 0) {
    const files = untrustedFiles === 1 ? "1 agent profile file" : `${untrustedFiles} agent profile files`;
    return {
      output: `unknown agent "${name}". ${loaded} This project has ${files} that were not loaded because the project is not trusted; only the user can trust it (answer y to Ink's trust question, or restart with --trust). Do not create or edit profile files; omit agent to use the general-purpose subagent.`,
      isError: true,
    };
  }
  // With no agents at all the seed's text: where profiles go.
  if (available.length === 0) return { output: `unknown agent "${name}". No agents are defined (create .ink/agents/*.md or ~/.ink/agents/*.md).`, isError: true };
  return { output: `unknown agent "${name}". ${loaded} Omit agent to use the general-purpose subagent.`, isError: true };
}

/** A refused resume: `cannot resume child <id>:` with every reason, the children list when given, and the way forward. */
/** `task` with `resume` on a child that is still running: the prompt was queued as a message for it. */
export function messageQueuedResult(id: string): ToolOutput {
  return {
    output: `[task] child ${id} is still running: your message was queued and enters its conversation at its next step (never mid tool call). Its report comes back through the task call that started it; do not start it again.`,
    isError: false,
  };
}

export function resumeRefusedResult(id: string, reasons: readonly string[], children?: string): ToolOutput {
  const lines = [`cannot resume child ${id}:`, ...reasons.map((r) => `- ${r}`)];
  if (children !== undefined) lines.push(children);
  lines.push("Start a new task instead (without resume), giving it the context it needs.");
  return { output: lines.join("\n"), isError: true };
}

/**
 * "This session's children:" then one `- <id> · <status> · <agent> · "<start of the task>"` line
 * each (at most MAX_CHILDREN_LISTED, then "… and N more"; the task cut on a code-point boundary),
 * or a line saying there are none.
 */
export function formatChildrenList(rows: readonly Pick<SessionSummary, "id" | "status" | "profile" | "prompt">[]): string {
  if (rows.length === 0) return "This session has no saved children.";
  const shown = rows.slice(0, MAX_CHILDREN_LISTED).map((r) => {
    const prompt = (r.prompt ?? "").replace(/\s+/g, " ").trim();
    const cut = prompt.length > CHILD_PROMPT_CHARS ? `${prompt.slice(0, safeCut(prompt, CHILD_PROMPT_CHARS - 1))}…` : prompt;
    return `- ${r.id} · ${r.status ?? "no status (running or interrupted)"} · ${r.profile ?? "general"} · "${cut}"`;
  });
  const more = rows.length > MAX_CHILDREN_LISTED ? [`… and ${rows.length - MAX_CHILDREN_LISTED} more`] : [];
  return ["This session's children:", ...shown, ...more].join("\n");
}

/** Characters of a refusal kept in its task record. */
const REFUSAL_CHARS = 500;

/**
 * The parent's record of a `task` call that ended without a child run. Refused (bad arguments, an
 * unknown agent, a profile or model error, a refused resume, a worktree that could not be made):
 * status `refused`. Stopped while it waited to start (`details` of abortedBeforeStartResult):
 * status `cancelled`. `noTranscript` says why there is no child transcript (the result's text).
 */
export function childlessTaskRecord(call: ToolCall, result: ToolResult, durationMs: number, details?: unknown): TaskRecord {
  const args = call.arguments as Record<string, unknown>;
  const text = result.content.replace(/\s+/g, " ").trim();
  const why = text.length > REFUSAL_CHARS ? `${text.slice(0, safeCut(text, REFUSAL_CHARS - 1))}…` : text;
  const stopped = (details as Partial<NotStartedDetails> | undefined)?.stoppedBeforeStart === true;
  return {
    childId: typeof args.resume === "string" ? args.resume : "",
    toolCallId: call.id,
    ...(typeof args.agent === "string" ? { profile: args.agent } : {}),
    status: stopped ? NOT_STARTED_STATUS : REFUSED_STATUS,
    turns: 0,
    usage: emptyUsage(),
    durationMs,
    prompt: typeof args.prompt === "string" ? args.prompt : "",
    noTranscript: stopped ? `the call was stopped before its child started: ${why}` : `the call was refused before a child started: ${why}`,
  };
}
