/**
 * Slash-command files (Claude Code's format): every `*.md` under the project's `.claude/commands`
 * and `.ink/commands` (only when the project is trusted) and the user's `~/.claude/commands` and
 * `$INK_HOME/commands`. The file's body is the prompt; a file in a sub-folder is `/name` (as Claude
 * Code names it; the folder is shown as its namespace) and `/folder:name` runs it too. Front
 * matter (optional): `description`, `argument-hint`, `allowed-tools`, `model`, and `context: fork`
 * or `agent: <profile>` to run it as a child. Ink's folders win a clash over Claude Code's, the
 * project over the user; built-in commands win over any file (one notice each). Never throws.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { isLooseTextError, lineFrontMatter, parseYamlFrontMatter, yamlErrorLine } from "../context/front-matter.js";
import { errorMessage } from "../protocol/error-message.js";
import type { ProfileProblem } from "../subagents/profiles/profile-files.js";

/** Where a command file came from. */
export type CommandSource = "project" | "claude-project" | "user" | "claude-user" | "skill";

/** A slash command read from a file. */
export interface FileCommand {
  /** `/name`: a file in a sub-folder is named by its file name alone, as Claude Code names it. */
  name: string;
  /** The sub-folder(s) of a file in one (`frontend`, `a:b`), shown beside its source as Claude Code does ("(project:frontend)"). */
  namespace?: string;
  /** Other names that run it: `/folder:name` for a file in a sub-folder. */
  aliases?: string[];
  /** Front matter `description`, else the body's first line. */
  description: string;
  argumentHint?: string;
  /** `allowed-tools` as written (shown; Ink's approval rules still decide every call). */
  allowedTools?: string[];
  /** Model for a prompt command's turn (Claude Code aliases mapped by the caller). */
  model?: string;
  /** Runs as a child (`context: fork`, or any `agent:`). */
  fork: boolean;
  /** The profile of the child (`agent:`); undefined = the general-purpose subagent. */
  agent?: string;
  /** The prompt template (`$ARGUMENTS`, `$1`…`$9`). */
  body: string;
  path: string;
  source: CommandSource;
}

/** What start-up got. */
export interface CommandLoad {
  commands: FileCommand[];
  problems: ProfileProblem[];
  notices: string[];
}

/** Built-in command names (with aliases): a file of one of these names is not used. Kept in step with the TUI's list by a test. */
export const BUILTIN_COMMAND_NAMES: readonly string[] = ["/help", "/?", "/agents", "/skills", "/tasks", "/mcp", "/context", "/memory", "/config", "/clear", "/model", "/cost", "/mode", "/resume", "/compact", "/rewind", "/merge", "/copy", "/exit", "/quit"];

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The front-matter keys of a command file (only these open a field when it is read line by line). */
const COMMAND_KEYS = ["description", "argument-hint", "allowed-tools", "model", "context", "agent", "disable-model-invocation"];

/** The `*.md` files under `root` (relative, `/`-separated, sorted), three folders deep at most. */
function listMarkdown(root: string, problems: ProfileProblem[]): string[] {
  const out: string[] = [];
  const walk = (rel: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(join(root, rel)).filter((n) => !n.startsWith(".")).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") problems.push({ path: join(root, rel), reason: `cannot read the commands folder: ${errorMessage(error)}; fix its permissions or remove it` });
      return;
    }
    for (const n of names) {
      const child = rel === "" ? n : `${rel}/${n}`;
      try {
        const st = statSync(join(root, child));
        if (st.isDirectory() && depth < 3) walk(child, depth + 1);
        else if (st.isFile() && n.endsWith(".md")) out.push(child);
      } catch {
        // vanished or unreadable: left out
      }
    }
  };
  walk("", 0);
  return out;
}

