/**
 * Slash commands typed in the prompt (`/help`, `/agents`, `/clear`, `/exit`, …). Pure: returns
 * what the App should do; the App does it.
 */
import type { AgentProfile } from "../../src/subagents/profiles.js";
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
  | { kind: "mode"; name?: string };

/** Facts the commands report on. */
export interface SlashContext {
  profiles: readonly AgentProfile[];
  notices: readonly string[];
  /** Tools the person allowed for the whole session with "always". */
  alwaysAllowed?: readonly string[];
  /** Lines of an information command the session answers (`/mcp`, `/context`, `/config`, `/tasks`); undefined when it does not know it. */
  sessionLines?: (command: string) => string[] | undefined;
}

/** The commands with their one-line help, in display order. */
export const SLASH_COMMANDS: ReadonlyArray<{ name: string; help: string }> = [
  { name: "/help", help: "list commands and keys" },
  { name: "/agents", help: "list the loaded agent profiles and start-up notices" },
  { name: "/mcp", help: "list MCP servers, their state and tools" },
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
  { name: "/copy", help: "copy the last answer (clipboard via OSC 52 where the terminal allows, and a file)" },
  { name: "/exit", help: "leave Ink (also /quit)" },
];

function helpLines(): string[] {
  const width = Math.max(...SLASH_COMMANDS.map((c) => c.name.length));
  return ["Commands:", ...SLASH_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.help}`), "Keys:", ...HELP_KEYS.map((k) => `  ${k}`)];
}

/** The start-up notice saying the project's profiles were skipped because the project is not trusted. */
function untrustedNotice(notices: readonly string[]): string | undefined {
  return notices.find((n) => /not trusted/i.test(n));
}

function agentLines(ctx: SlashContext): string[] {
  const untrusted = untrustedNotice(ctx.notices);
  const skipped = untrusted
    ? ["Project profiles were skipped: this project is not trusted. Restart Ink and answer y to the trust question, or run with --trust, to load them."]
    : [];
  const lines =
    ctx.profiles.length === 0
      ? untrusted
        ? [...skipped, "No other agent profiles are loaded; the general-purpose subagent is always available."]
        : ["No agent profiles loaded (create .ink/agents/*.md or ~/.ink/agents/*.md). The general-purpose subagent is always available."]
      : ["Agent profiles:", ...ctx.profiles.map((p) => `  ${p.name} — ${p.description} (${p.source}${p.tools ? `; tools: ${p.tools.join(", ")}` : ""})`), ...skipped];
  const notices = ctx.notices.filter((n) => n !== untrusted);
  if (notices.length > 0) lines.push("Notices:", ...notices.map((n) => `  ${n}`));
  if (ctx.alwaysAllowed && ctx.alwaysAllowed.length > 0) lines.push(`Always allowed this session: ${ctx.alwaysAllowed.join(", ")}`);
  return lines;
}

/** The outcome of `input` when it is a slash command; undefined for an ordinary prompt. */
export function runSlashCommand(input: string, ctx: SlashContext): SlashOutcome | undefined {
  const text = input.trim();
  if (!text.startsWith("/")) return undefined;
  const name = text.split(/\s+/, 1)[0]!.toLowerCase();
  switch (name) {
    case "/help":
    case "/?":
      return { kind: "lines", lines: helpLines(), tone: "info" };
    case "/agents":
      return { kind: "lines", lines: agentLines(ctx), tone: "info" };
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
    default: {
      const lines = ctx.sessionLines?.(name);
      if (lines) return { kind: "lines", lines, tone: "info" };
    }
      return { kind: "lines", lines: [`unknown command "${name}" — type /help to see the commands.`], tone: "error" };
  }
}
