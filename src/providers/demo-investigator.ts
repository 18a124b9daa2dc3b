/**
 * The demo model as an investigator (a child, or a main agent without `task`): turn 1 searches
 * (grep per keyword + find, all in one message so they run concurrently), turn 2 reads the best
 * files, turn 3 answers with a report. The step is derived from the calls made since the request.
 */
import { callsNamed, lastCallNames, type DemoContext } from "./demo-conversation.js";
import { findPatternFor, globWordFor, grepPatternFor, requestKeywords } from "./demo-keywords.js";
import { composeReport, keywordList, type ReadEvidence } from "./demo-report.js";
import { parseFindOutput, parseGrepCounts, parseGrepOutput, pickFilesToRead, rankFiles, type GrepCount, type GrepHit, type RankedFile } from "./demo-search.js";
import type { DemoReply, PlannedCall } from "./demo-stream.js";

/** Most keywords searched with grep / with find in one investigation. */
const MAX_GREP = 3;
const MAX_FIND = 2;
/** Lines read around the first match. */
const READ_LIMIT = 80;
/** After this many assistant turns since the request the investigator answers whatever it has. */
const MAX_STEPS = 4;

/** A friendly reply for prompts that are not investigations. */
export function greeting(delegates: boolean): string {
  const how = delegates
    ? "I hand the search to subagents that run in parallel (one for the implementation, one for the tests) and summarise their reports."
    : "I grep for the keywords, look for matching file names, read the most relevant files and report the paths and functions I find.";
  return [
    "Hi! I'm Ink's offline demo model, so I can't hold a conversation, but I can investigate the code in this directory with real tools.",
    `Ask something like "where is the login handled?" or "find the code for sessions": ${how}`,
  ].join("\n\n");
}

/** The search evidence gathered since the request. */
function evidence(context: DemoContext, keywords: readonly string[]): { hits: GrepHit[]; found: string[]; counts: GrepCount[]; errors: string[] } {
  const hits: GrepHit[] = [];
  const found: string[] = [];
  const counts: GrepCount[] = [];
  const errors: string[] = [];
  for (const { call, result } of [...callsNamed(context, "grep"), ...callsNamed(context, "find")]) {
    if (!result) continue;
    if (result.isError) errors.push(`${call.name}: ${result.content.split("\n")[0] ?? ""}`);
    else if (call.name === "grep" && call.arguments.output === "count") {
      const keyword = keywords.find((k) => grepPatternFor(k) === call.arguments.pattern);
      if (keyword) counts.push(...parseGrepCounts(result.content, keyword));
    } else if (call.name === "grep") hits.push(...parseGrepOutput(result.content));
    else found.push(...parseFindOutput(result.content));
  }
  return { hits, found, counts, errors };
}

/** The files ranked from the evidence so far. */
function ranking(context: DemoContext, keywords: string[]): { ranked: RankedFile[]; errors: string[] } {
  const { hits, found, counts, errors } = evidence(context, keywords);
  return { ranked: rankFiles(hits, found, keywords, context.prompt, counts), errors };
}

/** Test folders, as a glob alternative. */
const TEST_DIRS = "{test,tests,spec,specs,__tests__}";
/** Test names in any case (`login.test.ts`, `KafkaConsumerTest.java`, `test_login.py`). */
const TEST_NAMES = "{test,spec,Test,Spec}";
/** Files a tests-angle search looks at: test-named files, and every file in a test folder (express's `test/app.router.js`). */
const TEST_GLOB = `{**/*${TEST_NAMES}*,**/${TEST_DIRS}/**}`;
/** Files a configuration/docs-angle search looks at. */
const CONFIG_GLOB = "*.{json,md,yaml,yml,toml}";
/** Source files an implementation-angle search looks at. */
const SOURCE_GLOB = "*.{ts,tsx,js,jsx,mjs,cjs,py,go,rs,java,rb,kt,swift,php,c,h,cpp,cs}";
/** The start of a definition line, for the implementation angle's grep. */
const DEFINITION = "(function|class|interface|type|const|def|fn|func|void|int|long|boolean|public|private|protected)\\s+";

/** Which part of the work a delegated child was given (from its prompt); "general" otherwise. */
function angleOf(prompt: string): "implementation" | "tests" | "config" | "general" {
  if (/^Find the tests/.test(prompt)) return "tests";
  if (/^Find configuration/.test(prompt)) return "config";
  if (/^Find where .* implemented/.test(prompt)) return "implementation";
  return "general";
}

