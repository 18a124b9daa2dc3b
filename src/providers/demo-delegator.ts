/**
 * The demo model as a delegating main agent (it has the `task` tool): turn 1 plans and starts 2–3
 * parallel `task` calls (implementation, tests, config/docs); if a profile turns out to be unknown
 * it retries those calls once without `agent`; then it summarises every child's report, naming
 * the files they found and any child that failed, and ends with a conclusion.
 */
import type { DemoContext, CallWithResult } from "./demo-conversation.js";
import { lastCallNames } from "./demo-conversation.js";
import { mentionsConfigOrDocs, requestKeywords } from "./demo-keywords.js";
import { greeting } from "./demo-investigator.js";
import { keywordList } from "./demo-report.js";
import { isTestName, isTestPath } from "./demo-search.js";
import type { DemoReply, PlannedCall } from "./demo-stream.js";
import { allStartedInBackground, backgroundStartedReply, carriesBackgroundReports, summariseBackgroundReports, wantsBackground, withoutBackgroundPhrase } from "./demo-background.js";

/** One child's investigation as the summary sees it. */
interface ChildReport {
  label: string;
  prompt: string;
  entry?: CallWithResult;
}

const LABELS: Array<[RegExp, string]> = [
  [/^Find where /, "Implementation"],
  [/^Find the tests/, "Tests"],
  [/^Find configuration/, "Configuration and docs"],
];

/** The `task` prompts for a topic. */
export function childPrompts(keywords: readonly string[], prompt: string): string[] {
  const topic = keywordList(keywords.slice(0, 3));
  const verb = keywords.length > 1 ? "are" : "is";
  const prompts = [
    `Find where ${topic} ${verb} implemented: entry points, main functions, file paths with line numbers.`,
    `Find the tests (and fixtures) that cover ${topic}: test file paths with line numbers.`,
  ];
  if (keywords.length >= 2 || mentionsConfigOrDocs(prompt)) prompts.push(`Find configuration, routes or docs that mention ${topic}: file paths with line numbers.`);
  return prompts;
}

/** Turn 1: the plan and the parallel task calls. */
function delegate(context: DemoContext, keywords: string[]): DemoReply {
  const prompts = childPrompts(keywords, context.prompt);
  const agent = context.scoutAvailable ? { agent: "scout" } : {};
  // "in the background": the children run beside the person and report when they end.
  const background = wantsBackground(context.prompt) && context.toolNames.has("task_wait");
  const calls: PlannedCall[] = prompts.map((p, i) => ({
    name: "task",
    arguments: { prompt: p, description: `${labelOf(p, i).toLowerCase()} of ${keywords[0] ?? "it"}`, ...agent, ...(background ? { background: true } : {}) },
  }));
  const who = context.scoutAvailable ? "scout subagents" : "subagents";
  const areas = prompts.map((p) => labelOf(p, 0).toLowerCase()).join(", ");
  const then = background ? "in the background; their reports will come here when they end" : "in parallel";
  return {
    text: `Plan: I'll investigate ${keywordList(keywords.slice(0, 3))} with ${prompts.length} ${who} running ${then} (${areas})${background ? "" : ", then summarise what they report"}.`,
    calls,
  };
}

/** The display label of a child prompt. */
function labelOf(prompt: string, index: number): string {
  return LABELS.find(([re]) => re.test(prompt))?.[1] ?? `Subagent ${index + 1}`;
}

const SOURCE_EXT = /\.(ts|tsx|js|jsx|mjs|cjs|json|md|py|go|rs|java|rb|ya?ml|toml|css|html|sh|c|h|cpp|kt|swift|php|vue|svelte)$/i;

