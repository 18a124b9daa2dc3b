/**
 * `.gitignore` parsing and matching. Supported: blank lines, `#` comments, `!` negation,
 * trailing `/` (directories only), leading or inner `/` (anchored to the file's directory),
 * `*`, `?`, `**`, `[...]`, `\` escapes. Later rules win; deeper files win over shallower ones.
 */
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { globToRegexSource } from "./glob.js";

export interface IgnoreRule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/** The rules of one ignore file, applying to paths under `base` (absolute directory). */
export interface IgnoreRuleSet {
  base: string;
  rules: IgnoreRule[];
}

/** Parses the text of a `.gitignore` file into rules (patterns are relative to its directory). */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    const rule = parseLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    if (rule) rules.push(rule);
  }
  return rules;
}

function parseLine(line: string): IgnoreRule | null {
  if (line === "" || line.startsWith("#")) return null;
  // Trailing spaces are dropped unless escaped with a backslash.
  let p = line.replace(/(?<!\\)\s+$/, "");
  if (p === "") return null;
  let negate = false;
  if (p.startsWith("!")) {
    negate = true;
    p = p.slice(1);
  }
  let dirOnly = false;
  if (p.endsWith("/")) {
    dirOnly = true;
    p = p.replace(/\/+$/, "");
  }
  if (p === "") return null;
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  const body = globToRegexSource(p, { braces: false });
  const regex = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
  return { regex, negate, dirOnly };
}

/** Reads and parses an ignore file; a missing or unreadable file gives null. */
export async function loadIgnoreFile(file: string, base: string): Promise<IgnoreRuleSet | null> {
  try {
    const rules = parseGitignore(await readFile(file, "utf8"));
    return rules.length > 0 ? { base, rules } : null;
  } catch {
    return null;
  }
}

/** Loads `<dir>/.gitignore` as a rule set based at `dir`, or null when absent/empty. */
export function loadGitignore(dir: string): Promise<IgnoreRuleSet | null> {
  return loadIgnoreFile(join(dir, ".gitignore"), dir);
}

/**
 * Whether `abs` (a file, or a directory when `isDir`) is ignored by `sets`, given in order from
 * shallowest to deepest. Rule sets whose base does not contain `abs` are skipped.
 */
export function isIgnored(sets: readonly IgnoreRuleSet[], abs: string, isDir: boolean): boolean {
  let ignored = false;
  for (const set of sets) {
    const rel = relative(set.base, abs);
    if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`)) continue;
    const path = sep === "/" ? rel : rel.split(sep).join("/");
    for (const rule of set.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(path)) ignored = !rule.negate;
    }
  }
  return ignored;
}
