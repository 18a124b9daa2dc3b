/**
 * Front matter of the Markdown files Ink reads from a project (agent profiles, command files,
 * SKILL.md): YAML only — gray-matter's JavaScript, CoffeeScript and JSON engines are refused,
 * since they would evaluate code from the file — and, for the many files in the wild whose
 * "YAML" does not parse (an unquoted description with `: ` in it, `<example>` blocks,
 * `argument-hint: [pr] [priority]`), a line-by-line reading that Claude Code also accepts.
 */
import matter from "gray-matter";
import { errorMessage } from "../protocol/error-message.js";

function notYaml(): never {
  throw new Error("only YAML front matter is supported; start the file with a plain `---` line");
}

const MATTER_OPTIONS = { language: "yaml", engines: { javascript: notYaml, js: notYaml, coffee: notYaml, json: notYaml } };

/** A file split into its front matter's data and the Markdown below it. */
export interface FrontMatterFile {
  data: unknown;
  content: string;
}

/** Parses `text`'s YAML front matter (a file without one gives `{}` and the whole text). Throws the YAML error. */
export function parseYamlFrontMatter(text: string): FrontMatterFile {
  const file = matter(text, MATTER_OPTIONS);
  return { data: file.data, content: file.content };
}

/**
 * js-yaml's errors for unquoted text with `: ` in it, `<example>` blocks or `[a] [b]` values —
 * files worth reading line by line (an unclosed `[` or a bad indent of real YAML is not one of them).
 */
const LOOSE_TEXT_ERRORS = /incomplete explicit mapping pair|bad indentation of a mapping entry|can not read a block mapping entry|end of the stream or a document separator is expected|can not read an implicit mapping pair/;

/** True when `error` (from parseYamlFrontMatter) is the kind lineFrontMatter can read around. */
export function isLooseTextError(error: unknown): boolean {
  return LOOSE_TEXT_ERRORS.test(yamlErrorLine(error));
}

/** First line of a parser error, without js-yaml's code excerpt and trailing colon. */
export function yamlErrorLine(error: unknown): string {
  return errorMessage(error).split("\n")[0]!.trim().replace(/:$/, "");
}

/**
 * Front matter read line by line, for files whose YAML does not parse: a `key: value` line opens
 * a field (only a key of `keys` when given — so `user: …` inside an `<example>` block stays text),
 * every other line continues the last field, and `- x` lines under an empty field make a list;
 * `true`/`false` and whole numbers become booleans and numbers; lines before the first field
 * are skipped. Undefined when the front matter is not closed or no field could be read.
 */
export function lineFrontMatter(text: string, keys?: readonly string[]): { data: Record<string, unknown>; content: string } | undefined {
  const lines = text.split(/\r?\n/);
  const end = lines.findIndex((line, i) => i > 0 && /^---\s*$/.test(line));
  if (end < 0) return undefined;
  const data: Record<string, unknown> = {};
  let key: string | undefined;
  for (const line of lines.slice(1, end)) {
    const field = /^([A-Za-z][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (field && (keys === undefined || keys.includes(field[1]!))) {
      key = field[1]!;
      data[key] = unquote((field[2] ?? "").trim());
    } else if (key === undefined) {
      continue; // comments and stray text before the first field
    } else if (/^\s*-\s+/.test(line) && (data[key] === "" || Array.isArray(data[key]))) {
      data[key] = [...(Array.isArray(data[key]) ? (data[key] as unknown[]) : []), line.replace(/^\s*-\s+/, "").trim()];
    } else if (typeof data[key] === "string") data[key] = `${data[key] as string}\n${line.trim()}`.trim();
  }
  if (Object.keys(data).length === 0) return undefined;
  for (const [k, v] of Object.entries(data)) {
    if (v === "true" || v === "false") data[k] = v === "true";
    else if (typeof v === "string" && /^\d+$/.test(v)) data[k] = Number(v);
  }
  return { data, content: lines.slice(end + 1).join("\n") };
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2]! : value;
}
