/**
 * Slash commands typed in the prompt (`/help`, `/agents`, `/clear`, `/exit`, …). Pure: returns
 * what the App should do; the App does it.
 */
import type { AgentProfile } from "../../src/subagents/profiles/profiles.js";
import type { FileCommand } from "../../src/commands/command-files.js";
import { closestWord } from "../../src/protocol/edit-distance.js";
import { agentListing } from "./agent-listing.js";
import { HELP_KEYS } from "./key-hints.js";
import type { ItemTone } from "./transcript-types.js";

/** What a command asks the App to do. */
export type SlashOutcome =
  | { kind: "lines"; lines: string[]; tone: ItemTone }
  | { kind: "clear" }
  | { kind: "exit" }
  | { kind: "resume" }
  | { kind: "compact" }
  | { kind: "copy" }
  | { kind: "cost" }
  /** `/model` alone (`name` undefined: show the model) or `/model <name>` (switch). */
  | { kind: "model"; name?: string }
  /** `/mode` alone (next of default → accept-edits → plan) or `/mode <name>`. */
  | { kind: "mode"; name?: string }
  /** A command file (`.claude/commands/…`): `args` is what was typed after its name. */
  | { kind: "file-command"; command: FileCommand; args: string; typed: string }
  /** `/rewind` (list the turns) or `/rewind <turn> …` (see src/checkpoints/rewind.ts). */
  | { kind: "rewind"; args: string }
  /** `/merge` (list the kept worktree branches), `/merge <n…>|all [squash] [dirty]` or `/merge hand`. */
  | { kind: "merge"; args: string };

/** Facts the commands report on. */
export interface SlashContext {
  profiles: readonly AgentProfile[];
  notices: readonly string[];
  /** Tools the person allowed for the whole session with "always". */
  alwaysAllowed?: readonly string[];
  /** Every warning of the loaded agent files (the notices may only count them). */
  profileWarnings?: readonly string[];
  /** Lines of an information command the session answers (`/mcp`, `/context`, `/config`, `/tasks`); undefined when it does not know it. */
  sessionLines?: (command: string) => string[] | undefined;
  /** Commands read from files (built-in names already left out). */
  fileCommands?: readonly FileCommand[];
}

/** The commands with their one-line help, in display order. */
export const SLASH_COMMANDS: ReadonlyArray<{ name: string; help: string }> = [
  { name: "/help", help: "list commands and keys" },
  { name: "/agents", help: "list agent profiles and notices (/agents <words> narrows, /agents <name> shows one)" },
  { name: "/mcp", help: "list MCP servers, their state and tools" },
  { name: "/skills", help: "list the Agent Skills, where each came from, and the ones skipped" },
  { name: "/tasks", help: "list this session's background children and their state" },
  { name: "/context", help: "show the AGENTS.md / CLAUDE.md files in the system prompt" },
  { name: "/memory", help: "the same as /context (Claude Code's name for it)" },
  { name: "/config", help: "show the effective settings and where each came from" },
  { name: "/clear", help: "start a new conversation (the current one stays saved: /resume)" },
  { name: "/model", help: "show the model, or /model <name> to switch for the next turns" },
  { name: "/cost", help: "tokens and cost of this session, by agent" },
  { name: "/mode", help: "permission mode: /mode default|accept-edits|plan|yolo (alone, or Alt-M: the next of default, accept-edits, plan)" },
  { name: "/resume", help: "pick an earlier session of this directory and continue it" },
  { name: "/compact", help: "summarise older history now to free context" },
  { name: "/merge", help: "list this session's kept worktree branches (diffstat, overlaps, clean or not); /merge <n…>|all [squash] merges them in order, stopping at a conflict; /merge hand has the branch's child resolve it, then goes on" },
  { name: "/rewind", help: "list the turns and what each changed; /rewind <turn> [files|conversation] takes them back to before it" },
  { name: "/copy", help: "copy the last answer (clipboard via OSC 52 where the terminal allows, and a file)" },
  { name: "/exit", help: "leave Ink (also /quit)" },
];

/** The help of a command file in the `/` menu and /help: its description, argument hint and how it runs. */
export function fileCommandHelp(c: FileCommand): string {
  const runs = c.fork ? ` · runs as a child${c.agent ? ` (${c.agent})` : ""}` : "";
  return `${c.description}${c.argumentHint ? ` ${c.argumentHint}` : ""} (${c.source}${c.namespace ? `:${c.namespace}` : ""}${runs})`;
}

/** Every command of the `/` menu: the built-ins, then the command files. */
export function menuCommands(fileCommands: readonly FileCommand[] = []): Array<{ name: string; help: string }> {
  // The loader already drops built-in names (BUILTIN_COMMAND_NAMES); this keeps the menu right if the two lists drift.
  const builtin = new Set(SLASH_COMMANDS.map((c) => c.name));
  return [...SLASH_COMMANDS, ...fileCommands.filter((c) => !builtin.has(c.name.toLowerCase())).map((c) => ({ name: c.name, help: fileCommandHelp(c) }))];
}

function helpLines(fileCommands: readonly FileCommand[] = []): string[] {
  const all = menuCommands(fileCommands);
  const width = Math.max(...all.map((c) => c.name.length));
  const files = fileCommands.length > 0 ? ["Command files:", ...all.slice(SLASH_COMMANDS.length).map((c) => `  ${c.name.padEnd(width)}  ${c.help}`)] : [];
  return ["Commands:", ...SLASH_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.help}`), ...files, "Keys:", ...HELP_KEYS.map((k) => `  ${k}`)];
}

/** The outcome of `input` when it is a slash command; undefined for an ordinary prompt. */
export function runSlashCommand(input: string, ctx: SlashContext): SlashOutcome | undefined {
  const text = input.trim();
  if (!text.startsWith("/")) return undefined;
  const name = text.split(/\s+/, 1)[0]!.toLowerCase();
  switch (name) {
    case "/help":
    case "/?":
      return { kind: "lines", lines: helpLines(ctx.fileCommands), tone: "info" };
    case "/agents":
      return { kind: "lines", lines: agentListing(ctx, text.slice(name.length)), tone: "info" };
    case "/clear":
      return { kind: "clear" };
    case "/copy":
      return { kind: "copy" };
    case "/cost":
      return { kind: "cost" };
    case "/mode": {
      const arg = text.slice(name.length).trim().toLowerCase();
      return { kind: "mode", name: arg === "" ? undefined : arg };
    }
    case "/model": {
      const arg = text.slice(name.length).trim();
      return { kind: "model", name: arg === "" ? undefined : arg };
    }
    case "/exit":
    case "/quit":
      return { kind: "exit" };
    case "/resume":
      return { kind: "resume" };
    case "/compact":
      return { kind: "compact" };
    case "/rewind":
      return { kind: "rewind", args: text.slice(name.length) };
    case "/merge":
      return { kind: "merge", args: text.slice(name.length) };
    default: {
      const lines = ctx.sessionLines?.(name);
      if (lines) return { kind: "lines", lines, tone: "info" };
      const file = ctx.fileCommands?.find((c) => c.name.toLowerCase() === name || c.aliases?.some((a) => a.toLowerCase() === name));
      if (file) return { kind: "file-command", command: file, args: text.slice(name.length).trim(), typed: text };
    }
      const meant = closestWord(name, menuCommands(ctx.fileCommands).map((c) => c.name));
      return { kind: "lines", lines: [`unknown command "${name}" — ${meant ? `did you mean ${meant}? Type` : "type"} /help to see the commands.`], tone: "error" };
  }
}
