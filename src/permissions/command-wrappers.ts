/**
 * What one simple command really runs, for rule matching: wrappers (`timeout 5 rm`, `nice -n 10 rm`,
 * `sudo -u root rm`, `env -u X rm`, `xargs rm`, `busybox rm`, `stdbuf -oL rm`, `flock f rm`, …) are
 * looked through with their own option grammar; scripts given to a shell (`sh -c`, `bash -lc`,
 * `watch`, `su -c`, `env -S`, `flock -c`) are handed back to be split as lines; `find` reports the
 * commands of its `-exec`/`-execdir`/`-ok` and its `-delete` (as `rm`). A command whose arguments
 * continue with text only known when it runs (xargs, parallel, find -delete) is "open".
 */

/** Where the expansion of one command goes (shell-split collects it). */
export interface CommandSink {
  /** One spelling of the command for deny/ask rules (with and without wrappers). */
  spelling(text: string, open: boolean): void;
  /** The command that finally runs, for allow rules (privilege wrappers and risky variables kept). */
  command(text: string, open: boolean): void;
  /** The words of the command that finally runs (wrappers and assignments looked through), for the files it reads; `open` as for `command`. */
  run(words: string[], open: boolean): void;
  /** A shell script the command runs; split it as a line. */
  script(text: string): void;
  /** Something rules cannot vouch for: the line is never auto-allowed. */
  opaque(why: string): void;
  /** Which program runs cannot be known (`$X args`, `eval`, a shell reading stdin). */
  unknown(why: string): void;
}

