/**
 * bash-reads: the files a bash line reads that a Read deny rule covers. A `Read(.env)` deny rule
 * hides the file from read, grep, find and ls; `bash cat .env` must not show it either. Checked:
 * the file arguments of a command whose program is a known file reader (cat, head, sed, grep, cp's
 * sources, `dd if=`, …) and every file a redirection reads (`< .env`), each relative to the
 * working directory and to the directories the line `cd`s to, as written and with symlinks
 * resolved. An argument only known when the line runs (`$F`, a glob across directories) cannot be
 * checked: the line then asks. So does a line that may read a denied file without naming it: a
 * reader given a directory that holds one (`grep -r x .`, `rg x`, `tar c .`, `find . -exec cat {} \;`;
 * symlinks met on the way are judged by their targets), a reader whose files come from its input
 * (`xargs cat`), and an interpreter running code given on the line or its input (`python -c`, `node -e`).
 */
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { commandName, lookThrough } from "./command-wrappers.js";
import { isInside, pathGlobBase, pathGlobRegExp, realPathOf } from "./paths.js";
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
  /** Searches the working directory when given no file (rg, ag), or does so with a recursive option (grep -r). */
  searchesCwd?: "always" | "recursive";
}

const GREP_OPTS = { patternFirst: true, patternOpts: ["-e", "--regexp"], fileOpts: ["-f", "--file"], valueOpts: ["-A", "-B", "-C", "-m", "-d", "-D", "-t", "-T", "-g", "-M", "-j", "--glob", "--type", "--max-count", "--context", "--after-context", "--before-context"] } as const;
const GREP: ReaderSpec = { ...GREP_OPTS, searchesCwd: "recursive" };
const RG: ReaderSpec = { ...GREP_OPTS, searchesCwd: "always" };
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
  rgrep: RG,
  rg: RG,
  ag: RG,
  ack: RG,
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

