/**
 * The permission decision (pure): given the rules of every scope, the mode, the call and the
 * agent's working directory, answers allow / ask / deny with a reason. Precedence: deny > ask >
 * allow across every scope; then the mode's default. Headless callers turn `ask` into a denial.
 */
import { isInside, inGitDir, isSensitivePath, pathGlobMatches, realPathOf } from "./paths.js";
import { ruleNamesTool, wildcardToRegExp, type PermissionRule } from "./rules.js";
import { bashReadDenied } from "./bash-reads.js";
import { mayRunLater } from "./command-wrappers.js";
import { splitShell } from "./shell-split.js";

export type PermissionMode = "default" | "accept-edits" | "plan" | "yolo";
export const PERMISSION_MODES: readonly PermissionMode[] = ["default", "accept-edits", "plan", "yolo"];

/**
 * `firm` marks an ask that a session-wide "always allow this tool" must not answer: an ask rule,
 * a file or command that may expose secrets, a change outside the working directory.
 */
export type Verdict = { kind: "allow" } | { kind: "ask"; reason: string; firm?: true } | { kind: "deny"; reason: string };

export interface DecisionInput {
  tool: string;
  args: Record<string, unknown>;
  readOnly: boolean;
  /** The tool says it only reads (MCP readOnlyHint): plan mode runs it unasked (other modes ask). */
  readOnlyHint?: boolean;
  /** The agent's working directory (a worktree child: its worktree). */
  cwd: string;
  mode: PermissionMode;
  rules: readonly PermissionRule[];
  /** More directories that count as the working directory (settings' `additionalDirectories`), absolute. */
  roots?: readonly string[];
}

const PATH_TOOLS = new Set(["read", "edit", "write", "grep", "find", "ls"]);

/** The verdict for one call. Never throws. */
export function decide(input: DecisionInput): Verdict {
  const { tool } = input;
  const rules = input.rules.filter((r) => ruleNamesTool(r, tool));
  if (tool === "task") return decideTask(rules);
  if (tool === "bash") return decideBash(String(input.args.command ?? ""), rules, input.mode, input.rules, input.cwd);
  const path = PATH_TOOLS.has(tool) ? pathArg(input.args) : undefined;
  const abs = path === undefined ? undefined : realPathOf(input.cwd, path);
  const cwdReal = realPathOf(input.cwd, ".");
  const matches = (r: PermissionRule) => r.pattern === undefined || (abs !== undefined && pathGlobMatches(r.pattern, cwdReal, abs));
  const deny = rules.find((r) => r.kind === "deny" && matches(r));
  if (deny) return { kind: "deny", reason: `${tool} is denied by the rule ${deny.source}` };
  if (abs !== undefined && !input.readOnly && inGitDir(abs)) return { kind: "deny", reason: `${tool} never writes inside .git/ (${abs})` };
  const ask = rules.find((r) => r.kind === "ask" && matches(r));
  if (ask) return { kind: "ask", reason: `the rule ${ask.source} asks before ${tool}`, firm: true };
  if (input.mode === "plan" && !input.readOnly && !input.readOnlyHint) return { kind: "deny", reason: `plan mode allows only read-only tools; ${tool} is not run — describe the change instead` };
  const sensitive = abs !== undefined && isSensitivePath(abs);
  const inside = abs === undefined || isInside(cwdReal, abs) || (input.roots ?? []).some((root) => isInside(realPathOf(input.cwd, root), abs));
  // Changing a file outside the working directory (or a child's worktree) needs a rule with a path
  // pattern that covers it: a bare `edit`, `edit(**)` or yolo stays inside.
  const confined = !input.readOnly && !inside;
  // A broad rule (no pattern, or a wildcard) never allows a sensitive file: only one naming it exactly.
  const allow = rules.find((r) => r.kind === "allow" && matches(r) && (!sensitive || (r.pattern !== undefined && !/[*?]/.test(r.pattern))) && (!confined || r.pattern !== undefined));
  if (allow) return { kind: "allow" };
  if (input.mode === "yolo" && !sensitive && !confined) return { kind: "allow" };
  if (input.readOnly) {
    if (sensitive) return { kind: "ask", reason: `${abs} may hold secrets; only a rule naming it exactly allows ${tool} there`, firm: true };
    if (inside) return { kind: "allow" };
    return { kind: "ask", reason: `${abs} is outside the working directory ${cwdReal}; a rule like ${tool}(${abs}) allows it` };
  }
  if (input.mode === "plan") {
    // Plan mode is for reading: a tool whose server says it only reads (readOnlyHint) runs there
    // unasked, as in Claude Code; deny and ask rules were applied above.
    if (input.readOnlyHint) return { kind: "allow" };
    return { kind: "deny", reason: `plan mode allows only read-only tools; ${tool} is not run — describe the change instead` };
  }
  if (!inside) return { kind: "ask", reason: `${abs} is outside the working directory ${cwdReal} (symlinks resolved); only a rule naming the path, like ${tool}(${abs}), allows it (a bare ${tool} rule or yolo does not)`, firm: true };
  if (input.mode === "accept-edits" && (tool === "edit" || tool === "write")) return { kind: "allow" };
  return { kind: "ask", reason: `${tool} needs approval` };
}