/** A YAML value as one line of text (`argument-hint: [message]` is a YAML list in Claude Code's examples). */
function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (Array.isArray(value)) return value.map((v) => `[${String(v)}]`).join(" ");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** Parses one command file. Contract: never throws; a problem names the field and the fix. */
export function parseCommandFile(raw: string, origin: { path: string; rel: string; source: CommandSource }): { ok: true; command: FileCommand } | { ok: false; reason: string } {
  const segments = origin.rel.replace(/\.md$/, "").split("/");
  const bad = segments.find((s) => !SEGMENT.test(s));
  if (bad !== undefined) return { ok: false, reason: `"${bad}" cannot be part of a command name; use letters, digits, ".", "-" and "_" (rename the file or folder)` };
  const name = `/${segments.at(-1)!}`;
  const namespace = segments.length > 1 ? segments.slice(0, -1).join(":") : undefined;
  const text = raw.replace(/^\uFEFF/, "");
  let data: Record<string, unknown> = {};
  let body = text;
  if (/^---[^\S\r\n]*\r?\n/.test(text)) {
    try {
      const file = parseYamlFrontMatter(text);
      if (file.data === null || typeof file.data !== "object" || Array.isArray(file.data)) return { ok: false, reason: "the front matter is not a set of `key: value` lines" };
      data = file.data as Record<string, unknown>;
      body = file.content;
    } catch (error) {
      // Claude Code's own examples (`argument-hint: [pr-number] [priority]`) are not valid YAML: read `key: value` lines then.
      const plain = isLooseTextError(error) ? lineFrontMatter(text, COMMAND_KEYS) : undefined;
      if (!plain) return { ok: false, reason: `invalid YAML front matter: ${yamlErrorLine(error)}; write \`key: value\` lines between two \`---\` lines` };
      data = plain.data;
      body = plain.content;
    }
  }
  body = body.trim();
  if (body === "") return { ok: false, reason: "the file has no prompt: write the prompt below the front matter (use $ARGUMENTS for what is typed after the command)" };
  const description = asText(data.description) ?? clip(body.split("\n").find((l) => l.trim() !== "")!.trim(), 80);
  const command: FileCommand = { name, description, fork: false, body, path: origin.path, source: origin.source };
  if (namespace !== undefined) {
    command.namespace = namespace;
    command.aliases = [`/${segments.join(":")}`];
  }
  const hint = asText(data["argument-hint"]);
  if (hint) command.argumentHint = hint;
  const tools = data["allowed-tools"];
  if (tools !== undefined) {
    const list = typeof tools === "string" ? tools.split(/,\s*/) : Array.isArray(tools) ? tools.map(String) : undefined;
    if (list === undefined) return { ok: false, reason: "`allowed-tools` must be a comma-separated string or a list of tool names" };
    command.allowedTools = list.map((t) => t.trim()).filter((t) => t !== "");
  }
  if (data.model !== undefined) {
    if (typeof data.model !== "string" || data.model.trim() === "") return { ok: false, reason: "`model` must be a model id such as claude-sonnet-4-5 (or sonnet, opus, haiku); remove it to use the session's model" };
    command.model = data.model.trim();
  }
  if (data.context !== undefined) {
    if (data.context !== "fork") return { ok: false, reason: `\`context\` ${JSON.stringify(data.context)} is not supported; write \`context: fork\` to run the command as a child, or remove it` };
    command.fork = true;
  }
  if (data.agent !== undefined) {
    if (typeof data.agent !== "string" || data.agent.trim() === "") return { ok: false, reason: "`agent` must name an agent profile (see /agents)" };
    command.agent = data.agent.trim();
    command.fork = true;
  }
  return { ok: true, command };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Inputs of `loadCommandFiles`. */
export interface LoadCommandsOptions {
  cwd: string;
  inkHome: string;
  /** Claude Code's home (`~/.claude`). */
  claudeHome: string;
  /** The project's gated files may be used. */
  trusted: boolean;
}

/** Loads every command file. Contract: never throws; an unusable file is a problem, the rest still load. */
export function loadCommandFiles(opts: LoadCommandsOptions): CommandLoad {
  const out: CommandLoad = { commands: [], problems: [], notices: [] };
  const cwd = resolve(opts.cwd);
  // Rising precedence.
  const roots: Array<[string, CommandSource, boolean]> = [
    [join(opts.claudeHome, "commands"), "claude-user", false],
    [join(cwd, ".claude", "commands"), "claude-project", true],
    [join(resolve(opts.inkHome), "commands"), "user", false],
    [join(cwd, ".ink", "commands"), "project", true],
  ];
  const seenRoots = new Set<string>();
  const merged = new Map<string, FileCommand>();
  let skipped = 0;
  for (const [root, source, project] of roots) {
    if (seenRoots.has(root)) continue;
    seenRoots.add(root);
    if (project && !opts.trusted) {
      skipped += listMarkdown(root, []).length;
      continue;
    }
    for (const rel of listMarkdown(root, out.problems)) {
      const path = join(root, rel);
      let raw: string;
      try {
        raw = readFileSync(path, "utf8");
      } catch (error) {
        out.problems.push({ path, reason: `cannot read the file: ${errorMessage(error)}; fix its permissions or remove it` });
        continue;
      }
      const parsed = parseCommandFile(raw, { path, rel, source });
      if (!parsed.ok) {
        out.problems.push({ path, reason: parsed.reason });
        continue;
      }
      const command = parsed.command;
      if (BUILTIN_COMMAND_NAMES.includes(command.name.toLowerCase())) {
        // A sub-folder file named like a built-in still runs by its folder name.
        if (!command.aliases) {
          out.notices.push(`Command file ${path} is named ${command.name}, a built-in command; the built-in runs (rename the file to use it).`);
          continue;
        }
        out.notices.push(`Command file ${path} is named ${command.name}, a built-in command; run it as ${command.aliases[0]}.`);
        command.name = command.aliases[0]!;
        delete command.aliases;
      }
      const key = command.name.toLowerCase();
      const shadowed = merged.get(key);
      if (shadowed && shadowed.source === source && shadowed.namespace !== command.namespace) {
        // Two files of one folder with the same name in different sub-folders: the one in a sub-folder
        // (the later one when both are) is named by its folder, `/folder:name`, and both run.
        const renamed = command.aliases ? command : shadowed;
        out.notices.push(`Command files ${shadowed.path} and ${path} are both ${command.name}; ${renamed.path} runs as ${renamed.aliases![0]}.`);
        renamed.name = renamed.aliases![0]!;
        delete renamed.aliases;
        merged.set(key, renamed === command ? shadowed : command);
        merged.set(renamed.name.toLowerCase(), renamed);
        continue;
      }
      if (shadowed) out.notices.push(`Command ${command.name} (${shadowed.source}: ${shadowed.path}) is shadowed by the ${source} file ${path}.`);
      merged.set(key, command);
    }
  }
  if (skipped > 0) out.notices.push(`Skipped ${skipped} project command file(s) in .claude/commands, .ink/commands: trust this project to use them (run with --trust, or accept the trust question in the TUI).`);
  out.commands = [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

/** The words of `args`, quotes grouping ("two words" or 'two words'). */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? "");
  return words;
}

/**
 * The prompt of `command` run with `args` (what was typed after its name): `$ARGUMENTS` becomes
 * all of it, `$1`…`$9` its words (missing ones become ""). A body using neither gets the
 * arguments appended as `ARGUMENTS: …` (Claude Code's behaviour), so nothing typed is lost.
 */
export function expandCommand(command: Pick<FileCommand, "body">, args: string): string {
  const text = args.trim();
  const uses = /\$ARGUMENTS|\$[1-9](?!\d)/.test(command.body);
  const body = substituteArguments(command.body, text);
  return !uses && text !== "" ? `${body}\n\nARGUMENTS: ${text}` : body;
}

/** `template` with `$ARGUMENTS` replaced by `args` and `$1`…`$9` by its words (missing ones by ""). */
export function substituteArguments(template: string, args: string): string {
  const text = args.trim();
  const words = splitArguments(text);
  return template.replace(/\$ARGUMENTS/g, () => text).replace(/\$([1-9])(?!\d)/g, (_, n: string) => words[Number(n) - 1] ?? "");
}
