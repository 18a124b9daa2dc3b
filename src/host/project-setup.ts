/**
 * What a session takes from its project and from `$INK_HOME` before it runs: whether the project's
 * files are trusted, the agent profiles, skills and command files, the MCP servers to start, the AGENTS.md / CLAUDE.md
 * context and the worktrees earlier runs left behind. Read once, at start-up; nothing here starts
 * a process (MCP servers start later, after the first frame).
 */
import { join, resolve } from "node:path";
import { gatedFileLoads } from "../hooks/config.js";
import { loadProjectContext, type ProjectContext } from "../context/project-context.js";
import type { McpServerConfig } from "../mcp/config.js";
import { sessionMcpServers } from "../mcp/session-servers.js";
import { SessionStore } from "../session/store.js";
import { claudeHomeDir } from "../settings/paths.js";
import { leftoverWorktreeNotice } from "../subagents/worktrees/leftover-worktrees.js";
import { loadProfiles, type ProfileLoad } from "../subagents/profiles/profiles.js";
import { decideTrust, projectTrust, recordProjectTrust } from "../subagents/profiles/trust.js";
import { loadCommandFiles, type CommandLoad } from "../commands/command-files.js";
import { loadSkills, preloadProfileSkills, type SkillLoad } from "../skills/skills.js";

/** The id of the most recently active main session of `cwd` in `inkHome` (`--continue`), if any. */
export function latestMainSession(inkHome: string, cwd: string): string | undefined {
  return new SessionStore(inkHome).latestMain(resolve(cwd));
}

export interface ProjectSetup {
  /** The project's gated files (settings, .mcp.json) may be used: `--trust`, or a trust record whose files still hash as trusted. */
  trusted: boolean;
  profiles: ProfileLoad;
  /** Agent Skills (project ones only when trusted); profiles' `skills:` are resolved against them. */
  skills: SkillLoad;
  /** Slash-command files (project ones only when trusted). */
  commands: CommandLoad;
  /** MCP servers to start, and the problems found reading their configuration. */
  mcp: { servers: McpServerConfig[]; problems: string[] };
  context: ProjectContext;
  /** Worktrees of this repository left by runs that ended, if any. */
  worktreeNotice?: string;
  /** Untrusted: what of the project was skipped besides its agent profiles (settings with hooks and rules, commands, skills, MCP servers). */
  untrustedNotice?: string;
}

/**
 * Reads the set-up of project `cwd`; `trustFlag` is `--trust`; `mcpServers` replaces the configured servers (tests);
 * `extraMcpServers` (an ACP client's) join them, skipped with a problem when a configured server has the name.
 */
export function loadProjectSetup(opts: { inkHome: string; cwd: string; trustFlag: boolean; mcpServers?: McpServerConfig[]; extraMcpServers?: McpServerConfig[]; agentsHome?: string }): ProjectSetup {
  const { inkHome, cwd } = opts;
  const trust = decideTrust({ inkHome, cwd, flag: opts.trustFlag });
  const profiles = loadProfiles({ cwd, inkHome, trust });
  // A trust record alone is not enough for files that run code or set rules: every gated file
  // must still hash as it did when trust was given (a changed .mcp.json asks again).
  const record = trust === "trusted-by-flag" ? undefined : projectTrust(inkHome, cwd);
  const trusted = record === undefined || record.trusted;
  const changedSinceTrust = trust === "recorded" && record !== undefined && record.changed.includes(".mcp.json");
  const mcp = opts.mcpServers ? { servers: [...opts.mcpServers], problems: [] as string[] } : sessionMcpServers({ inkHome, cwd, trusted, changedSinceTrust });
  for (const extra of opts.extraMcpServers ?? []) {
    if (mcp.servers.some((s) => s.name === extra.name)) mcp.problems.push(`${extra.source}: MCP server "${extra.name}" skipped: ${mcp.servers.find((s) => s.name === extra.name)!.source} already defines a server of that name`);
    else mcp.servers.push(extra);
  }
  const skills = loadSkills({ cwd, inkHome, trusted, claudeHome: claudeHomeDir(), agentsHome: opts.agentsHome });
  skills.notices.push(...preloadProfileSkills(profiles.profiles, skills.skills));
  return {
    trusted,
    profiles,
    skills,
    commands: loadCommandFiles({ cwd, inkHome, claudeHome: claudeHomeDir(), trusted }),
    mcp,
    context: loadProjectContext({ cwd, inkHome, claudeHome: claudeHomeDir(), trusted }),
    worktreeNotice: leftoverWorktreeNotice(inkHome, cwd),
    untrustedNotice: trusted ? undefined : untrustedNotice(cwd, record?.gatedFiles ?? []),
  };
}

/**
 * What an untrusted project's gated files would have added, named file by file (agent profiles
 * have their own notice): each settings file with the hooks it would run and the permission rules
 * it would set, the command files, the skills, `.mcp.json` with its servers. Undefined when there is none.
 */
export function untrustedNotice(cwd: string, gated: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const f of gated.filter((g) => g.endsWith("settings.json") || g.endsWith("settings.local.json"))) {
    const { hooks, rules } = gatedFileLoads(cwd, f);
    const what = [...(hooks.length ? [`its hook${hooks.length === 1 ? "" : "s"} ${hooks.join("; ")}`] : []), ...(rules ? [`its ${rules}`] : [])];
    parts.push(`${f} (${what.length ? what.join("; ") : "its settings"})`);
  }
  const named = (what: string, files: string[]) => (files.length === 0 ? [] : [`the ${what}${files.length === 1 ? "" : "s"} ${files.length <= 6 ? files.join(", ") : `${files.slice(0, 5).join(", ")} and ${files.length - 5} more`}`]);
  parts.push(...named("command file", gated.filter((g) => g.startsWith(".ink/commands/") || g.startsWith(".claude/commands/"))));
  parts.push(...named("skill", gated.filter((g) => g.endsWith("/SKILL.md"))));
  if (gated.includes(".mcp.json")) {
    const servers = gatedFileLoads(cwd, ".mcp.json").servers.map((m) => m.name);
    parts.push(`.mcp.json (${servers.length ? `its MCP server${servers.length === 1 ? "" : "s"} ${servers.join(", ")}, not started` : "its MCP servers"})`);
  }
  if (parts.length === 0) return undefined;
  return `This project is not trusted, so Ink skipped ${parts.join(", ")}. Run with --trust (or answer y to the trust question at start) to use them.`;
}

/** `--trust`: records project `cwd` as trusted as it is now. Never throws: loadProfiles reports an unwritable trust store. */
export function rememberProjectTrust(inkHome: string, cwd: string): void {
  try {
    recordProjectTrust(inkHome, cwd);
  } catch {
    // loadProfiles reports an unwritable trust store
  }
}
