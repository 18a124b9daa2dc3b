/**
 * What `/agents` prints: one line per profile under a count (a description's `<example>` blocks
 * and later sentences left out, so hundreds of real agents stay a list one can read back), the
 * notices and agent-file warnings; `/agents <name>` shows one profile in full and `/agents <words>`
 * lists only the profiles matching them, best first (the ranking `find_agent` uses).
 */
import type { AgentProfile } from "../../src/subagents/profiles/profile-parse.js";
import { rankAgents } from "../../src/subagents/tools/agent-search-tool.js";

/** Facts the listing reports on. */
export interface AgentListingContext {
  profiles: readonly AgentProfile[];
  notices: readonly string[];
  /** Every warning of the loaded agent files (the notices may only count them). */
  profileWarnings?: readonly string[];
  /** Tools the person allowed for the whole session with "always". */
  alwaysAllowed?: readonly string[];
}

/** Longest summary of a description in the list. */
const SUMMARY_CHARS = 72;
/** Tools named per line before "+N more". */
const TOOLS_SHOWN = 4;
/** From this many profiles on, the list's header says how to narrow it. */
const HINT_FROM = 10;

/** The first sentence of a description, `<example>` blocks and line breaks left out, clipped. */
export function summarizeDescription(description: string): string {
  const plain = description
    .replace(/<example>[\s\S]*?(<\/example>|$)/gi, " ")
    .replace(/<\/?[a-z_]+>/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
  const sentence = plain.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? plain;
  return sentence.length <= SUMMARY_CHARS ? sentence : `${sentence.slice(0, SUMMARY_CHARS - 1).trimEnd()}…`;
}

function toolsText(tools: readonly string[] | undefined): string {
  if (!tools) return "";
  const shown = tools.slice(0, TOOLS_SHOWN).join(", ");
  return `; tools: ${shown}${tools.length > TOOLS_SHOWN ? ` +${tools.length - TOOLS_SHOWN} more` : ""}`;
}

function profileLine(p: AgentProfile): string {
  return `  ${p.name} — ${summarizeDescription(p.description)} (${p.source}${toolsText(p.tools)})`;
}

/** One profile in full: where it is, what it runs with, its whole description and its warnings. */
function profileDetail(p: AgentProfile): string[] {
  const lines = [`Agent profile ${p.name} (${p.source}, ${p.path})`];
  lines.push(`  tools: ${p.tools ? p.tools.join(", ") : "every tool of the parent except task"}`);
  if (p.disallowedTools?.length) lines.push(`  disallowed tools: ${p.disallowedTools.join(", ")}`);
  if (p.model) lines.push(`  model: ${p.model}`);
  if (p.permissionMode) lines.push(`  permission mode: ${p.permissionMode}`);
  if (p.skills?.length) lines.push(`  skills: ${p.skills.join(", ")}`);
  lines.push("  description:", ...p.description.trim().split("\n").map((l) => `    ${l}`));
  if (p.warnings?.length) lines.push("  warnings:", ...p.warnings.map((w) => `    ${w}`));
  return lines;
}

/** The start-up notice saying the project's profiles were skipped because the project is not trusted. */
function untrustedNotice(notices: readonly string[]): string | undefined {
  return notices.find((n) => /not trusted/i.test(n));
}

/** The lines of `/agents` (no argument): every profile, notices, warnings and "always" tools. */
function fullListing(ctx: AgentListingContext): string[] {
  const untrusted = untrustedNotice(ctx.notices);
  const skipped = untrusted
    ? ["Project profiles were skipped: this project is not trusted. Restart Ink and answer y to the trust question, or run with --trust, to load them."]
    : [];
  const n = ctx.profiles.length;
  const header = `Agent profiles (${n})${n >= HINT_FROM ? " — /agents <words> lists the ones matching, /agents <name> shows one in full" : ""}:`;
  const lines =
    n === 0
      ? untrusted
        ? [...skipped, "No other agent profiles are loaded; the general-purpose subagent is always available."]
        : ["No agent profiles loaded (create .ink/agents/*.md or ~/.ink/agents/*.md). The general-purpose subagent is always available."]
      : [header, ...ctx.profiles.map(profileLine), ...skipped];
  const notices = ctx.notices.filter((x) => x !== untrusted);
  if (notices.length > 0) lines.push("Notices:", ...notices.map((x) => `  ${x}`));
  const warnings = (ctx.profileWarnings ?? []).filter((w) => !notices.includes(w));
  if (warnings.length > 0) lines.push(`Agent file warnings (${warnings.length}):`, ...warnings.map((w) => `  ${w}`));
  if (ctx.alwaysAllowed && ctx.alwaysAllowed.length > 0) lines.push(`Always allowed this session: ${ctx.alwaysAllowed.join(", ")}`);
  return lines;
}

/**
 * The lines `/agents [arg]` prints. No argument: the whole listing. An argument naming a profile
 * (any case): that profile in full. Other words: the matching profiles, best first, with a count.
 */
export function agentListing(ctx: AgentListingContext, arg = ""): string[] {
  const query = arg.trim();
  if (query === "") return fullListing(ctx);
  const exact = ctx.profiles.find((p) => p.name.toLowerCase() === query.toLowerCase());
  if (exact) return profileDetail(exact);
  const found = rankAgents(ctx.profiles, query, ctx.profiles.length);
  if (found.length === 0) return [`No agent profile matches "${query}" (${ctx.profiles.length} loaded) — /agents lists them all.`];
  return [`Agent profiles matching "${query}" (${found.length} of ${ctx.profiles.length}):`, ...found.map(profileLine)];
}
