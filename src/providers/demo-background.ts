/**
 * The demo model's background delegation: a request that says "in the background" starts its
 * children with `background: true` (each with a short description) and the main agent's turn
 * ends at once with a note that their reports will come; a user message carrying background
 * reports (`<background-report …>`, delivered by Ink when a child ends) is answered with a short
 * summary of each report — the same key line and files the foreground summary quotes.
 */
import { backgroundReportIds } from "../protocol/background-report.js";
import type { CallWithResult, DemoContext } from "./demo-conversation.js";
import type { DemoReply } from "./demo-stream.js";

const IN_BACKGROUND = /\b(?:in|into|to) the background\b|\bas background (?:tasks?|children|jobs?)\b/gi;

/** True when the person asked for the work to run in the background. */
export function wantsBackground(prompt: string): boolean {
  IN_BACKGROUND.lastIndex = 0;
  return IN_BACKGROUND.test(prompt);
}

/** `prompt` without its "in the background" phrase (so it is not taken as a search term). */
export function withoutBackgroundPhrase(prompt: string): string {
  return prompt.replace(IN_BACKGROUND, " ");
}

/** True when every result of the last exchange says its child went to the background. */
export function allStartedInBackground(calls: readonly CallWithResult[]): boolean {
  return calls.length > 0 && calls.every((c) => c.call.name === "task" && c.result !== undefined && !c.result.isError && /running in the background/.test(c.result.content));
}

/** The reply after background children started: the turn ends; their reports will arrive. */
export function backgroundStartedReply(calls: readonly CallWithResult[], topic: string): DemoReply {
  const ids = calls.map((c) => /child (\S+) is running/.exec(c.result?.content ?? "")?.[1]).filter((id): id is string => id !== undefined);
  const n = calls.length;
  return {
    text: `${n === 1 ? "One subagent is" : `${n} subagents are`} investigating ${topic} in the background${ids.length > 0 ? ` (${ids.map((id) => `\`${id}\``).join(", ")})` : ""}. Their reports will come here by themselves when they end — ask me anything meanwhile, or focus a child's pane (Tab) and type to correct it.`,
    calls: [],
  };
}

/** One report parsed out of a `<background-report>` note. */
interface ParsedReport {
  childId: string;
  status: string;
  task: string;
  body: string;
}

function parseReports(text: string): ParsedReport[] {
  const out: ParsedReport[] = [];
  for (const m of text.matchAll(/<background-report child="([^"]*)"[^>]*status="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/background-report>/g)) {
    const inner = m[3]!;
    const task = /Its task was: ("(?:[^"\\]|\\.)*")/.exec(inner)?.[1];
    const body = inner.replace(/^[\s\S]*?Its report:\n/, "");
    out.push({ childId: m[1]!, status: m[2]!, task: task ? (JSON.parse(task) as string) : "", body });
  }
  return out;
}

/** True when the request's last user message carries background reports. */
export function carriesBackgroundReports(context: DemoContext): boolean {
  return context.lastRole === "user" && backgroundReportIds(context.prompt).length > 0;
}

/**
 * The answer to delivered background reports (`note`, the text carrying them): for each, its task, status, key line and files
 * (`keyLine` and `pathsIn` are the foreground summary's own readers).
 */
export function summariseBackgroundReports(note: string, keyLine: (text: string) => string, pathsIn: (text: string) => string[], labelOf: (task: string) => string): DemoReply {
  const reports = parseReports(note);
  const out: string[] = [reports.length === 1 ? "A background subagent has reported:" : `${reports.length} background subagents have reported:`];
  for (const r of reports) {
    out.push("", `**${labelOf(r.task)}** (\`${r.childId}\`) — ${r.status === "ok" ? "done" : r.status}`);
    const line = keyLine(r.body);
    if (line !== "") out.push(`> ${line}`);
    const paths = r.status === "ok" ? pathsIn(r.body) : [];
    if (paths.length > 0) out.push(`Files: ${paths.map((p) => `\`${p}\``).join(", ")}`);
  }
  return { text: out.join("\n"), calls: [] };
}