/** /proc entries that hold no secrets. */
const HARMLESS_PROC = /^\/proc\/(cpuinfo|meminfo|loadavg|uptime|version|stat|mounts|filesystems|cgroups)$/;

/**
 * What in a bash line may reach a process environment or a key, or undefined: `environ`, any
 * other `/proc` path (`/proc/$PPID/env*`, `cd /proc`), `/dev/fd` (a way back into /proc/self),
 * `.ssh/`, `.aws/credentials` — looked for in the line as written and in its unquoted words.
 */
function namesSecrets(command: string, words: readonly string[]): string | undefined {
  for (const text of [command, ...words]) {
    if (/\benviron\b/.test(text)) return "a process environment (environ)";
    const proc = text.split(/[\s;&|<>()'"`=]+/).find((w) => /(^|[^\w.-])\/proc(\/|$)/.test(w) && !HARMLESS_PROC.test(w));
    if (proc !== undefined) return `the /proc path ${proc}`;
    if (/\/dev\/fd(\/|\b)/.test(text)) return "/dev/fd (a way into /proc/self)";
    if (/(^|\/|\s)\.ssh(\/|\s|$)|\.aws\/credentials/.test(text)) return "a key or credentials file";
  }
  return undefined;
}

/** Delegation runs unless a rule denies or asks (each child call is decided on its own anyway). */
function decideTask(rules: readonly PermissionRule[]): Verdict {
  const deny = rules.find((r) => r.kind === "deny");
  if (deny) return { kind: "deny", reason: `task is denied by the rule ${deny.source}` };
  const ask = rules.find((r) => r.kind === "ask");
  if (ask) return { kind: "ask", reason: `the rule ${ask.source} asks before delegating`, firm: true };
  return { kind: "allow" };
}

function pathArg(args: Record<string, unknown>): string {
  return typeof args.path === "string" && args.path.trim() !== "" ? args.path : ".";
}

/**
 * Whether a bash rule pattern covers a command. Deny/ask rules (`loose`) also cover the command with
 * more arguments (`bash(rm)` covers `rm -rf x`) and `bash(rm *)` covers a bare `rm`. An open command
 * (`xargs rm`: its arguments come from input) is covered for allowing only when every continuation
 * is; for deny/ask it "may" be covered when some continuation is.
 */
function covers(pattern: string | undefined, cmd: string, loose: boolean, open: boolean): "yes" | "may" | "no" {
  if (pattern === undefined) return "yes";
  const re = (p: string) => wildcardToRegExp(p).test(cmd);
  if (!loose) return (open ? pattern.endsWith("*") && wildcardToRegExp(pattern).test(`${cmd} `) : re(pattern)) ? "yes" : "no";
  if (re(pattern) || re(`${pattern} *`) || (pattern.endsWith(" *") && re(pattern.slice(0, -2)))) return "yes";
  if (!open) return "no";
  const full = `${pattern} *`;
  for (let i = 0; i <= full.length; i++) if (wildcardToRegExp(full.slice(0, i)).test(`${cmd} `)) return "may";
  return "no";
}

/**
 * Every command of the line must be allowed; any deny match denies, and so does a file the line
 * reads that a Read deny rule among `allRules` covers (bash-reads.ts); a line that may read such a file
 * without naming it asks (firm); an opaque line is never auto-allowed.
 */
function decideBash(command: string, rules: readonly PermissionRule[], mode: PermissionMode, allRules: readonly PermissionRule[], cwd: string): Verdict {
  const split = splitShell(command);
  const all = [...new Set([...split.commands, ...split.raw])];
  const open = new Set(split.open);
  const loose = (r: PermissionRule, want: "yes" | "may") => all.find((c) => covers(r.pattern, c, true, open.has(c)) === want);
  const denies = rules.filter((x) => x.kind === "deny");
  for (const r of denies) {
    const cmd = loose(r, "yes") ?? (r.pattern === undefined ? command : undefined);
    if (cmd !== undefined) return { kind: "deny", reason: `bash command "${cmd}" is denied by the rule ${r.source}` };
  }
  const reads = bashReadDenied(split, allRules, cwd);
  if (reads?.kind === "deny") return { kind: "deny", reason: `bash command "${reads.command}" reads ${reads.path}, which the rule ${reads.rule} denies` };
  if (mode === "plan") return { kind: "deny", reason: "plan mode allows only read-only tools; bash is not run" };
  for (const r of denies) {
    const cmd = loose(r, "may");
    if (cmd !== undefined) return { kind: "ask", reason: `"${cmd}" takes more arguments from its input (xargs, find -delete), which may make it a command the rule ${r.source} denies`, firm: true };
  }
  if (reads?.kind === "may") return { kind: "ask", reason: `"${reads.command}" ${reads.why} that the rule ${reads.rule} denies, so it does not run without approval`, firm: true };
  if (reads?.kind === "unknown") return { kind: "ask", reason: `"${reads.command}" reads ${reads.word}, a file only known when it runs, so under the rule ${reads.rule} it does not run without approval`, firm: true };
  if (split.unknown && denies.length > 0) return { kind: "ask", reason: `the command cannot be checked against the deny rule ${denies[0]!.source} (${split.unknown}), so it does not run without approval`, firm: true };
  for (const r of denies) {
    const program = r.pattern?.trim().split(/\s+/)[0];
    const cmd = program && /^[\w.+-]+$/.test(program) ? split.commands.find((c) => mayRunLater(c, program)) : undefined;
    if (cmd !== undefined) return { kind: "ask", reason: `"${cmd}" names ${program} after a program Ink does not know (it may run it), so under the rule ${r.source} it does not run without approval`, firm: true };
  }
  for (const r of rules.filter((x) => x.kind === "ask")) {
    const cmd = loose(r, "yes") ?? loose(r, "may");
    if (cmd !== undefined || r.pattern === undefined) return { kind: "ask", reason: `the rule ${r.source} asks before "${cmd ?? command}"`, firm: true };
  }
  const sensitive = namesSecrets(command, all);
  if (sensitive) return { kind: "ask", reason: `the command names ${sensitive}, which may expose secrets (Ink's own environment holds the API key); no broad rule or mode allows that`, firm: true };
  if (mode === "yolo") return { kind: "allow" };
  if (!split.parsed) return { kind: "ask", reason: `the command cannot be matched against rules (${split.problem}), so no rule allows it` };
  const allows = rules.filter((x) => x.kind === "allow");
  const missing = split.commands.filter((c) => !allows.some((r) => covers(r.pattern, c, false, open.has(c)) === "yes"));
  if (split.commands.length > 0 && missing.length === 0) return { kind: "allow" };
  return { kind: "ask", reason: missing.length > 0 ? `no rule allows "${missing[0]}"${open.has(missing[0]!) ? " with arguments from its input" : ""}` : "bash needs approval" };
}
