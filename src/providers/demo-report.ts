/**
 * The demo investigator's final answer: a short Markdown report naming each relevant file with
 * the line numbers of its matches and the definitions seen in the lines read, ending with a
 * one-line conclusion — or a clear "nothing found" with suggestions.
 */
import { findDefinitions, parseReadOutput, type Definition } from "./demo-definitions.js";
import { keywordVariants, mentionsConfigOrDocs, mentionsTests } from "./demo-keywords.js";
import { definesTopic, isTestPath, type RankedFile } from "./demo-search.js";

/** What one `read` call returned. */
export interface ReadEvidence {
  path: string;
  offset: number;
  output: string;
  isError: boolean;
}

/** Everything the report is built from. */
export interface ReportInput {
  prompt: string;
  keywords: string[];
  ranked: RankedFile[];
  reads: ReadEvidence[];
  /** Errors returned by grep/find (shown so the person knows the search was incomplete). */
  searchErrors: string[];
}

/** `a`, `b` and `c` — each keyword in backticks. */
export function keywordList(keywords: readonly string[]): string {
  const quoted = keywords.map((k) => `\`${k}\``);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

/** "3, 12, 40 …" — the first few line numbers. */
function lineList(lines: readonly number[], max = 6): string {
  const shown = lines.slice(0, max).join(", ");
  return lines.length > max ? `${shown} …` : shown;
}

/** A code snippet safe to put in backticks, cut to `max` characters. */
function snippet(text: string, max = 90): string {
  const clean = text.trim().replace(/`/g, "'");
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** How many of the keywords a definition's name contains. */
function keywordsNamed(def: Definition, keywords: readonly string[]): number {
  const name = def.name.toLowerCase();
  return keywords.filter((k) => keywordVariants(k).some((v) => name.includes(v))).length;
}

/**
 * The definition that best stands for the file: the one named after the most keywords (functions
 * and classes first, then the earliest), else the one enclosing the first match, else the first.
 */
function primaryDefinition(defs: readonly Definition[], file: RankedFile | undefined, keywords: readonly string[]): Definition | undefined {
  // A definition named just the keyword (`cookie` for "cookies", `route` for "routing") stands for it better than one that only contains it (`clearCookie`).
  const isKeyword = (name: string): boolean => keywords.some((k) => keywordVariants(k).some((v) => name.startsWith(v) && name.length - v.length <= 3));
  const leads = (d: Definition): number => (isKeyword(d.name.toLowerCase()) ? 5 : 0);
  const weight = (d: Definition): number => keywordsNamed(d, keywords) * 10 + leads(d) + (d.kind === "function" || d.kind === "class" || d.kind === "method" ? 3 : 0);
  const named = defs.filter((d) => keywordsNamed(d, keywords) > 0).sort((a, b) => weight(b) - weight(a) || a.line - b.line)[0];
  if (named) return named;
  const first = file?.lines[0];
  if (first !== undefined) {
    const enclosing = defs.filter((d) => d.line <= first).pop();
    if (enclosing) return enclosing;
  }
  return defs[0];
}

/** The subject of the conclusion, worded for what was asked. */
function subject(prompt: string, keywords: readonly string[]): string {
  const list = keywordList(keywords.slice(0, 3));
  if (mentionsTests(prompt)) return `the tests for ${list} are`;
  if (mentionsConfigOrDocs(prompt)) return `the configuration and docs for ${list} are`;
  return `the code for ${list} is`;
}

/** The report when grep and find found nothing. */
function nothingFound(input: ReportInput): string {
  const errors = input.searchErrors.length > 0 ? `\n\nThe search itself reported: ${input.searchErrors.map((e) => snippet(e, 160)).join("; ")}` : "";
  return [
    `I found nothing matching ${keywordList(input.keywords)} in this directory: no line of any file contains it and no file name matches it.${errors}`,
    "",
    "You could try:",
    "- another word for it, or the exact identifier (a function, class or file name);",
    "- checking that Ink was started in the project's root directory;",
    "- a real model (set ANTHROPIC_API_KEY) for questions that need more than a keyword search.",
    "",
    `**Conclusion:** nothing in this directory mentions ${keywordList(input.keywords)}.`,
  ].join("\n");
}

/** The report when files mention the keywords but none outside the tests defines anything named after them. */
function undefinedTopic(input: ReportInput, findings: string[]): string {
  const { ranked, keywords } = input;
  const list = keywordList(keywords.slice(0, 3));
  const source = ranked.find((f) => !isTestPath(f.path));
  const test = ranked.find((f) => isTestPath(f.path));
  const where = [
    source ? `most in \`${source.path}\`${source.lines.length > 0 ? ` (line ${source.lines[0]})` : ""}` : "",
    test ? `${source ? "and " : ""}in tests such as \`${test.path}\`` : "",
  ].filter((p) => p !== "").join(" ");
  const headline = `${list}: no function, class or file outside the tests is named after it; it is only mentioned.`;
  return [headline, "", "**Findings**", "", ...findings, "", `**Conclusion:** nothing here defines ${list}: no function, class or file outside the tests is named after it; it is only mentioned, ${where}.`].join("\n");
}

/**
 * composeReport: the final Markdown answer of an investigation. Deterministic: the same input
 * always gives the same text.
 */
export function composeReport(input: ReportInput): string {
  const { ranked, reads, keywords } = input;
  if (ranked.length === 0) return nothingFound(input);
  const readPaths = reads.map((r) => r.path);
  const detailed = ranked.filter((f) => readPaths.includes(f.path));
  if (detailed.length === 0) detailed.push(...ranked.slice(0, 3));
  const out: string[] = [];
  let conclusionFile: RankedFile | undefined;
  let conclusionDef: Definition | undefined;
  detailed.forEach((file, i) => {
    const facts: string[] = [];
    if (file.pathKeywords.length > 0) facts.push(`name matches ${keywordList(file.pathKeywords)}`);
    if (file.lines.length > 0) facts.push(`${file.lines.length === 1 ? "match on line" : "matches on lines"} ${lineList(file.lines)}`);
    if (isTestPath(file.path)) facts.push("test file");
    out.push(`${i + 1}. \`${file.path}\` — ${facts.join("; ") || "listed by find"}`);
    const read = reads.find((r) => r.path === file.path);
    let defs: Definition[] = [];
    if (read?.isError) out.push(`   - could not read it: ${snippet(read.output.split("\n")[0] ?? "", 120)}`);
    else if (read) defs = findDefinitions(parseReadOutput(read.output, read.offset));
    if (defs.length > 0) out.push(`   - defines ${defs.slice(0, 6).map((d) => `\`${d.name}\` (${d.kind}, line ${d.line})`).join(", ")}`);
    const hit = file.hits[0];
    if (hit) out.push(`   - line ${hit.line}: \`${snippet(hit.text)}\``);
    if (!conclusionFile) {
      conclusionFile = file;
      conclusionDef = primaryDefinition(defs, file, keywords);
    }
  });
  const others = ranked.filter((f) => !detailed.includes(f) && f.score >= 1).slice(0, 5);
  if (others.length > 0) {
    const list = others.map((f) => (f.lines.length > 0 ? `\`${f.path}\` (${f.lines.length === 1 ? "line" : "lines"} ${lineList(f.lines, 3)})` : `\`${f.path}\``));
    out.push("", `Also mentioning it: ${list.join(", ")}${ranked.length - detailed.length > others.length ? ", and more" : ""}.`);
  }
  if (input.searchErrors.length > 0) out.push("", `Note: part of the search failed — ${input.searchErrors.map((e) => snippet(e, 120)).join("; ")}`);
  // Asked where something is, a file that only mentions it (a test, a comment's example) is not where it is.
  const wantsCode = !mentionsTests(input.prompt) && !mentionsConfigOrDocs(input.prompt);
  if (wantsCode && !ranked.some((f) => !isTestPath(f.path) && definesTopic(f, keywords))) {
    return undefinedTopic(input, out);
  }
  if (wantsCode && conclusionFile && (isTestPath(conclusionFile.path) || !definesTopic(conclusionFile, keywords))) {
    conclusionFile = detailed.find((f) => !isTestPath(f.path) && definesTopic(f, keywords)) ?? ranked.find((f) => !isTestPath(f.path) && definesTopic(f, keywords));
    const read = reads.find((r) => r.path === conclusionFile?.path && !r.isError);
    conclusionDef = primaryDefinition(read ? findDefinitions(parseReadOutput(read.output, read.offset)) : [], conclusionFile, keywords);
  }
  const file = conclusionFile ?? ranked[0]!;
  const where = conclusionDef
    ? ` (\`${conclusionDef.name}\`, line ${conclusionDef.line})`
    : file.lines.length > 0
      ? ` (line ${file.lines[0]})`
      : "";
  out.push("", `**Conclusion:** ${subject(input.prompt, keywords)} in \`${file.path}\`${where}.`);
  // Lead with the gist, so a one-line summary of this report (e.g. a collapsed subagent pane) says something.
  const count = ranked.length === 1 ? "1 file" : `${ranked.length} files`;
  const headline = `${keywordList(keywords)}: ${count} found by searching contents and names; best match \`${file.path}\`${where}.`;
  return [headline, "", "**Findings**", "", ...out].join("\n");
}