/** The words of one reader command that name files it reads (`.` for the working directory a search with no file covers). */
function fileWords(words: readonly string[]): string[] {
  const spec = Object.hasOwn(READERS, commandName(words[0]!)) ? READERS[commandName(words[0]!)] : undefined;
  if (!spec) return [];
  let recursive = false;
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
    if (/^-[a-zA-Z]*[rR]/.test(w) && !/^-[a-zA-Z]*[ABCmdDeftTgMj][a-zA-Z]*[rR]/.test(w)) recursive = true; // -r, -rn, -Rl (not a value: -m1r)
    if (w === "--recursive" || w === "--dereference-recursive" || w === "--directories=recurse" || (w === "-d" && words[i + 1] === "recurse")) recursive = true;
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
  if (operands.length === 0 && (spec.searchesCwd === "always" || (spec.searchesCwd === "recursive" && recursive))) operands.push(".");
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

/**
 * What a bash line reads against the Read deny rules: a denial naming the rule, or a question — a
 * file only known when the line runs (`unknown`), or a way to read a denied file without naming it
 * (`may`: `why` completes "<command> … that the rule … denies").
 */
export type BashReadCheck =
  | { kind: "deny"; rule: string; path: string; command: string }
  | { kind: "unknown"; rule: string; word: string; command: string }
  | { kind: "may"; rule: string; command: string; why: string }
  | undefined;

/** Checks the files `split` (a bash line run in `cwd`) reads against the Read deny rules among `rules`. A denial wins over a question. */
export function bashReadDenied(split: ShellSplit, rules: readonly PermissionRule[], cwd: string): BashReadCheck {
  const denies = rules.filter((r) => r.kind === "deny" && ruleNamesTool(r, "read"));
  if (denies.length === 0) return undefined;
  const first = denies[0]!.source;
  const read: Array<{ word: string; command: string }> = [
    ...split.argv.flatMap((words) => fileWords(words).map((word) => ({ word, command: words.join(" ") }))),
    ...split.argv.flatMap((words) => findExecReads(words).map((word) => ({ word, command: words.join(" ") }))),
    ...split.inputs.map((word) => ({ word, command: `< ${word}` })),
  ];
  const bases = baseDirs(split, cwd);
  const cwdReal = realPathOf(cwd, ".");
  const tests = denies.map((r) => ({ rule: r.source, re: r.pattern === undefined ? undefined : pathGlobRegExp(r.pattern, cwdReal), base: r.pattern === undefined ? "/" : pathGlobBase(r.pattern, cwdReal) }));
  const covering = (abs: string) => tests.find((t) => t.re === undefined || t.re.test(abs))?.rule;
  let question: BashReadCheck;
  for (const { word, command } of read) {
    const w = expandHome(word);
    if (w.includes("$") || w === "?") {
      question ??= { kind: "unknown", rule: first, word, command };
      continue;
    }
    for (const base of bases) {
      const written = w === "~" || w.startsWith("~/") ? join(homedir(), w.slice(1)) : resolve(base, w);
      const paths = /[*?[]/.test(w) ? globMatches(written) : [written];
      if (paths === undefined) {
        question ??= { kind: "unknown", rule: first, word, command };
        continue;
      }
      for (const abs of paths) {
        const real = realPathOf(base, abs);
        const rule = covering(abs) ?? covering(real);
        if (rule !== undefined) return { kind: "deny", rule, path: word, command };
        if (question === undefined && isDirectory(real)) {
          const found = deniedUnder(abs, real, covering, tests.map((t) => t.base));
          if (found !== undefined) question = { kind: "may", rule: found.rule ?? first, command, why: `reads the directory ${word} and all below it, which holds ${found.path ?? "more files than Ink checks, maybe one"}` };
        }
      }
    }
  }
  if (question !== undefined) return question;
  for (const words of split.fed) {
    const name = commandName(words[0]!);
    if (Object.hasOwn(READERS, name)) return { kind: "may", rule: first, command: words.join(" "), why: "takes the files it reads from its input (xargs, parallel), so it may read a file" };
  }
  for (const words of split.argv) {
    const why = interpreterCode(words);
    if (why !== undefined) return { kind: "may", rule: first, command: words.join(" "), why };
  }
  return undefined;
}

/** The file words of the readers find runs on each file it meets (`find dir -exec cat {} \;`): find's start directories. */
function findExecReads(words: readonly string[]): string[] {
  if (commandName(words[0]!) !== "find") return [];
  let i = 1;
  while (i < words.length && /^-[HLP]$|^-O\d$/.test(words[i]!)) i++;
  if (words[i] === "-D") i += 2;
  const starts: string[] = [];
  while (i < words.length && !/^[-(!]/.test(words[i]!)) starts.push(words[i++]!);
  let readsEach = false;
  for (; i < words.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(words[i]!)) continue;
    let end = i + 1;
    while (end < words.length && words[end] !== ";" && words[end] !== "+") end++;
    const runs: string[][] = [];
    const none = () => {};
    lookThrough(words.slice(i + 1, end), { spelling: none, command: none, run: (w) => runs.push(w), script: none, opaque: none, unknown: none });
    if (runs.some((w) => fileWords(w).some((f) => f.includes("{}")))) readsEach = true;
    i = end;
  }
  if (!readsEach) return [];
  return starts.length > 0 ? starts : ["."];
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** How many entries `deniedUnder` looks at before it gives up (and the line asks). */
const WALK_LIMIT = 20_000;

/**
 * A path under directory `dir` (as written, and `real`, its real path) that a rule covers — each
 * entry judged as written and at its real place — or `{}` after more entries than `WALK_LIMIT`.
 * Only directories on the way to or below a rule's base (`bases`, see pathGlobBase) are entered,
 * and each real directory once. The path found is given relative to `dir`.
 */
function deniedUnder(dir: string, real: string, covering: (abs: string) => string | undefined, bases: readonly string[]): { path?: string; rule?: string } | undefined {
  const near = (d: string) => bases.some((b) => isInside(b, d) || isInside(d, b));
  const seen = new Set<string>();
  const stack = [{ written: dir, real }];
  let count = 0;
  while (stack.length > 0) {
    const d = stack.pop()!;
    if (seen.has(d.real)) continue;
    seen.add(d.real);
    let entries: Dirent[];
    try {
      entries = readdirSync(d.real, { withFileTypes: true });
    } catch {
      continue; // unreadable: the command cannot read it either
    }
    for (const e of entries) {
      if (++count > WALK_LIMIT) return {};
      const written = join(d.written, e.name);
      let at = join(d.real, e.name);
      if (e.isSymbolicLink()) {
        try {
          at = realpathSync.native(at);
        } catch {
          continue; // dangling: nothing to read
        }
      }
      const rule = covering(written) ?? covering(at);
      if (rule !== undefined) return { path: relative(dir, written), rule };
      if ((e.isDirectory() || (e.isSymbolicLink() && isDirectory(at))) && (near(written) || near(at))) stack.push({ written, real: at });
    }
  }
  return undefined;
}

interface InterpreterSpec {
  /** Option letters whose value is program text (`-c`, `-e`); may end a cluster (`perl -ne`). */
  inline: string;
  /** Option letters that take the rest of the cluster as a value (`-MData::Dumper`), ending the scan. */
  valued?: string;
  /** Long options whose value is program text. */
  long?: readonly string[];
  /** A subcommand that runs program text (`deno eval`). */
  sub?: string;
}

const PYTHON: InterpreterSpec = { inline: "c", valued: "WXQm" };
const NODE: InterpreterSpec = { inline: "ep", long: ["--eval", "--print"] };
/** Interpreters: code given on the line or its input may open any file. */
const INTERPRETERS: Record<string, InterpreterSpec> = {
  node: NODE,
  nodejs: NODE,
  bun: NODE,
  deno: { inline: "", sub: "eval" },
  perl: { inline: "eE", valued: "MmIxil0CDd" },
  ruby: { inline: "e", valued: "IrxCEFKTW0" },
  php: { inline: "rBRFE" },
  lua: { inline: "e", valued: "l" },
  luajit: { inline: "e", valued: "l" },
  Rscript: { inline: "e" },
  osascript: { inline: "e" },
  tclsh: { inline: "" },
};

/** Why an interpreter command runs code the line does not show as files (completing "… that the rule … denies"), or undefined. */
function interpreterCode(words: readonly string[]): string | undefined {
  const name = commandName(words[0]!);
  const spec = /^python[\d.]*$|^pypy3?$/.test(name) ? PYTHON : Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name]! : undefined;
  if (!spec) return undefined;
  const why = `runs code given on the line, which may open any file, also one`;
  if (words.length === 1 || words[1] === "-") return `runs a program from its input, which may open any file, also one`;
  if (spec.sub !== undefined && words[1] === spec.sub) return why;
  for (const w of words.slice(1)) {
    if (w === "--" || !w.startsWith("-")) break; // the script file and its arguments
    if (spec.long?.some((o) => w === o || w.startsWith(`${o}=`))) return why;
    if (w.startsWith("--")) continue;
    for (const c of w.slice(1)) {
      if (spec.inline.includes(c)) return why;
      if (spec.valued?.includes(c)) break;
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
