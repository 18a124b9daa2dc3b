/**
 * Splits a shell line into its simple commands for rule matching, with a real shell parser
 * (mvdan-sh, the JavaScript build of Go's mvdan.cc/sh: the whole POSIX/bash grammar — quotes,
 * escapes, heredocs, `[[ ]]`, loops, functions). Every simple command anywhere in the line counts,
 * including inside substitutions, subshells, groups, loops and conditionals; prefix `VAR=x`
 * assignments and wrappers (`env`, `sudo`, `timeout`, `nice`, `xargs`, `find -exec`, … — see
 * command-wrappers.ts) are looked through; `bash -c '…'` / `sh -c '…'` is split recursively. Conservatively, a line is "opaque" —
 * it can then be denied but never auto-allowed — when it holds command or process substitution,
 * a subshell, group, loop, conditional or function, a word the parser cannot reduce to text (a
 * parameter expansion with an operator, arithmetic, globs of braces), an output redirection to a
 * file, or does not parse at all.
 */
import { createRequire } from "node:module";
import { lookThrough } from "./command-wrappers.js";

/** The commands of a line and whether every part of it could be understood. */
export interface ShellSplit {
  /** Each simple command as words joined by single spaces (wrappers removed). */
  commands: string[];
  /** Also the commands with wrappers kept (for deny matching). */
  raw: string[];
  /** False when the line holds something the splitter does not understand. */
  parsed: boolean;
  /** Why the line is not fully understood. */
  problem?: string;
  /** Commands (of `commands`/`raw`) whose arguments continue with input: `xargs rm`, `find -delete`. */
  open: string[];
  /** Why which program runs cannot be known (`$X x`, `eval`, no parse): a deny rule then asks. */
  unknown?: string;
  /** Each command that finally runs as its words (wrappers looked through), in line order: what it reads (bash-reads.ts). */
  argv: string[][];
  /** The entries of `argv` whose arguments continue with their input (`xargs cat`, `parallel grep x`): the files they read have no names in the line. */
  fed: string[][];
  /** The files the line reads through redirections (`< f`, `<> f`, `<& f`), as written. */
  inputs: string[];
}


/* The parser is loaded on the first line split (it is large; most runs never ask about bash). */
// mvdan-sh ships no types: its nodes are walked untyped.
type AnyNode = any;
let parser: { syntax: AnyNode; parser: AnyNode } | undefined;
function shellParser(): { syntax: AnyNode; parser: AnyNode } {
  if (!parser) {
    const { syntax } = createRequire(import.meta.url)("mvdan-sh") as { syntax: AnyNode };
    parser = { syntax, parser: syntax.NewParser() };
  }
  return parser;
}

/** Redirection operators (mvdan-sh token numbers) that write to their target. */
const WRITE_OPS = new Set([54 /* > */, 55 /* >> */, 57 /* <> */, 60 /* >| */, 64 /* &> */, 65 /* &>> */]);
/** `>&` / `<&`: a file descriptor duplication when the target is a number or `-`. */
const DUP_OPS = new Set([58, 59]);
/** Redirection operators that open their target for reading: `<`, `<>`, `<&` (with a file). */
const READ_OPS = new Set([56, 57, 58]);
/** bash's alias and command-hash tables: an entry makes a name run another program. */
const HIDDEN_TABLES = /^BASH_(ALIASES|CMDS)\b/;
/** Nodes whose commands run in a way rule matching cannot vouch for. */
const OPAQUE: Record<string, string> = {
  CmdSubst: "command substitution",
  ProcSubst: "command substitution",
  Subshell: "subshell or group",
  Block: "subshell or group",
  IfClause: "an if/while/for/case construct",
  WhileClause: "an if/while/for/case construct",
  ForClause: "an if/while/for/case construct",
  CaseClause: "an if/while/for/case construct",
  FuncDecl: "a function definition",
  CoprocClause: "a coprocess",
  ArithmExp: "arithmetic",
  ArithmCmd: "arithmetic",
  ExtGlob: "an extended glob",
  BraceExp: "brace expansion",
};

