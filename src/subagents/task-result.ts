/**
 * taskResult: turns a child's outcome into the `task` tool result the parent model sees
 * (SPEC §3 table), plus the formatting shared by every row: usage line, resume hint, truncation.
 */
import type { ToolOutput } from "../protocol/tool.js";
import type { SubagentOutcome } from "./run-subagent.js";

/** Longest report passed back verbatim; longer ones are cut with a note naming the session file. */
export const MAX_TASK_OUTPUT = 30_000;

/**
 * The error for an `agent` name that matches no loaded profile. With `untrustedFiles` > 0 the
 * project has profiles that were not loaded because it is not trusted: the model is told so (and
 * that the user decides about trust), never invited to write profile files into that project.
 */
export function unknownAgentResult(name: string, available: readonly string[], untrustedFiles = 0): ToolOutput {
  if (untrustedFiles > 0) {
    const files = untrustedFiles === 1 ? "1 agent profile file" : `${untrustedFiles} agent profile files`;
    const loaded = available.length === 0 ? "No agents are loaded." : `Available agents: ${available.join(", ")}.`;
    return {
      output: `unknown agent "${name}". ${loaded} This project has ${files} that were not loaded because the project is not trusted; only the user can trust it (answer y to Ink's trust question, or restart with --trust). Do not create or edit profile files; omit agent to use the general-purpose subagent.`,
      isError: true,
    };
  }
  const output =
    available.length === 0
      ? `unknown agent "${name}". No agents are defined (create .ink/agents/*.md or ~/.ink/agents/*.md).`
      : `unknown agent "${name}". Available agents: ${available.join(", ")}. Omit agent to use the general-purpose subagent.`;
  return { output, isError: true };
}

/** The tool result for a finished child run. */
export function taskResult(outcome: SubagentOutcome, options: { maxChars?: number } = {}): ToolOutput {
  const text = truncate(outcome.text, outcome, options.maxChars ?? MAX_TASK_OUTPUT);
  const footer = [usageLine(outcome), resumeHint(outcome)].filter(Boolean).join("\n");
  const join = (...parts: Array<string | undefined>) => parts.filter((p) => p && p.trim() !== "").join("\n\n");
  switch (outcome.status) {
    case "ok":
      if (!text) return { output: join(`[task] the child finished after ${outcome.turns} turns without a final text answer; nothing to report.`, footer), isError: true };
      return { output: join(text, footer), isError: false };
    case "aborted":
    case "timeout": {
      const why = outcome.status === "timeout" ? `[task] stopped: the child ${outcome.reason ?? "timed out"} (${outcome.turns} turns).` : `[task] stopped: ${outcome.reason ?? "the parent run was aborted"} (${outcome.turns} turns).`;
      return { output: join(text ? `${text}\n\n[task] partial text above; the child did not finish.` : undefined, why, footer), isError: true };
    }
    case "crash":
      if (!text) return { output: join(`[task] child failed after ${outcome.turns} turns: ${outcome.reason ?? "unknown error"}`, footer), isError: true };
      return { output: join(text, `[task] child failed after ${outcome.turns} turns: ${outcome.reason ?? "unknown error"}; partial result above.`, footer), isError: false };
  }
}

function usageLine(o: SubagentOutcome): string {
  const u = o.usage;
  const cache = u.cacheRead || u.cacheWrite ? `, cache ${u.cacheRead} read / ${u.cacheWrite} written` : "";
  return `[task] ${o.status} · ${o.turns} turn${o.turns === 1 ? "" : "s"} · ${(o.durationMs / 1000).toFixed(1)}s · tokens ${u.input} in / ${u.output} out${cache}`;
}

function resumeHint(o: SubagentOutcome): string | undefined {
  if (!o.sessionId) return undefined;
  const where = o.historyPath ? ` (history: ${o.historyPath})` : "";
  return `[task] child session ${o.sessionId}${where}; continue it with task({resume: "${o.sessionId}", prompt: "..."})`;
}

function truncate(text: string, o: SubagentOutcome, max: number): string {
  if (text.length <= max) return text;
  const where = o.historyPath ? `the child's session file ${o.historyPath}` : "the child's session";
  return `${text.slice(0, max)}\n\n[task] report truncated: showing the first ${max} of ${text.length} characters; the full text is in ${where}.`;
}
