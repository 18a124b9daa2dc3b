/**
 * bash-reads: the files a bash line reads that a Read deny rule covers. A `Read(.env)` deny rule
 * hides the file from read, grep, find and ls; `bash cat .env` must not show it either. Checked:
 * the file arguments of a command whose program is a known file reader (cat, head, sed, grep, cp's
 * sources, `dd if=`, …) and every file a redirection reads (`< .env`), each relative to the
 * working directory and to the directories the line `cd`s to, as written and with symlinks
 * resolved. An argument only known when the line runs (`$F`, a glob across directories) cannot be
 * checked: the line then asks.
 */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { commandName } from "./command-wrappers.js";
import { pathGlobRegExp, realPathOf } from "./paths.js";
import { ruleNamesTool, type PermissionRule } from "./rules.js";
import type { ShellSplit } from "./shell-split.js";

/** How a reader takes its words: which options give a pattern or script (their value is no file) and which a file. */
interface ReaderSpec {
  /** The first operand is a pattern or script, not a file, unless a `patternOpts` or `fileOpts` option gives it. */
  patternFirst?: true;
  patternOpts?: readonly string[];
  fileOpts?: readonly string[];
  /** Options whose separate value is a number or a name, not a file (`-A 3`, `-n 5`). */
  valueOpts?: readonly string[];
  /** The last operand is the destination (unless `-t`/`--target-directory` names it): only the sources are read. */
  destLast?: true;
  /** `if=FILE` operands (dd). */
  ifOperand?: true;
}

const GREP: ReaderSpec = { patternFirst: true, patternOpts: ["-e", "--regexp"], fileOpts: ["-f", "--file"], valueOpts: ["-A", "-B", "-C", "-m", "-d", "-D", "-t", "-T", "-g", "-M", "-j", "--glob", "--type", "--max-count", "--context", "--after-context", "--before-context"] };
const COUNTED: ReaderSpec = { valueOpts: ["-n", "-c", "--lines", "--bytes"] };
const AWK: ReaderSpec = { patternFirst: true, fileOpts: ["-f", "--file"] };
const PLAIN: ReaderSpec = {};

/** Programs that print, copy or pack the files they are given. */
const READERS: Record<string, ReaderSpec> = {
  ...Object.fromEntries(
    [
      "cat", "tac", "nl", "less", "more", "most", "bat", "batcat", "view", "vi", "vim", "nvim", "nano", "emacs",
      "strings", "xxd", "od", "hexdump", "hd", "base64", "base32", "basenc", "uuencode", "cut", "sort", "uniq", "paste", "join",
      "comm", "diff", "sdiff", "cmp", "fold", "fmt", "pr", "expand", "unexpand", "rev", "iconv", "column", "split", "csplit",
      "tar", "zip", "gzip", "bzip2", "xz", "zstd", "zcat", "source", ".",
    ].map((name) => [name, PLAIN]),
  ),
  head: COUNTED,
  tail: COUNTED,
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: GREP,
  ag: GREP,
  sed: { patternFirst: true, patternOpts: ["-e", "--expression"], fileOpts: ["-f", "--file"] },
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  jq: { patternFirst: true, fileOpts: ["-f", "--from-file"] },
  cp: { destLast: true },
  mv: { destLast: true },
  install: { destLast: true },
  rsync: { destLast: true },
  scp: { destLast: true },
  dd: { ifOperand: true },
};