/** Turn 1: the search calls. */
function searchStep(context: DemoContext, keywords: string[]): DemoReply {
  const calls: PlannedCall[] = [];
  const angle = angleOf(context.prompt);
  if (context.toolNames.has("grep")) {
    for (const k of keywords.slice(0, MAX_GREP)) {
      const pattern = grepPatternFor(k);
      if (angle === "tests") calls.push({ name: "grep", arguments: { pattern, glob: TEST_GLOB, ignoreCase: true } });
      else if (angle === "config") calls.push({ name: "grep", arguments: { pattern, glob: CONFIG_GLOB, ignoreCase: true } });
      else if (angle === "implementation") calls.push({ name: "grep", arguments: { pattern: `${DEFINITION}\\w*${pattern}`, ignoreCase: true } });
      else calls.push({ name: "grep", arguments: { pattern, ignoreCase: true } });
    }
    // Code that handles the topic without a definition named after it still counts as evidence.
    if (angle === "implementation" && keywords[0] !== undefined) calls.push({ name: "grep", arguments: { pattern: grepPatternFor(keywords[0]), glob: SOURCE_GLOB, ignoreCase: true } });
    // Where each keyword is used most (counts per file, no 200-line cap): the files about it, not only named after it.
    if (angle === "implementation" || angle === "general") for (const k of keywords.slice(0, MAX_GREP)) calls.push({ name: "grep", arguments: { pattern: grepPatternFor(k), glob: SOURCE_GLOB, ignoreCase: true, output: "count" } });
  }
  if (context.toolNames.has("find")) {
    for (const k of keywords.slice(0, MAX_FIND)) {
      const w = globWordFor(k);
      const tests = `{**/*${w}*${TEST_NAMES}*,**/${TEST_DIRS}/**/*${w}*}`;
      calls.push({ name: "find", arguments: { pattern: angle === "tests" ? tests : angle === "config" ? `**/*${w}*.{json,md,yaml,yml,toml}` : findPatternFor(k) } });
    }
  }
  if (calls.length === 0) {
    return { text: `I would search for ${keywordList(keywords)}, but this agent has neither the \`grep\` nor the \`find\` tool, so I can't look at the files.`, calls: [] };
  }
  const searched = keywords.slice(0, MAX_GREP);
  return { text: `Plan: search the file contents and file names for ${keywordList(searched)}, then read the most relevant files.`, calls };
}

/** Turn 2: read the best files, or answer straight away when there is nothing to read. */
function readStep(context: DemoContext, keywords: string[]): DemoReply {
  const { ranked } = ranking(context, keywords);
  const picks = pickFilesToRead(ranked);
  if (picks.length === 0 || !context.toolNames.has("read")) return answerStep(context, keywords);
  const calls: PlannedCall[] = picks.map((f) => {
    const first = f.lines[0] ?? 1;
    const args: Record<string, unknown> = { path: f.path, limit: READ_LIMIT };
    if (first > 20) args.offset = first - 10;
    return { name: "read", arguments: args };
  });
  const names = picks.map((f) => `\`${f.path}\``).join(", ");
  const count = ranked.length === 1 ? "1 candidate file" : `${ranked.length} candidate files`;
  return { text: `Found ${count}; reading the most relevant: ${names}.`, calls };
}

/** Final turn: the report. */
function answerStep(context: DemoContext, keywords: string[], note = ""): DemoReply {
  const { ranked, errors } = ranking(context, keywords);
  const reads: ReadEvidence[] = callsNamed(context, "read")
    .filter((c) => c.result !== undefined && typeof c.call.arguments.path === "string")
    .map((c) => ({
      path: String(c.call.arguments.path).replace(/^\.\//, ""),
      offset: typeof c.call.arguments.offset === "number" ? c.call.arguments.offset : 1,
      output: c.result!.content,
      isError: c.result!.isError,
    }));
  const report = composeReport({ prompt: context.prompt, keywords, ranked, reads, searchErrors: errors });
  return { text: note === "" ? report : `${note}\n\n${report}`, calls: [] };
}

/**
 * planInvestigation: the investigator's reply for this request. Pure and deterministic; never
 * throws. Unexpected states (results of tools it did not call, a missing request) get a graceful
 * answer without tool calls.
 */
export function planInvestigation(context: DemoContext): DemoReply {
  const keywords = requestKeywords(context.prompt, context.earlierPrompts);
  if (context.exchanges.length === 0) {
    if (context.lastRole !== "user") return { text: "There is no request for me to work on yet. Ask me where something is handled in this directory.", calls: [] };
    if (keywords.length === 0) return { text: greeting(false), calls: [] };
    return searchStep(context, keywords);
  }
  if (keywords.length === 0) return { text: greeting(false), calls: [] };
  const last = lastCallNames(context);
  if (context.lastRole !== "toolResult" || !context.resultsMatch || last.length === 0) {
    return answerStep(context, keywords, "I didn't get the tool results I was waiting for, so here is what I have so far.");
  }
  if (context.exchanges.length >= MAX_STEPS) return answerStep(context, keywords);
  const unexpected = last.filter((n) => !["grep", "find", "read"].includes(n));
  if (unexpected.length > 0) {
    return answerStep(context, keywords, `I received results from tools I did not plan to use (${unexpected.join(", ")}), so I'll answer with what I have.`);
  }
  if (last.every((n) => n === "grep" || n === "find")) return readStep(context, keywords);
  return answerStep(context, keywords);
}