/** The text of a word when it is plain (literals, quotes, `$NAME`); else undefined, and `why` says what is in it. */
function wordText(syntax: AnyNode, word: AnyNode, why?: (problem: string) => void): string | undefined {
  let text = "";
  const part = (p: AnyNode, quoted: boolean): boolean => {
    const type = String(syntax.NodeType(p));
    if (OPAQUE[type]) why?.(OPAQUE[type]!);
    switch (type) {
      case "Lit":
        text += quoted ? String(p.Value) : String(p.Value).replace(/\\(.)/gs, "$1");
        return true;
      case "SglQuoted":
        // `$'\x72m'` is `rm` to bash: decode ANSI-C quoting as bash does.
        text += p.Dollar ? decodeAnsiC(String(p.Value)) : String(p.Value);
        return true;
      case "DblQuoted":
        return (p.Parts as AnyNode[]).every((q) => part(q, true));
      case "ParamExp":
        if (p.Exp || p.Repl || p.Slice || p.Index || p.Excl || p.Length || p.Width || p.Names) return false;
        text += `$${p.Param.Value}`;
        return true;
      default:
        return false;
    }
  };
  return (word.Parts as AnyNode[]).every((p) => part(p, false)) ? text : undefined;
}

const ANSI_C_SIMPLE: Record<string, string> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };

/**
 * The text of a `$'…'` body as bash expands it: `\n`-style letters, `\nnn` octal, `\xHH`, `\uHHHH`,
 * `\UHHHHHHHH`, `\cX` control characters; an unknown escape stays as written; a NUL ends the text.
 */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\" || i === body.length - 1) {
      out += c;
      continue;
    }
    const e = body[++i]!;
    const digits = (re: RegExp, max: number): string => {
      let d = "";
      while (d.length < max && i + 1 < body.length && re.test(body[i + 1]!)) d += body[++i];
      return d;
    };
    let code: number | undefined;
    if (ANSI_C_SIMPLE[e] !== undefined) out += ANSI_C_SIMPLE[e];
    else if (/[0-7]/.test(e)) code = parseInt(e + digits(/[0-7]/, 2), 8) & 0xff;
    else if (e === "x" || e === "u" || e === "U") {
      const d = digits(/[0-9a-fA-F]/, e === "x" ? 2 : e === "u" ? 4 : 8);
      if (d === "") out += `\\${e}`;
      else code = parseInt(d, 16);
    } else if (e === "c" && i + 1 < body.length) {
      const x = body[++i]!;
      code = x === "?" ? 0x7f : x.toUpperCase().charCodeAt(0) & 0x1f;
    } else out += `\\${e}`;
    if (code !== undefined) {
      if (code === 0) return out;
      out += code > 0x10ffff ? "\ufffd" : String.fromCodePoint(code);
    }
  }
  return out;
}

