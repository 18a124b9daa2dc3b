/**
 * Splits a shell line into its simple commands for rule matching, conservatively: the line is
 * cut at `&&`, `||`, `;`, `|`, `&` and newlines (outside quotes); prefix `VAR=x` assignments and the
 * wrappers `env`, `sudo`, `nohup`, `time`, `nice`, `command`, `exec` are looked through;
 * `bash -c '…'` / `sh -c '…'` is split recursively. Command and process substitution (`$(`,
 * backticks, `<(`), subshells, unbalanced quotes and output redirections to files make the line
 * "opaque": it can then be denied but never auto-allowed.
 */

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
}

const WRAPPERS = new Set(["env", "sudo", "nohup", "time", "nice", "command", "exec", "doas"]);

/** Tokenises and splits `line`. Never throws. */
export function splitShell(line: string, depth = 0): ShellSplit {
  const out: ShellSplit = { commands: [], raw: [], parsed: true };
  const fail = (problem: string) => {
    if (out.parsed) Object.assign(out, { parsed: false, problem });
  };
  let words: string[] = [];
  let word: string | null = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) addCommand(words, out, depth, fail);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ...out, parsed: false, problem: "unbalanced single quote" };
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = "";
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length) text += line[++j];
        else if (line[j] === "`" || (line[j] === "$" && line[j + 1] === "(")) fail("command substitution");
        else text += line[j];
      }
      if (j >= line.length) return { ...out, parsed: false, problem: "unbalanced double quote" };
      word = (word ?? "") + text;
      i = j;
    } else if (c === "\\") {
      word = (word ?? "") + (line[i + 1] ?? "");
      i++;
    } else if (c === "`" || (c === "$" && line[i + 1] === "(") || ((c === "<" || c === ">") && line[i + 1] === "(")) {
      fail("command substitution");
      word = (word ?? "") + c;
    } else if (c === "(" || c === ")" || c === "{" || c === "}") {
      if (word === null) fail("subshell or group");
      word = (word ?? "") + c;
    } else if (c === ";" || c === "\n" || c === "&" || c === "|") {
      if (c === "&" && (line[i - 1] === ">" || line[i + 1] === ">")) {
        word = (word ?? "") + c;
        continue;
      }
      endCommand();
      if ((c === "&" || c === "|") && line[i + 1] === c) i++;
    } else if (c === ">" || c === "<") {
      endWord();
      let op = c;
      while (line[i + 1] === ">" || line[i + 1] === "&" || line[i + 1] === "|") op += line[++i];
      while (line[i + 1] === " " || line[i + 1] === "\t") i++;
      let target = "";
      while (i + 1 < line.length && !/[\s;&|<>()]/.test(line[i + 1]!)) target += line[++i];
      if (op.startsWith(">") && !/^(\/dev\/null|&?\d|-)$/.test(target) && !/&$/.test(op)) fail(`output redirection to ${target || "a file"}`);
      if (op.endsWith("&") && !/^\d|-$/.test(target)) fail("redirection");
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === "#" && word === null) {
      const nl = line.indexOf("\n", i);
      i = nl < 0 ? line.length : nl - 1;
    } else {
      word = (word ?? "") + c;
    }
  }
  endCommand();
  return out;
}

function addCommand(words: string[], out: ShellSplit, depth: number, fail: (p: string) => void): void {
  out.raw.push(words.join(" "));
  let rest = words;
  while (rest.length > 0) {
    if (/^[A-Za-z_]\w*=/.test(rest[0]!)) rest = rest.slice(1);
    else if (WRAPPERS.has(rest[0]!.split("/").pop()!)) {
      rest = rest.slice(1);
      while (rest.length > 0 && rest[0]!.startsWith("-")) rest = rest.slice(1);
      out.raw.push(rest.join(" "));
    } else break;
  }
  if (rest.length === 0) return;
  const name = rest[0]!.split("/").pop()!;
  if ((name === "bash" || name === "sh" || name === "zsh" || name === "dash") && rest.includes("-c")) {
    const script = rest[rest.indexOf("-c") + 1];
    if (script === undefined || depth > 3) return fail("shell -c without a script");
    const inner = splitShell(script, depth + 1);
    out.commands.push(...inner.commands);
    out.raw.push(...inner.raw);
    if (!inner.parsed) fail(inner.problem ?? "inner shell");
    return;
  }
  if (name === "eval" || name === "source" || name === ".") fail(`${name} runs text the matcher cannot see`);
  // sudo/doas are kept: an allow rule must name the elevated command itself.
  const elevated = words.slice(0, words.length - rest.length).some((w) => w === "sudo" || w === "doas");
  out.commands.push(elevated ? words.filter((w) => !/^[A-Za-z_]\w*=/.test(w)).join(" ") : [name, ...rest.slice(1)].join(" "));
  if (name !== rest[0]) out.raw.push(rest.join(" "));
}
