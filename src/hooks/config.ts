/**
 * Hook configuration in Claude Code's format: `hooks` in a settings file maps an event name to a
 * list of `{matcher, hooks: [{type: "command", command, timeout}]}`. Read from
 * `$INK_HOME/settings.json` always, and from the project's `.ink/settings.json`,
 * `.claude/settings.json` and `.claude/settings.local.json` only when the project is trusted (an
 * untrusted project's files are not even opened). A malformed entry is skipped with a problem line
 * naming the file, the place and the fix; the rest still load.
 */
import { join } from "node:path";
import { readJsonObject } from "../settings/json-object.js";

/** Every event a hook can be attached to. */
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact", "Notification"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Seconds a hook may run when its entry names no `timeout`. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** One command attached to one event. */
export interface HookEntry {
  event: HookEventName;
  /** Undefined, "" or "*" = every occurrence of the event. */
  matcher?: string;
  command: string;
  timeoutSec: number;
  /** `async: true`: runs in the background — the turn does not wait and its output is no decision. */
  async?: boolean;
  /** The settings file it came from. */
  source: string;
}

export interface HookConfig {
  entries: HookEntry[];
  /** Skipped entries and unreadable files, one line each naming the file. */
  problems: string[];
}

/** The project files that may hold hooks (and Claude Code permission rules), relative to the project. */
export const PROJECT_HOOK_FILES = [".ink/settings.json", ".claude/settings.json", ".claude/settings.local.json"] as const;

const SHAPE = 'write {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30}]}]}}';