/** Splits `line` into its commands. Never throws. */
export function splitShell(line: string, depth = 0): ShellSplit {
  const out: ShellSplit = { commands: [], raw: [], parsed: true, open: [], argv: [], fed: [], inputs: [] };
  const fail = (problem: string) => {
    if (out.parsed) Object.assign(out, { parsed: false, problem });
  };
  const { syntax, parser: p } = shellParser();
  let file: AnyNode;
  try {
    file = p.Parse(line, "line");
  } catch (err) {
    const why = typeof (err as AnyNode)?.Error === "function" ? String((err as AnyNode).Error()) : "it does not parse";
    const problem = `the shell parser cannot read it (${why})`;
    return { ...out, parsed: false, problem, unknown: problem };
  }
  // Where the commands `time` runs start (the parser's nodes are fresh wrappers on every visit, so
  // offsets): bash's `time` keyword ends its options with `--` (`time -p -- rm x` runs `rm x`).
  const timed = new Set<number>();
  syntax.Walk(file, (node: AnyNode) => {
    if (!node) return true;
    const type = String(syntax.NodeType(node));
    if (type === "TimeClause" && node.Stmt?.Cmd) timed.add(Number(node.Stmt.Cmd.Pos().Offset()));
    if (OPAQUE[type]) fail(OPAQUE[type]!);
    // `BASH_ALIASES[del]=rm` defines an alias and `BASH_CMDS[del]=/bin/rm` makes `del` run rm
    // (plain, `declare`, `readonly`, `+=`): which program a later word runs is then unknown.
    if (type === "Assign" && HIDDEN_TABLES.test(String(node.Name?.Value ?? ""))) out.unknown ??= `${node.Name.Value} changes which program a name runs`;
    if (type === "Stmt") {
      for (const r of node.Redirs as AnyNode[]) {
        const target = r.Word ? wordText(syntax, r.Word) : undefined;
        if (WRITE_OPS.has(r.Op) && target !== "/dev/null") fail(`output redirection to ${target ?? "a file"}`);
        if (DUP_OPS.has(r.Op) && !(target !== undefined && /^(\d+|-)$/.test(target))) fail(r.Op === 59 && target !== "/dev/null" ? `output redirection to ${target ?? "a file"}` : "redirection");
        if (READ_OPS.has(r.Op) && !(r.Op === 58 && target !== undefined && /^(\d+|-)$/.test(target))) out.inputs.push(target ?? "?");
      }
    } else if (type === "CallExpr") {
      const words: string[] = [];
      for (const a of node.Assigns as AnyNode[]) words.push(`${a.Name?.Value ?? ""}=${a.Value ? (wordText(syntax, a.Value) ?? "?") : ""}`);
      for (const w of node.Args as AnyNode[]) {
        const text = wordText(syntax, w, fail);
        if (text === undefined) fail("a word the matcher cannot read as text");
        words.push(text ?? "?");
      }
      // …also when named as text (`read 'BASH_CMDS[d]'`, `printf -v`, `declare -n r=BASH_ALIASES`).
      const table = words.find((w) => HIDDEN_TABLES.test(w.replace(/^\w+=/, "")) || /(^|[^\w])BASH_(ALIASES|CMDS)\b/.test(w));
      if (table !== undefined) out.unknown ??= `"${table}" changes which program a name runs`;
      if (node.Assigns.length === 0 && words[0] === "--" && timed.has(Number(node.Pos().Offset()))) words.shift();
      if (words.length > 0) addCommand(words, out, depth, fail);
    } else if (type === "DeclClause" || type === "LetClause" || type === "TestClause" || type === "TimeClause") {
      // `declare`/`export`, `let`, `[[ ]]`, `time`: no rule names them; they make the line ask.
      if (type !== "TimeClause") fail(`a ${type === "TestClause" ? "[[ ]] test" : "declaration"}`);
    }
    return true;
  });
  return out;
}

function addCommand(words: string[], out: ShellSplit, depth: number, fail: (p: string) => void): void {
  const open = new Set(out.open);
  lookThrough(words, {
    spelling: (text, isOpen) => {
      out.raw.push(text);
      if (isOpen) open.add(text);
    },
    command: (text, isOpen) => {
      out.commands.push(text);
      if (isOpen) open.add(text);
    },
    run: (words, isOpen) => {
      out.argv.push(words);
      if (isOpen) out.fed.push(words);
    },
    script: (text) => {
      if (depth > 3) {
        fail("shells nested too deeply");
        out.unknown ??= "shells nested too deeply";
        return;
      }
      const inner = splitShell(text, depth + 1);
      out.commands.push(...inner.commands);
      out.raw.push(...inner.raw);
      out.argv.push(...inner.argv);
      out.fed.push(...inner.fed);
      out.inputs.push(...inner.inputs);
      for (const o of inner.open) open.add(o);
      if (!inner.parsed) fail(inner.problem ?? "inner shell");
      if (inner.unknown) out.unknown ??= inner.unknown;
    },
    opaque: fail,
    unknown: (why) => {
      out.unknown ??= why;
    },
  });
  out.open = [...open];
}
