/**
 * Background-child reports: what a child started (or moved) into the background reported when it
 * ended, and the note that carries it into the main agent's history — a user message of its own,
 * taken at a turn boundary (LoopOptions.takeMessages) or opening a main turn when the agent was idle.
 */

/** One background child's result, as its `task` call would have returned it. */
export interface BackgroundReport {
  childId: string;
  /** Profile name; undefined = the general-purpose subagent. */
  profile?: string;
  /** The prompt the child was given. */
  prompt: string;
  /** How the run ended (ok, aborted, timeout, crash). */
  status: string;
  /** The task tool's output for the run (taskResult: the report with its footer lines). */
  output: string;
  isError: boolean;
}

const OPEN = "<background-report";
const CLOSE = "</background-report>";

function attr(value: string): string {
  return value.replace(/["\n]/g, " ");
}

/** The note text for `reports` (each report's own closing tag, if any, is defused). */
export function formatBackgroundReports(reports: readonly BackgroundReport[]): string {
  return reports
    .map((r) => {
      const profile = r.profile ? ` profile="${attr(r.profile)}"` : "";
      const error = r.isError ? ` error="true"` : "";
      const body = r.output.split(CLOSE).join("</background-report >");
      return `${OPEN} child="${attr(r.childId)}"${profile} status="${attr(r.status)}"${error}>\nThe subagent you ran in the background has ended. Its task was: ${JSON.stringify(r.prompt)}\nIts report:\n${body}\n${CLOSE}`;
    })
    .join("\n\n");
}

/** Child ids of the background reports a user message carries (empty when none). */
export function backgroundReportIds(text: string): string[] {
  return [...text.matchAll(/<background-report child="([^"]*)"/g)].map((m) => m[1]!);
}
