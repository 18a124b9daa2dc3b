/**
 * The homes Ink reads and writes, in one place: Ink's own (`$INK_HOME`, default `~/.ink`), Claude
 * Code's (`$INK_CLAUDE_HOME`, default `~/.claude`) and its `~/.claude.json` beside it, and the
 * cross-tool `~/.agents` (`$INK_AGENTS_HOME`). An unset or blank variable means the default.
 */
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** `$INK_HOME`, default `~/.ink`. */
export function inkHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INK_HOME && env.INK_HOME.trim() !== "" ? env.INK_HOME : join(homedir(), ".ink"));
}

/** Claude Code's home directory: `$INK_CLAUDE_HOME` or `~/.claude`. */
export function claudeHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INK_CLAUDE_HOME && env.INK_CLAUDE_HOME.trim() !== "" ? env.INK_CLAUDE_HOME : join(homedir(), ".claude"));
}

/** Where Claude Code keeps its user configuration. */
export function claudeJsonPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(claudeHomeDir(env)), ".claude.json");
}

/** `~/.agents` (the cross-tool home of skills): `$INK_AGENTS_HOME` or `~/.agents`. */
export function agentsHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INK_AGENTS_HOME && env.INK_AGENTS_HOME.trim() !== "" ? env.INK_AGENTS_HOME : join(homedir(), ".agents"));
}