/** The words of one reader command that name files it reads. */
function fileWords(words: readonly string[]): string[] {
  const spec = READERS[commandName(words[0]!)];
  if (!spec) return [];
  const files: string[] = [];
  const operands: string[] = [];
  let given = false;
  let target = false;
  let ended = false;
  const takes = (opts: readonly string[] | undefined, w: string) => opts?.find((o) => w === o || (o.startsWith("--") && w.startsWith(`${o}=`)));
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (ended || !w.startsWith("-") || w === "-") {
      if (spec.ifOperand && w.startsWith("if=")) files.push(w.slice(3));
      else if (!spec.ifOperand) operands.push(w);
      continue;
    }
    if (w === "--") {
      ended = true;
      continue;
    }
    const pattern = takes(spec.patternOpts, w);
    const file = takes(spec.fileOpts, w);
    if (pattern !== undefined || file !== undefined) {
      given = true;
      const value = w.includes("=") ? w.slice(w.indexOf("=") + 1) : words[++i];
      if (file !== undefined && value !== undefined) files.push(value);
      continue;
    }
    if (spec.valueOpts?.includes(w)) {
      i++;
      continue;
    }
    if (w === "-t" || w.startsWith("--target-directory")) target = true;
    // Another option's `=value` may name a file (`--files-from=.env`); a separate value is checked as an operand would be.
    if (w.startsWith("--") && w.includes("=")) files.push(w.slice(w.indexOf("=") + 1));
  }
  if (spec.patternFirst && !given) operands.shift();
  if (spec.destLast && !target) operands.pop();
  return [...files, ...operands];
}

/** The directories a word of the line may be relative to: the cwd, then each `cd` target in turn. */
function baseDirs(split: ShellSplit, cwd: string): string[] {
  const bases = [cwd];
  for (const words of split.argv) {
    const name = commandName(words[0]!);
    if ((name === "cd" || name === "pushd") && words[1] !== undefined && !words[1].startsWith("-")) bases.push(realPathOf(bases.at(-1)!, expandHome(words[1])));
  }
  return bases;
}

/** A word starting with `$HOME` with the home directory put in; other words as they are. */
function expandHome(word: string): string {
  return word.replace(/^\$HOME(?=\/|$)/, homedir());
}

/** What a bash line reads against the Read deny rules: a denial naming the rule, a question, or nothing. */
export type BashReadCheck = { kind: "deny"; rule: string; path: string; command: string } | { kind: "unknown"; rule: string; word: string; command: string } | undefined;

/** Checks the files `split` (a bash line run in `cwd`) reads against the Read deny rules among `rules`. */
export function bashReadDenied(split: ShellSplit, rules: readonly PermissionRule[], cwd: string): BashReadCheck {
  const denies = rules.filter((r) => r.kind === "deny" && ruleNamesTool(r, "read"));
  if (denies.length === 0) return undefined;
  const read: Array<{ word: string; command: string }> = [
    ...split.argv.flatMap((words) => fileWords(words).map((word) => ({ word, command: words.join(" ") }))),
    ...split.inputs.map((word) => ({ word, command: `< ${word}` })),
  ];
  if (read.length === 0) return undefined;
  const bases = baseDirs(split, cwd);
  const cwdReal = realPathOf(cwd, ".");
  const tests = denies.map((r) => ({ rule: r.source, re: r.pattern === undefined ? undefined : pathGlobRegExp(r.pattern, cwdReal) }));
  const covering = (abs: string) => tests.find((t) => t.re === undefined || t.re.test(abs))?.rule;
  for (const { word, command } of read) {
    const w = expandHome(word);
    if (w.includes("$") || w === "?") return { kind: "unknown", rule: denies[0]!.source, word, command };
    for (const base of bases) {
      const written = w === "~" || w.startsWith("~/") ? join(homedir(), w.slice(1)) : resolve(base, w);
      const paths = /[*?[]/.test(w) ? globMatches(written) : [written];
      if (paths === undefined) return { kind: "unknown", rule: denies[0]!.source, word, command };
      for (const abs of paths) {
        const rule = covering(abs) ?? covering(realPathOf(base, abs));
        if (rule !== undefined) return { kind: "deny", rule, path: word, command };
      }
    }
  }
  return undefined;
}

/** The paths the glob `abs` matches when only its last part has wildcards (as bash: `*` skips dot files unless the part starts with `.`); undefined when a directory part has them. */
function globMatches(abs: string): string[] | undefined {
  const dir = dirname(abs);
  const part = basename(abs);
  if (/[*?[]/.test(dir)) return undefined;
  const re = new RegExp(`^${part.replace(/[.+^${}()|\\/]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`, "s");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => re.test(n) && (part.startsWith(".") || !n.startsWith("."))).map((n) => join(dir, n));
}