/** Parses the `hooks` value of one settings file; bad parts become `problems` naming `path`. Never throws. */
export function parseHooks(value: unknown, path: string, problems: string[]): HookEntry[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problems.push(`${path}: "hooks" must be an object of events; ${SHAPE}`);
    return [];
  }
  const out: HookEntry[] = [];
  for (const [event, groups] of Object.entries(value as Record<string, unknown>)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(`${path}: hook event "${event}" is not known and was skipped; events: ${HOOK_EVENTS.join(", ")}`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${path}: "hooks.${event}" must be a list of {matcher, hooks} groups; ${SHAPE}`);
      continue;
    }
    groups.forEach((group: unknown, g) => {
      const where = `hooks.${event}[${g}]`;
      const grp = group as { matcher?: unknown; hooks?: unknown } | null;
      if (grp === null || typeof grp !== "object" || !Array.isArray(grp.hooks)) {
        problems.push(`${path}: "${where}" must be {"matcher": "...", "hooks": [...]}; it was skipped`);
        return;
      }
      if (grp.matcher !== undefined && typeof grp.matcher !== "string") {
        problems.push(`${path}: "${where}.matcher" must be a string such as "Bash" or "Edit|Write"; the group was skipped`);
        return;
      }
      grp.hooks.forEach((hook: unknown, h) => {
        const at = `${where}.hooks[${h}]`;
        const hk = hook as { type?: unknown; command?: unknown; timeout?: unknown; async?: unknown; prompt?: unknown } | null;
        if (hk !== null && typeof hk === "object" && (hk.type === "prompt" || hk.type === "agent")) {
          const text = typeof hk.prompt === "string" ? ` ("${hk.prompt.replace(/\s+/g, " ").trim().slice(0, 60)}${hk.prompt.length > 60 ? "…" : ""}")` : "";
          problems.push(`${path}: "${at}" is a ${hk.type}-type hook${text}, which Ink does not run (it asks a model); it was skipped — use a {"type": "command"} hook instead`);
          return;
        }
        if (hk === null || typeof hk !== "object" || hk.type !== "command") {
          problems.push(`${path}: "${at}" was skipped: only {"type": "command", "command": "..."} hooks run in Ink`);
          return;
        }
        if (typeof hk.command !== "string" || hk.command.trim() === "") {
          problems.push(`${path}: "${at}.command" must be a non-empty shell command; the hook was skipped`);
          return;
        }
        if (hk.timeout !== undefined && (typeof hk.timeout !== "number" || !(hk.timeout > 0))) {
          problems.push(`${path}: "${at}.timeout" must be a number of seconds above 0 (e.g. 30); the hook was skipped`);
          return;
        }
        if (hk.async !== undefined && typeof hk.async !== "boolean") {
          problems.push(`${path}: "${at}.async" must be true or false; the hook was skipped`);
          return;
        }
        out.push({ event: event as HookEventName, matcher: grp.matcher as string | undefined, command: hk.command, timeoutSec: (hk.timeout as number | undefined) ?? DEFAULT_HOOK_TIMEOUT_S, ...(hk.async === true ? { async: true } : {}), source: path });
      });
    });
  }
  return out;
}

/** Loads every hook: the user's, then (trusted only) the project's files. Never throws. */
export function loadHooks(opts: { inkHome: string; cwd: string; trusted: boolean }): HookConfig {
  const problems: string[] = [];
  const files = [join(opts.inkHome, "settings.json"), ...(opts.trusted ? PROJECT_HOOK_FILES.map((f) => join(opts.cwd, f)) : [])];
  const entries = files.flatMap((path) => parseHooks(readJsonObject(path, problems)?.hooks, path, problems));
  return { entries, problems };
}

/**
 * The hook commands a project file would run, one line each (`PreToolUse [Bash]: ./check.sh`),
 * for the trust question. Reads the file only to list them; runs nothing. Never throws.
 */
export function describeProjectHooks(cwd: string, rel: string): string[] {
  const problems: string[] = [];
  const entries = parseHooks(readJsonObject(join(cwd, rel), problems)?.hooks, rel, problems);
  return entries.map((e) => `${e.event}${e.matcher ? ` [${e.matcher}]` : ""}: ${e.command}${e.async ? " (in the background)" : ""}`);
}

/** True when `matcher` (Claude Code's: a regex over the name, "" / "*" / absent = all) matches one of `names`. */
export function matcherMatches(matcher: string | undefined, names: readonly string[]): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  let re: RegExp | undefined;
  try {
    re = new RegExp(`^(?:${matcher})$`);
  } catch {
    re = undefined;
  }
  return names.some((n) => (re ? re.test(n) : n === matcher));
}

/** What trusting one gated project file would load, as written (nothing runs, nothing starts). */
export interface GatedFileLoads {
  /** A settings file's hook commands (`PreToolUse [Bash]: ./check.sh`). */
  hooks: string[];
  /** A settings file's permission rules (`2 permission rules: allow Bash(npm test); deny Read(./.env)`); undefined when it sets none. */
  rules?: string;
  /** `.mcp.json`'s servers: each name and its command or url. */
  servers: { name: string; what: string }[];
}

/** What the gated project file `f` (relative to `cwd`) would load when trusted. Reads it only to list them. Never throws. */
export function gatedFileLoads(cwd: string, f: string): GatedFileLoads {
  if ((PROJECT_HOOK_FILES as readonly string[]).includes(f)) {
    const rules = describePermissionRules(cwd, f);
    return { hooks: describeProjectHooks(cwd, f), ...(rules ? { rules } : {}), servers: [] };
  }
  return { hooks: [], servers: f === ".mcp.json" ? describeMcpServers(cwd, f) : [] };
}

/**
 * The trust question's list: each changed gated file, and under it what trusting it would load —
 * for a settings file each hook command it would run (`.claude/settings.json runs the hook
 * PreToolUse [Bash]: ./check.sh`) and its permission rules (`.claude/settings.json sets 2
 * permission rules: allow Bash(npm test); deny Read(./.env)`), for `.mcp.json` each server it would
 * start (`.mcp.json starts the MCP server docs: npx docs-mcp`). Reads the files only to list them. Never throws.
 */
export function trustQuestionFiles(cwd: string, changed: readonly string[]): string[] {
  return changed.flatMap((f) => {
    const loads = gatedFileLoads(cwd, f);
    return [
      f,
      ...loads.hooks.map((h) => `${f} runs the hook ${h}`),
      ...(loads.rules ? [`${f} sets ${loads.rules}`] : []),
      ...loads.servers.map((m) => `${f} starts the MCP server ${m.name}: ${m.what}`),
    ];
  });
}

/** "2 permission rules: allow Bash(npm test); deny Read(./.env)" for a settings file's `permissions`, or undefined when it sets none. */
function describePermissionRules(cwd: string, rel: string): string | undefined {
  const permissions = readJsonObject(join(cwd, rel), [])?.permissions;
  if (permissions === null || typeof permissions !== "object" || Array.isArray(permissions)) return undefined;
  const parts: string[] = [];
  let n = 0;
  for (const kind of ["allow", "ask", "deny"]) {
    const list = (permissions as Record<string, unknown>)[kind];
    const rules = Array.isArray(list) ? list.filter((r): r is string => typeof r === "string") : [];
    if (rules.length === 0) continue;
    n += rules.length;
    parts.push(`${kind} ${rules.join(", ")}`);
  }
  return n === 0 ? undefined : `${n} permission rule${n === 1 ? "" : "s"}: ${parts.join("; ")}`;
}

/** The servers of a project's `.mcp.json` (name, and `command args` or `url`), as written; nothing is started. */
function describeMcpServers(cwd: string, rel: string): { name: string; what: string }[] {
  const servers = readJsonObject(join(cwd, rel), [])?.mcpServers;
  if (servers === null || typeof servers !== "object" || Array.isArray(servers)) return [];
  return Object.entries(servers as Record<string, unknown>).map(([name, raw]) => {
    const e = (raw ?? {}) as { command?: unknown; args?: unknown; url?: unknown };
    const args = Array.isArray(e.args) ? e.args.filter((a) => typeof a === "string") : [];
    const what = typeof e.command === "string" ? [e.command, ...args].join(" ") : typeof e.url === "string" ? e.url : "(no command or url)";
    return { name, what };
  });
}