interface WrapperSpec {
  /** Short options that take a value (attached, `-n10`, or the next word). */
  value?: string;
  /** Long options that take the next word as value when written without `=`. */
  long?: string[];
  /** Short / long options whose value is a shell script. */
  scriptShort?: string;
  scriptLong?: string[];
  /** Words after the options before the command (timeout's duration, chroot's root, flock's file). */
  positionals?: number;
  /** Options may follow the positionals too (GNU argument permutation). */
  permute?: true;
  /** The wrapper runs no command words of its own, only a script option (su, script). */
  noCommand?: true;
  /** `NAME=value` words may follow the options (env, sudo). */
  assigns?: true;
  /** The command's arguments continue with its input (xargs, parallel). */
  open?: true;
  /** The command words are joined and run by `sh -c` (watch). */
  shellRest?: true;
  /** Runs as another user or root: an allow rule must name the wrapper itself. */
  elevates?: true;
  /** What runs when no command follows (xargs → echo). */
  fallback?: string;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  env: { value: "uC", long: ["unset", "chdir"], scriptShort: "S", scriptLong: ["split-string"], assigns: true },
  sudo: { value: "ugCDhprtTU", long: ["user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "command-timeout", "other-user"], assigns: true, elevates: true },
  doas: { value: "uC", elevates: true },
  su: { value: "gGsw", long: ["group", "supp-group", "shell", "whitelist-environment"], scriptShort: "c", scriptLong: ["command", "session-command"], positionals: 1, permute: true, noCommand: true, elevates: true },
  runuser: { value: "ugGsw", long: ["user", "group", "supp-group", "shell", "whitelist-environment"], scriptShort: "c", scriptLong: ["command", "session-command"], elevates: true },
  chroot: { long: ["userspec", "groups"], positionals: 1, elevates: true },
  nsenter: { value: "tSG", long: ["target", "setuid", "setgid"], elevates: true },
  sg: { scriptShort: "c", positionals: 1, permute: true, shellRest: true, elevates: true },
  nohup: {},
  builtin: {},
  command: {},
  setsid: {},
  unbuffer: {},
  busybox: {},
  torsocks: {},
  exec: { value: "a" },
  time: { value: "fo", long: ["format", "output"] },
  nice: { value: "n", long: ["adjustment"] },
  ionice: { value: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"] },
  timeout: { value: "sk", long: ["signal", "kill-after"], positionals: 1 },
  stdbuf: { value: "ioe", long: ["input", "output", "error"] },
  flock: { value: "wE", long: ["timeout", "wait", "conflict-exit-code"], scriptShort: "c", scriptLong: ["command"], positionals: 1, permute: true },
  taskset: { positionals: 1 },
  chrt: { value: "TPD", long: ["sched-runtime", "sched-period", "sched-deadline"], positionals: 1 },
  script: { value: "ETIOBm", long: ["echo", "log-timing", "log-in", "log-out", "log-io", "logging-format"], scriptShort: "c", scriptLong: ["command"], positionals: 1, permute: true, noCommand: true },
  strace: { value: "abeEIoOpPsSuUX", long: ["output", "signal", "trace", "user", "attach"] },
  proxychains: { value: "f" },
  proxychains4: { value: "f" },
  xargs: { value: "ILnPsdEa", long: ["replace", "max-lines", "max-args", "max-procs", "max-chars", "delimiter", "eof", "arg-file", "process-slot-var"], open: true, fallback: "echo" },
  parallel: { value: "jSI", long: ["jobs", "sshlogin", "joblog"], open: true },
  watch: { value: "nq", long: ["interval", "equexit", "chgexit"], shellRest: true },
};

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/** Programs that only read or print their arguments: a program's name among them runs nothing. */
const NAMES_ONLY = new Set(["echo", "printf", "which", "type", "whereis", "whatis", "man", "help", "apropos", "grep", "egrep", "fgrep", "rg", "ag", "ls", "cat", "head", "tail", "wc", "file", "stat", "command"]);

/**
 * Whether `command` (one simple command, wrappers Ink knows already seen through) names `program`
 * as one of its later words after a first program Ink does not know to only read its arguments:
 * an unknown wrapper (`unshare rm x`, `fakeroot rm x`, `cpulimit -l 5 rm x`) may run it.
 */
export function mayRunLater(command: string, program: string): boolean {
  const words = command.trim().split(/\s+/).map((w) => commandName(w.replace(/^['"\\]+|['"]+$/g, "")));
  if (words.length < 2 || NAMES_ONLY.has(words[0]!)) return false;
  return words.slice(1).includes(program);
}

/** The file name of a command word (`/bin/rm` → `rm`). */
export function commandName(word: string): string {
  return word.split("/").pop() ?? word;
}

/** Skips a wrapper's options from `i`; returns the next index. Script values go to `onScript`. */
function skipOptions(words: readonly string[], i: number, spec: WrapperSpec, onScript: (s: string) => void): number {
  while (i < words.length) {
    const w = words[i]!;
    if (w === "--") return i + 1;
    if (w === "-") {
      i++;
      continue;
    }
    if (w.startsWith("--")) {
      const eq = w.indexOf("=");
      const name = w.slice(2, eq < 0 ? undefined : eq);
      const value = eq < 0 ? undefined : w.slice(eq + 1);
      if (spec.scriptLong?.includes(name)) onScript(value ?? words[++i] ?? "");
      else if (value === undefined && spec.long?.includes(name)) i++;
      i++;
      continue;
    }
    if (!w.startsWith("-")) return i;
    for (let k = 1; k < w.length; k++) {
      const c = w[k]!;
      if (spec.scriptShort?.includes(c) || spec.value?.includes(c)) {
        const value = k < w.length - 1 ? w.slice(k + 1) : words[++i] ?? "";
        if (spec.scriptShort?.includes(c)) onScript(value);
        break;
      }
    }
    i++;
  }
  return i;
}

/**
 * Looks through the wrappers of one simple command (`words`, assignments first) and reports every
 * spelling, the command that runs, scripts and find's commands to `sink`. `open`: the arguments
 * continue with input (an outer xargs).
 */
export function lookThrough(words: readonly string[], sink: CommandSink, open = false): void {
  sink.spelling(words.join(" "), open);
  let rest = words.slice();
  const assigns: string[] = [];
  let elevated = false;
  // Under sudo/su/doas the commands of a script or an empty command still need a rule naming the elevated line.
  const elevatedLine = () => {
    if (elevated) sink.command(words.filter((w) => !ASSIGNMENT.test(w)).join(" "), open);
  };
  for (;;) {
    while (rest.length > 0 && ASSIGNMENT.test(rest[0]!)) assigns.push(rest.shift()!);
    if (rest.length === 0) return elevatedLine();
    const name = commandName(rest[0]!);
    const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name]! : undefined;
    if (!spec) break;
    // `command -v rm` only looks the name up.
    if (name === "command" && rest.slice(1).some((w) => /^-[pvV]*[vV][pvV]*$/.test(w))) break;
    elevated ||= spec.elevates === true;
    open ||= spec.open === true;
    let i = skipOptions(rest, 1, spec, (s) => sink.script(s));
    i = Math.min(rest.length, i + (spec.positionals ?? 0));
    if (spec.permute) i = skipOptions(rest, i, spec, (s) => sink.script(s));
    if (spec.assigns) while (i < rest.length && ASSIGNMENT.test(rest[i]!)) assigns.push(rest[i++]!);
    let inner = spec.noCommand ? [] : rest.slice(i);
    if (name === "parallel" && inner.some((w) => w.startsWith(":::"))) inner = inner.slice(0, inner.findIndex((w) => w.startsWith(":::")));
    if (inner.length === 0 && spec.fallback) inner = [spec.fallback];
    if (spec.shellRest && inner.length > 0) {
      sink.script(inner.join(" "));
      return elevatedLine();
    }
    rest = inner;
    if (rest.length === 0) return elevatedLine();
    sink.spelling(rest.join(" "), open);
  }
  const name = commandName(rest[0]!);
  // `$X`, a glob (`/???/r[m]`, `r*`) or a brace expansion (`{rm,-f,x}`) in the program's name.
  if (/[$?*[]/.test(name) || /\{[^}]*(,|\.\.)[^}]*\}/.test(rest[0]!)) sink.unknown(`the program's name "${rest[0]}" is only known when the line runs`);
  // `hash -p /bin/rm del` makes `del` run rm; `shopt -s expand_aliases` lets an alias (also one
  // defined through BASH_ALIASES) stand for any program.
  // `trap 'rm x' EXIT` runs its first argument as a script later; `mapfile -C cb` runs cb.
  if (name === "trap") {
    const action = rest.slice(1).filter((w) => w !== "--")[0];
    if (action !== undefined && action !== "-" && !/^-[lp]+$/.test(action)) sink.script(action);
  }
  if ((name === "mapfile" || name === "readarray") && rest.slice(1).some((w) => /^-\w*C/.test(w))) sink.unknown(`${name} -C runs a callback the matcher cannot see`);
  if (name === "hash" && rest.slice(1).some((w) => /^-\w*p/.test(w))) sink.unknown("hash -p makes a name run another program");
  if (name === "shopt" && rest.includes("expand_aliases") && !rest.slice(1).some((w) => /^-\w*u/.test(w))) sink.unknown("shopt -s expand_aliases lets an alias stand for any program");
  if (name === "eval" || name === "source" || name === ".") {
    sink.opaque(`${name} runs text the matcher cannot see`);
    sink.unknown(`${name} runs text the matcher cannot see`);
  }
  if (SHELLS.has(name)) {
    const scriptAt = shellScriptIndex(rest);
    if (scriptAt === -1) sink.opaque("a shell -c without a script");
    else if (scriptAt !== undefined) {
      sink.script(rest[scriptAt]!);
      return elevatedLine();
    }
    else if (rest.slice(1).every((w) => w.startsWith("-"))) sink.unknown(`${name} reads its script from its input`);
    else {
      // `sh script.sh` runs a file the matcher cannot see, as `. ./script.sh` does.
      const file = rest.slice(1).find((w, k, a) => !/^[-+]/.test(w) && !/^[-+]o$/.test(a[k - 1] ?? ""));
      const why = `${name} runs the script file ${file ?? rest[1]}, which the matcher cannot see`;
      sink.opaque(why);
      sink.unknown(why);
    }
  }
  // `alias del=rm` makes `del` run rm (with `shopt -s expand_aliases`): each alias body is a command.
  if (name === "alias") for (const w of rest.slice(1)) if (w.includes("=") && !w.startsWith("-")) sink.script(w.slice(w.indexOf("=") + 1));
  // The command as written with a bare program name, then the one allow rules judge: privilege
  // wrappers are kept (an allow rule must name `sudo x` itself), and so are variables that change
  // what a command runs (NODE_OPTIONS=--require…, LD_PRELOAD, PATH, …).
  if (name !== rest[0]) sink.spelling([name, ...rest.slice(1)].join(" "), open);
  const risky = assigns.filter((a) => RISKY_VARIABLE.test(a));
  const base = elevated ? words.filter((w) => !ASSIGNMENT.test(w)).join(" ") : [name, ...rest.slice(1)].join(" ");
  sink.command([...risky, base].join(" "), open);
  sink.run(rest, open);
  if (name === "find") findActions(rest, sink);
}

/** Assignments that change which code a command runs; kept in the command text for allow matching. */
const RISKY_VARIABLE = /^(NODE_OPTIONS|NODE_PATH|LD_\w+|DYLD_\w+|PATH|BASH_ENV|ENV|IFS|PS4|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|PYTHON\w*|PERL5?\w*|RUBY\w*|GIT_\w+|npm_config_\w+|NPM_CONFIG_\w+)=/;

/** Index of a shell's `-c` script word; -1 when `-c` has none; undefined without `-c`. */
function shellScriptIndex(words: readonly string[]): number | undefined {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (!w.startsWith("-") || w === "--" || w === "-") return undefined;
    if (/^-[a-z]*c[a-z]*$/i.test(w)) {
      let j = i + 1;
      while (j < words.length && words[j]!.startsWith("-") && words[j] !== "-") {
        j++;
        if (words[j - 1] === "--") break;
      }
      return j < words.length ? j : -1;
    }
    if (/^[-+]o$/.test(w)) i++;
  }
  return undefined;
}

/** find's actions that run or delete: `-exec cmd … ;`, `-execdir`, `-ok`, `-okdir`, `-delete`; `-fprint` writes a file. */
function findActions(words: readonly string[], sink: CommandSink): void {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === "-exec" || w === "-execdir" || w === "-ok" || w === "-okdir") {
      let end = i + 1;
      while (end < words.length && words[end] !== ";" && words[end] !== "+") end++;
      const inner = words.slice(i + 1, end);
      if (inner.length > 0) lookThrough(inner, sink);
      i = end;
    } else if (w === "-delete") {
      sink.spelling("rm", true);
      sink.command("rm", true);
    } else if (/^-f(print0?|printf|ls)$/.test(w)) sink.opaque(`find ${w} writes to a file`);
  }
}
