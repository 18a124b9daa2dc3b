/** `ink config` and `/config`: the effective settings with their sources, or the error that makes them unusable. */
import { loadSettings, projectSettingsPath, userSettingsPath } from "../settings/settings.js";
import { formatSettingsReport } from "../settings/config-report.js";
import { existsSync } from "node:fs";
import { collectMcpServers, describeServer, projectMcpPath } from "../mcp/config.js";
import { errorMessage } from "../protocol/error-message.js";
import { checkSettingsRules } from "../permissions/settings-rules.js";
import { projectTrust } from "../subagents/profiles/trust.js";
import { loadHooks } from "../hooks/config.js";
import { bashSandbox, boundarySummary } from "../tools/sandbox.js";
import { loadSkills } from "../skills/skills.js";
import { loadCommandFiles } from "../commands/command-files.js";
import { agentsHomeDir, claudeHomeDir, claudeJsonPath } from "../settings/paths.js";

/**
 * Whether a project's gated files (settings, .mcp.json, profiles) may be read: `--trust`, or a
 * recorded trust that every gated file still matches — the same test the session applies, so
 * `ink config` and the CLI's defaults never show what a session would not use.
 */
export function projectFilesTrusted(inkHome: string, cwd: string, flag: boolean): boolean {
  return flag || projectTrust(inkHome, cwd).trusted;
}

/** The report lines for `cwd` (the project's files only when trusted). Never throws. */
export function settingsReportLines(inkHome: string, cwd: string, trusted: boolean, env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    const loaded = loadSettings({ inkHome, projectDir: cwd, trusted, claudeHome: claudeHomeDir(env) });
    checkSettingsRules(loaded.scopes);
    const userServers = loaded.scopes.find((s) => s.scope === "user")?.settings.mcpServers;
    const claudeJson = loaded.scopes.find((s) => s.scope === "user")?.settings.claudeMcpServers === true ? claudeJsonPath(env) : undefined;
    const mcp = collectMcpServers({ userServers, userSource: userSettingsPath(inkHome), projectDir: cwd, trusted, env, claudeJson });
    if (!trusted && existsSync(projectMcpPath(cwd))) mcp.problems.push(`${projectMcpPath(cwd)}: not read — this project is not trusted (run ink --trust, or answer the trust question, to use it)`);
    const servers = mcp.servers.map((s) => ({ name: s.name, transport: s.transport, target: describeServer(s), source: s.source }));
    const claudeHome = claudeHomeDir(env);
    const skills = loadSkills({ cwd, inkHome, trusted, claudeHome, agentsHome: agentsHomeDir(env) });
    const commands = loadCommandFiles({ cwd, inkHome, trusted, claudeHome });
    const loads = {
      skills: { items: skills.skills, problems: skills.problems, notices: skills.notices },
      commands: { items: commands.commands, problems: commands.problems, notices: commands.notices },
    };
    return [...formatSettingsReport(loaded, { user: userSettingsPath(inkHome), project: projectSettingsPath(cwd) }, { servers, problems: mcp.problems }, loadHooks({ inkHome, cwd, trusted }), loads), "Protection:", `  ${bashSandbox().summary}`, `  ${boundarySummary(loaded.effective.sandbox)}`];
  } catch (err) {
    return [`settings could not be loaded: ${errorMessage(err)}`];
  }
}
