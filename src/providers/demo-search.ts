/**
 * Search evidence for the demo investigator: parses `grep` output (`path:line: text`) and `find`
 * output (one path a line) and ranks the files — a keyword in the path beats content matches,
 * source beats tests (unless tests were asked for), lockfiles, build output and minified files
 * sink to the bottom.
 */
import { keywordVariants, mentionsConfigOrDocs, mentionsTests } from "./demo-keywords.js";

/** One grep hit. */
export interface GrepHit {
  path: string;
  line: number;
  text: string;
}

/** A file worth looking at, with the evidence for it. */
export interface RankedFile {
  path: string;
  score: number;
  /** Line numbers of content matches, ascending. */
  lines: number[];
  /** The matching lines' text, in line order. */
  hits: GrepHit[];
  /** Keywords found in the path. */
  pathKeywords: string[];
}

const GREP_LINE = /^(.+?):(\d+):\s?(.*)$/;

/** Parses grep output; lines that are not `path:line: text` (notes, truncation markers) are skipped. */
export function parseGrepOutput(output: string): GrepHit[] {
  const hits: GrepHit[] = [];
  for (const raw of output.split("\n")) {
    const m = GREP_LINE.exec(raw.replace(/\r$/, ""));
    if (!m || /\s{2,}/.test(m[1]!) || m[1]!.startsWith("[") || m[1]!.startsWith("(")) continue;
    hits.push({ path: normalizePath(m[1]!), line: Number(m[2]), text: m[3]!.trim() });
  }
  return hits;
}

/** One file's match count for one keyword (grep with `output: "count"`). */
export interface GrepCount {
  path: string;
  count: number;
  keyword: string;
}

const COUNT_LINE = /^(.+?):\s(\d+)$/;

/** Parses grep count output (`path: N` lines) for `keyword`; notes are skipped. */
export function parseGrepCounts(output: string, keyword: string): GrepCount[] {
  const counts: GrepCount[] = [];
  for (const raw of output.split("\n")) {
    const m = COUNT_LINE.exec(raw.replace(/\r$/, "").trim());
    if (!m || m[1]!.startsWith("[") || /\s{2,}/.test(m[1]!)) continue;
    counts.push({ path: normalizePath(m[1]!), count: Number(m[2]), keyword });
  }
  return counts;
}

/** Parses find output into paths; note lines ("(no files found)", "[truncated …]") are skipped. */
export function parseFindOutput(output: string): string[] {
  const paths: string[] = [];
  for (const raw of output.split("\n")) {
    const line = raw.trim();
    if (!looksLikePath(line)) continue;
    paths.push(normalizePath(line));
  }
  return paths;
}