/** True for a token that names a file of the project (not a session file or URL). */
function isProjectPath(token: string): boolean {
  if (!/^(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(token)) return false;
  if (!token.includes("/") && !SOURCE_EXT.test(token)) return false;
  return !token.endsWith(".jsonl") && !/\.ink\/sessions\//.test(token);
}

/**
 * pathsIn: file paths named in a report, in order, each once, at most `max`. Paths in backticks
 * are trusted first (so code quoted in the report does not count); bare paths are the fallback.
 */
export function pathsIn(text: string, max = 5): string[] {
  const strip = (t: string): string => t.replace(/^\.\//, "").replace(/:\d+$/, "");
  const quoted = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => strip(m[1]!)).filter(isProjectPath);
  const bare = [...text.matchAll(/(?:^|[\s'"(\[])([\w@./-]+?)(?::\d+)?(?=[\s'"),;:\]]|\.(?:\s|$)|$)/gm)].map((m) => strip(m[1]!)).filter(isProjectPath);
  return [...new Set(quoted.length > 0 ? quoted : bare)].slice(0, max);
}

/** True for the bookkeeping lines the task tool appends (usage, resume hint). */
function isFooter(line: string): boolean {
  return /^\[task\] (ok|aborted|timeout|crash) ·/.test(line) || /^\[task\] child session /.test(line);
}

/** The task tool's own note on why a child stopped or failed ("" when there is none). */
function failureNote(text: string): string {
  const line = text.split("\n").map((l) => l.trim()).find((l) => l.startsWith("[task]") && !isFooter(l) && !/partial text above/.test(l));
  return line ? line.replace(/^\[task\]\s*/, "") : "";
}

/** The line of a report worth quoting: its conclusion, else its first sentence. */
function keyLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("[task]") && !l.startsWith("(Offline demo model"));
  const conclusion = lines.find((l) => /conclusion/i.test(l));
  return clip((conclusion ?? lines.find((l) => !l.startsWith("#")) ?? "").replace(/^\**conclusion:?\**:?\s*/i, "").replace(/^[-*>]\s*/, ""));
}

/** Cuts a line to 240 characters and capitalises it. */
function clip(line: string): string {
  const cut = line.length > 240 ? `${line.slice(0, 239)}…` : line;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

/** The latest call and result for each distinct prompt, in the order the prompts were first used. */
function childReports(context: DemoContext): ChildReport[] {
  const byPrompt = new Map<string, ChildReport>();
  for (const exchange of context.exchanges) {
    for (const entry of exchange.calls) {
      if (entry.call.name !== "task") continue;
      const prompt = String(entry.call.arguments.prompt ?? "");
      const report = byPrompt.get(prompt) ?? { label: labelOf(prompt, byPrompt.size), prompt };
      report.entry = entry;
      byPrompt.set(prompt, report);
    }
  }
  return [...byPrompt.values()];
}

/** Turn 2 when some calls named an unknown profile: the same prompts again, without `agent`. */
function retryUnknownAgent(context: DemoContext): DemoReply | undefined {
  const taskRounds = context.exchanges.filter((e) => e.calls.some((c) => c.call.name === "task")).length;
  if (taskRounds !== 1) return undefined;
  const last = context.exchanges[context.exchanges.length - 1]!;
  const failed = last.calls.filter((c) => c.result?.isError && /unknown agent/i.test(c.result.content) && c.call.arguments.agent !== undefined);
  if (failed.length === 0) return undefined;
  const name = String(failed[0]!.call.arguments.agent);
  return {
    text: `The \`${name}\` profile isn't available here, so I'm retrying ${failed.length === 1 ? "that investigation" : `those ${failed.length} investigations`} with the general-purpose subagent.`,
    calls: failed.map((c) => ({ name: "task", arguments: { prompt: String(c.call.arguments.prompt ?? "") } })),
  };
}

/** The final summary of every child's report. */
function summarise(context: DemoContext, keywords: string[]): DemoReply {
  const reports = childReports(context);
  const out: string[] = [`Here is what the subagents found for ${keywordList(keywords.slice(0, 3))}:`];
  const failed: string[] = [];
  const found = new Map<string, string[]>();
  reports.forEach((r, i) => {
    const result = r.entry?.result;
    const note = result ? failureNote(result.content) : "";
    const why = result?.isError ? /\[task\] stopped: (.*)/.exec(result.content)?.[1] ?? "" : "";
    const stoppedAs = /timed out/.test(why) ? "timed out" : why ? "stopped" : undefined;
    const status = stoppedAs ?? (result === undefined || result.isError ? "failed" : note !== "" ? "partial" : "done");
    if (status !== "done") failed.push(r.label);
    out.push("", `**${i + 1}. ${r.label}** — ${status}`);
    if (!result) {
      out.push("> (no result came back)");
      return;
    }
    const report = keyLine(result.content);
    if (report !== "") out.push(`> ${report}`);
    if (note !== "" || (result.isError && report === "")) out.push(`> ⚠ ${clip(note !== "" ? note : "the child returned an error without details")}`);
    const paths = status === "failed" ? [] : pathsIn(result.content);
    found.set(r.label, paths);
    if (paths.length > 0) out.push(`Files: ${paths.map((p) => `\`${p}\``).join(", ")}`);
  });
  out.push("", conclusion(keywords, reports, found, failed));
  return { text: out.join("\n"), calls: [] };
}

/** The one-line conclusion of the summary. */
function conclusion(keywords: string[], reports: ChildReport[], found: Map<string, string[]>, failed: string[]): string {
  const topic = keywordList(keywords.slice(0, 3));
  if (reports.length > 0 && failed.length === reports.length) {
    return `**Conclusion:** none of the ${reports.length} subagents could finish, so I have no answer for ${topic}; see the errors above.`;
  }
  // The implementation child found only mentions: say so rather than name a mention as the implementation.
  const implReport = reports.find((r) => r.label === "Implementation")?.entry?.result;
  const none = implReport && !implReport.isError ? /\*\*Conclusion:\*\* (nothing here defines .*)$/m.exec(implReport.content)?.[1] : undefined;
  if (none) return `**Conclusion:** ${none}`;
  const impl = found.get("Implementation")?.find((p) => !isTestPath(p)) ?? [...found.values()].flat().find((p) => !isTestPath(p));
  // "Covered by" names a file named as a test when the tests child found one (not a helper in test/, never main source).
  const testPaths = (found.get("Tests") ?? []).filter((p) => p !== impl && isTestPath(p));
  const tests = testPaths.find(isTestName) ?? testPaths[0];
  const failNote = failed.length > 0 ? ` (${failed.length} of ${reports.length} subagents failed or stopped early: ${failed.join(", ")}, so this may be incomplete)` : "";
  if (!impl) return `**Conclusion:** the subagents found no file for ${topic}${failNote}.`;
  return `**Conclusion:** ${topic} ${keywords.length > 1 ? "live" : "lives"} mainly in \`${impl}\`${tests ? `, covered by \`${tests}\`` : ""}${failNote}.`;
}

/**
 * planDelegation: the delegating agent's reply for this request. Pure and deterministic; never
 * throws; results of tools it did not call get a graceful answer.
 */
export function planDelegation(context: DemoContext): DemoReply {
  const reportsFor = (note: string) => summariseBackgroundReports(note, keyLine, pathsIn, (task) => labelOf(task, 0));
  if (carriesBackgroundReports(context) && context.exchanges.length === 0) return reportsFor(context.prompt);
  const reply = planTurn(context);
  // Reports delivered while this turn ran: the answer covers them after its own.
  if (context.reportNote === undefined || reply.calls.length > 0) return reply;
  return { text: `${reply.text}\n\n${reportsFor(context.reportNote).text}`, calls: [] };
}

/** The reply for the current request, without reports delivered during it. */
function planTurn(context: DemoContext): DemoReply {
  const keywords = requestKeywords(withoutBackgroundPhrase(context.prompt), context.earlierPrompts.map(withoutBackgroundPhrase));
  if (context.exchanges.length === 0) {
    if (context.lastRole !== "user") return { text: "There is no request for me to work on yet. Ask me where something is handled in this directory.", calls: [] };
    return keywords.length === 0 ? { text: greeting(true), calls: [] } : delegate(context, keywords);
  }
  const last = lastCallNames(context);
  if (context.lastRole !== "toolResult" || last.length === 0 || last.some((n) => n !== "task")) {
    const names = last.filter((n) => n !== "task");
    const why = names.length > 0 ? `results from tools I did not plan to use (${names.join(", ")})` : "no results for the work I started";
    return { text: `I got ${why}, so I'll stop here. Ask me again (for example "where is the login handled?") to start a fresh investigation.`, calls: [] };
  }
  const lastCalls = context.exchanges[context.exchanges.length - 1]!.calls;
  if (allStartedInBackground(lastCalls)) return backgroundStartedReply(lastCalls, keywordList((keywords.length > 0 ? keywords : ["the request"]).slice(0, 3)));
  return retryUnknownAgent(context) ?? summarise(context, keywords.length > 0 ? keywords : ["the request"]);
}
