/**
 * `ink config` / `/config`: every setting with its effective value and the file it came from (or
 * the built-in default), and the MCP servers, hooks, Agent Skills and slash-command files a
 * session here would use, each with its source — so a bad entry or a malformed file shows here
 * (named by its path), not only when a session starts.
 */
import type { LoadedSettings, SettingsKey } from "./settings.js";

/** What an unset key means (shown as "default: …"). */
export const SETTING_DEFAULTS: Readonly<Record<SettingsKey, string>> = {
  model: "the provider's (INK_MODEL, else claude-sonnet-4-5; demo for the demo provider)",
  provider: "anthropic when ANTHROPIC_API_KEY is set, else demo",
  thinking: "off",
  maxChildren: "4",
  childTimeout: "600000 ms in headless runs; none in the TUI",
  childPauseLimit: "30m (a subagent paused on a rate limit, overload or lost connection retries for up to 30 min in all)",
  maxTokens: "none (no token budget for the session tree; children may have their own)",
  maxCostUsd: "none (no cost budget for the session tree; children may have their own)",
  permissions: "no rules; mode default (read-only tools run, others ask)",
  mcpServers: "none",
  theme: "auto (accepted; this version draws one theme)",
  inline: "false (full-screen)",
  mouse: "true",
  claudeMcpServers: "false (~/.claude.json's MCP servers are not started)",
  hooks: "none (see the Hooks section below)",
  notify: "bell (BEL when a child ends or waits for an approval, when a background report starts a turn, and when a run of 10 s or more ends; never in -p mode)",
  envPassthrough: "none (variables that look like secrets are kept from tools)",
  sandbox: "unattended commands write only the project (a worktree child: its worktree) and temp; yolo runs and background children get no network",
};

/** The MCP servers a session here would start (how each is reached), and the entries that cannot be used. */
export interface McpReport {
  servers: readonly { name: string; transport: string; target: string; source: string }[];
  problems: readonly string[];
}

/** Every hook that would run (event, matcher, command, file) and the entries that were skipped. */
export interface HooksReport {
  entries: readonly { event: string; matcher?: string; command: string; timeoutSec: number; source: string }[];
  problems: readonly string[];
}

/** Files a session loads (skills, command files): each with its name, description, source and path; the skipped ones with why; notices. */
export interface FilesReport {
  items: readonly { name: string; description: string; source: string; path: string; namespace?: string }[];
  problems: ReadonlyArray<{ path: string; reason: string }>;
  notices: readonly string[];
}

/** A FilesReport as lines under `title` ("(none)" when nothing loaded; a skipped file as `skipped <path>: <reason>`). */
export function formatFilesReport(title: string, report: FilesReport): string[] {
  const lines = [title];
  if (report.items.length === 0) lines.push("  (none)");
  for (const f of report.items) lines.push(`  ${f.name} — ${f.description.replace(/\s+/g, " ").trim()}    (${f.source}${f.namespace ? `, folder ${f.namespace}` : ""}: ${f.path})`);
  for (const p of report.problems) lines.push(`  skipped ${p.path}: ${p.reason}`);
  for (const n of report.notices) lines.push(`  ${n}`);
  return lines;
}

/** Lines for the person; flags given on the command line still win over these values. */
export function formatSettingsReport(loaded: LoadedSettings, files: { user: string; project?: string }, mcp?: McpReport, hooks?: HooksReport, loads?: { skills: FilesReport; commands: FilesReport }): string[] {
  const lines = ["Settings files:", `  user:    ${files.user}${loaded.scopes.some((s) => s.scope === "user") ? "" : " (none)"}`];
  if (files.project) lines.push(`  project: ${files.project}${loaded.scopes.some((s) => s.scope === "project") ? "" : " (none, or the project is not trusted)"}`);
  for (const c of loaded.scopes.filter((s) => s.scope === "claude")) {
    const p = c.settings.permissions;
    lines.push(`  claude:  ${c.path} (Claude Code's permission rules, as Ink rules: ${[...(p?.allow ?? []).map((r) => `allow ${r}`), ...(p?.ask ?? []).map((r) => `ask ${r}`), ...(p?.deny ?? []).map((r) => `deny ${r}`)].join(", ") || "none"})`);
  }
  lines.push("Effective settings (command-line flags win over these):");
  for (const key of Object.keys(SETTING_DEFAULTS) as SettingsKey[]) {
    if (key === "hooks" && hooks) continue;
    const value = loaded.effective[key];
    if (value === undefined) lines.push(`  ${key}: default: ${SETTING_DEFAULTS[key]}`);
    else lines.push(`  ${key} = ${JSON.stringify(value)}    (from ${loaded.sources[key] ?? "?"})`);
  }
  if (mcp) {
    lines.push("MCP servers (started after the first frame):");
    if (mcp.servers.length === 0) lines.push("  (none)");
    for (const s of mcp.servers) lines.push(`  ${s.name}: ${s.transport} ${s.target}    (from ${s.source})`);
    for (const p of mcp.problems) lines.push(`  ${p}`);
  }
  if (hooks) {
    lines.push("Hooks (every file's run; the project's only when trusted):");
    if (hooks.entries.length === 0) lines.push("  (none)");
    for (const h of hooks.entries) lines.push(`  ${h.event}${h.matcher ? ` [${h.matcher}]` : ""}: ${h.command} (timeout ${h.timeoutSec}s)    (from ${h.source})`);
    for (const p of hooks.problems) lines.push(`  ${p}`);
  }
  if (loads) {
    lines.push(...formatFilesReport("Agent Skills (the skill tool loads one; the project's only when trusted):", loads.skills));
    lines.push(...formatFilesReport("Command files (/ commands; the project's only when trusted):", loads.commands));
  }
  if (loaded.warnings.length) lines.push("Warnings:", ...loaded.warnings.map((w) => `  ${w}`));
  return lines;
}