/** True for a line that reads like a file path rather than a sentence or a note. */
function looksLikePath(line: string): boolean {
  if (line === "" || /^[([#>!]/.test(line) || line.endsWith(":")) return false;
  if ((line.match(/ /g) ?? []).length >= 2) return false;
  return /^[\w@.~/-]/.test(line) && /[/.]/.test(line);
}

/** Drops a leading "./" so the same file is always spelled the same way. */
function normalizePath(path: string): string {
  return path.trim().replace(/^\.\//, "");
}

/** True for a file named as a test (`a.test.ts`, `a_test.go`, `KafkaConsumerTest.java`, `test_a.py`). */
export function isTestName(path: string): boolean {
  if (isMainSource(path)) return false;
  return /[._-](test|spec)\.[a-z0-9]+$/i.test(path) || /[a-z0-9](Tests?|Spec|IT)\.(java|kt|scala|groovy|cs)$/.test(path) || /(^|\/)test_[^/]+\.py$/.test(path);
}

/** True for a file under a `src/main/` tree (Maven/Gradle layout): main source, whatever its name (kafka's `ListConsumerGroupOffsetsSpec.java`). */
function isMainSource(path: string): boolean {
  return /(^|\/)src\/main\//.test(path);
}

/** True for test files and test fixtures: named as a test, or in a test folder (express's `test/app.router.js`); never a file under `src/main/`. */
export function isTestPath(path: string): boolean {
  if (isMainSource(path)) return false;
  return /(^|\/)(tests?|__tests__|specs?|fixtures?|__mocks__)\//i.test(path) || isTestName(path);
}

/** True for files nobody means when asking where something is handled. */
function isNoise(path: string): boolean {
  return (
    /(^|\/)(node_modules|dist|build|out|coverage|\.git|vendor)\//.test(path) ||
    /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Gemfile\.lock|go\.sum)$/.test(path) ||
    /\.(min\.(js|css)|map|lock|snap|svg|png|jpe?g|gif|ico|woff2?)$/.test(path)
  );
}

/** True for configuration and documentation files (a `router/` folder holds code, not configuration). */
function isConfigOrDoc(path: string): boolean {
  return (
    /\.(md|mdx|rst|txt|json|ya?ml|toml|ini|env|cfg)$/i.test(path) ||
    /(^|\/|[._-])(config|settings|docs?)([._/-]|$)/i.test(path) ||
    // A configuration class named after the thing it configures (kafka's `ConsumerConfig.java`).
    /[a-z](Config|Configs|Settings)\.[a-z]+$/.test(path)
  );
}

/** Keywords whose variants occur in `text` (case-insensitive). */
function keywordsIn(text: string, keywords: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return keywords.filter((k) => keywordVariants(k).some((v) => lower.includes(v)));
}

/** Definition forms: `function x`, `class X`, `def x`, `x = function (`, Java/C# `int x(`. */
const DEFINITIONS = [
  /\b(?:function|class|def|fn|func|interface|type)\s+\*?\s*([A-Za-z_$][\w$]*)/,
  // A variable only when it holds a function (`var router = this._router` defines nothing).
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/,
  /\b(?:public|private|protected|static|final|void|int|long|boolean)\s+(?:[\w<>[\],.? ]+\s+)?([A-Za-z_$][\w$]*)\s*\(/,
  /\.([A-Za-z_$][\w$]*)\s*=\s*function\b/,
];

/** The keywords the name of the thing a grep line defines holds ([] when it defines nothing named after them). */
function definedKeywords(text: string, keywords: readonly string[]): string[] {
  let best: string[] = [];
  for (const re of DEFINITIONS) {
    const m = re.exec(text);
    if (!m) continue;
    const named = keywordsIn(m[1]!, keywords);
    if (named.length > best.length) best = named;
  }
  return best;
}

/** The name a grep line defines, if any. */
function definedName(text: string): string | undefined {
  for (const re of DEFINITIONS) {
    const m = re.exec(text);
    if (m) return m[1]!;
  }
  return undefined;
}

/** How many keywords the name of the thing a grep line defines holds (0 when it defines nothing). */
export function definitionKeywords(text: string, keywords: readonly string[]): number {
  return definedKeywords(text, keywords).length;
}

/** The last word of an identifier (`KafkaConsumer` → consumer, `delete_old_segments` → segments), lower-cased. */
function headWord(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[\s_$]+/).filter((w) => w !== "");
  return (words[words.length - 1] ?? name).toLowerCase();
}

/** True when a grep line defines something whose name ends in a keyword: the thing itself, not something about it. */
function definesAsHead(text: string, keywords: readonly string[]): boolean {
  for (const re of DEFINITIONS) {
    const m = re.exec(text);
    if (!m) continue;
    const head = headWord(m[1]!);
    if (keywords.some((k) => keywordVariants(k).some((v) => head.startsWith(v)))) return true;
  }
  return false;
}

/** True when the file defines something named after the keywords, or is itself named after them. */
export function definesTopic(file: RankedFile, keywords: readonly string[]): boolean {
  return file.pathKeywords.length > 0 || file.hits.some((h) => definitionKeywords(h.text, keywords) > 0);
}

/**
 * rankFiles: merges grep hits, per-file match counts and find paths into files ordered by
 * relevance (best first, ties by path). Counts weigh how much a file is about each keyword (a
 * file that uses it fifty times beats one whose name merely contains it), with diminishing
 * returns. `prompt` decides whether tests or config/docs are wanted. Deterministic.
 */
export function rankFiles(hits: readonly GrepHit[], found: readonly string[], keywords: readonly string[], prompt: string, counts: readonly GrepCount[] = []): RankedFile[] {
  const files = new Map<string, RankedFile>();
  const entry = (path: string): RankedFile => {
    let f = files.get(path);
    if (!f) {
      const base = path.split("/").pop() ?? path;
      const inBase = keywordsIn(base, keywords);
      const inDirs = keywordsIn(path.slice(0, path.length - base.length), keywords).filter((k) => !inBase.includes(k));
      f = { path, score: inBase.length * 12 + inDirs.length * 6, lines: [], hits: [], pathKeywords: [...inBase, ...inDirs] };
      files.set(path, f);
    }
    return f;
  };
  for (const path of found) entry(path);
  for (const hit of hits) {
    const f = entry(hit.path);
    if (f.hits.some((h) => h.line === hit.line)) continue;
    f.hits.push(hit);
  }
  const countsOf = new Map<string, GrepCount[]>();
  for (const c of counts) {
    entry(c.path);
    countsOf.set(c.path, [...(countsOf.get(c.path) ?? []), c]);
  }
  const wantTests = mentionsTests(prompt);
  const wantConfig = mentionsConfigOrDocs(prompt);
  const counted = new Set(counts.map((c) => c.path));
  const rarity = (keyword: string): number => {
    const using = counts.filter((c) => c.keyword === keyword && c.count > 0).length;
    return using === 0 ? 1 : Math.min(4, Math.max(1, counted.size / using / 2));
  };
  for (const f of files.values()) {
    f.hits.sort((a, b) => a.line - b.line);
    f.lines = f.hits.map((h) => h.line);
    const mine = countsOf.get(f.path) ?? [];
    const matched = new Set([...f.hits.flatMap((h) => keywordsIn(h.text, keywords)), ...mine.filter((c) => c.count > 0).map((c) => c.keyword)]);
    // A keyword few files use says more about the files that do ("routed" beside "records" and "partitions").
    const coverage = [...matched].reduce((sum, k) => sum + 3 * rarity(k), 0);
    // Word counts say how much a file is about the keywords, with diminishing returns: a file that
    // merely repeats them (a config class's doc strings, a byte buffer's "records") must not
    // outweigh one that defines the thing.
    const density = mine.reduce((sum, c) => sum + Math.sqrt(Math.min(c.count, 25)), 0);
    f.score += Math.min(f.hits.length, 8) + coverage + density;
    // Definitions named after the keywords weigh most: each keyword a defined name holds (a
    // class, function or method), more for the name holding the most of them at once
    // (`deleteOldSegments` for "old segments deleted"), then for each further such definition.
    const defined = f.hits.map((h) => definedKeywords(h.text, keywords)).filter((d) => d.length > 0);
    const covered = new Set(defined.flat());
    // The file's own class is already weighed by its path: the "most keywords at once" bonus goes to what it defines inside.
    const stem = (f.path.split("/").pop() ?? "").replace(/\.[^.]*$/, "");
    const inner = f.hits.filter((h) => definedName(h.text) !== stem).map((h) => definedKeywords(h.text, keywords).length);
    const best = Math.max(0, ...inner);
    f.score += covered.size * 8 + best * 8 + Math.min(defined.length, 6) * 2;
    // A definition that is the thing itself — its name ends in the keyword (`KafkaConsumer`,
    // `BuiltInPartitioner`, `deleteOldSegments`) — beats one that is about something else named
    // after it (`ConsumerConfig`, `ListConsumerGroupOffsetsSpec`).
    if (f.hits.some((h) => definesAsHead(h.text, keywords))) f.score += 10;
    // Asked for tests, a file named as one beats a helper that merely sits in a test folder.
    if (isTestPath(f.path)) f.score *= wantTests ? (isTestName(f.path) ? 2.5 : 2) : 0.35;
    else if (wantTests) f.score *= 0.6;
    if (isConfigOrDoc(f.path)) f.score *= wantConfig ? 2 : 0.4;
    // Examples, benchmarks and scripts use the code; they are rarely where it lives.
    if (!wantTests && /(^|\/)(examples?|samples?|bench(marks?)?|scripts)\//.test(f.path)) f.score *= 0.5;
    if (isNoise(f.path)) f.score *= 0.05;
    f.score = Math.round(f.score * 100) / 100;
  }
  const out = [...files.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

/** The files worth reading: the best one, plus up to two more scoring at least half as well. */
export function pickFilesToRead(ranked: readonly RankedFile[], max = 3): RankedFile[] {
  const top = ranked[0];
  if (!top || top.score <= 0) return [];
  return ranked.slice(0, max).filter((f) => f.score >= top.score / 2 && f.score > 0.5);
}
