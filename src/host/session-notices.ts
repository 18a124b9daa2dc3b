/**
 * What a session tells the person about itself, outside the conversation: the notices of its
 * set-up (skipped profiles, skills and command files, hook problems, resume repairs, MCP problems,
 * leftover worktrees, budgets, the sandbox), problems that arise later (published once to
 * subscribers, see late-notices.ts), and the lines of the report commands (`/mcp`, `/tasks`, …).
 */
import { settingsReportLines } from "./settings-report.js";
import { describeProjectContext, type ProjectContext } from "../context/project-context.js";
import type { CommandLoad } from "../commands/command-files.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import { LateNotices } from "../mcp/late-notices.js";
import type { McpManager } from "../mcp/manager.js";
import { describeSkills } from "../skills/skill-tool.js";
import type { SkillLoad } from "../skills/skills.js";
import type { BackgroundChildren } from "../subagents/runtime/background-children.js";
import type { ProfileLoad } from "../subagents/profiles/profiles.js";
import { formatChildRows } from "../subagents/tools/task-wait-tool.js";
import { bashSandbox, boundarySummary, type SandboxSettings } from "../tools/sandbox.js";

/** The session's set-up the notices and report lines are drawn from. */
export interface NoticeSources {
  profiles: ProfileLoad;
  skills: SkillLoad;
  commands: CommandLoad;
  hooks: SessionHooks;
  context: ProjectContext;
  /** The pool has the bash tool (its sandbox is then described). */
  hasBash: boolean;
  /** The user's `sandbox` settings (the boundary line names what they widen). */
  sandbox?: SandboxSettings;
}

/** The notices a session gathers as it starts and runs, in the order `list` gives them. */
export class SessionNotices {
  /** Notes from repairing or restoring a resumed session's file. */
  readonly resume: string[] = [];
  readonly mcp: string[] = [];
  readonly budget: string[] = [];
  /** Worktrees of this repository left by runs that ended (found at start, from owner records). */
  worktree?: string;
  /** An untrusted project's skipped settings, hooks, commands, skills and MCP servers, named. */
  untrusted?: string;
  private readonly late = new LateNotices();
  /** The session channel's listeners of later problems (see `listen`). */
  private readonly listeners = new Set<(text: string) => void>();

  /** A problem after start-up (an MCP server failed, crashed or timed out): listed, and published once. */
  lateProblem(message: string): void {
    this.mcp.push(message);
    this.late.publish(message);
    for (const listener of [...this.listeners]) listener(message);
  }

  /** Hears every later problem from now on (the ones before are in `list`); returns the unsubscribe function. */
  listen(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Subscribes to later problems (ones no listener heard yet are delivered at once); returns the unsubscribe function. */
  subscribe(listener: (text: string) => void): () => void {
    return this.late.subscribe(listener);
  }

  /** Every notice so far: the set-up's, then the resume notes, MCP problems, leftover worktrees, budgets and the sandbox. */
  list(s: NoticeSources): string[] {
    return [
      ...s.profiles.notices,
      ...s.profiles.problems.map((p) => `agent profile ${p.path} skipped: ${p.reason}`),
      ...(this.untrusted ? [this.untrusted] : []),
      ...s.skills.notices,
      ...s.skills.problems.map((p) => `skill ${p.path} skipped: ${p.reason}`),
      ...s.commands.notices,
      ...s.commands.problems.map((p) => `command file ${p.path} skipped: ${p.reason}`),
      ...s.hooks.problems,
      ...s.context.notes,
      ...this.resume,
      ...this.mcp,
      ...(this.worktree ? [this.worktree] : []),
      ...this.budget,
      ...(s.hasBash ? [bashSandbox().summary, boundarySummary(s.sandbox)] : []),
    ];
  }
}

/** Lines for `/mcp`, `/skills`, `/context` (or `/memory`, Claude Code's name), `/config` and `/tasks`; undefined for another command. */
export function sessionCommandLines(command: string, s: NoticeSources & { mcp: McpManager; children: BackgroundChildren; inkHome: string; cwd: string; trusted: boolean }): string[] | undefined {
  if (command === "/mcp") return s.mcp.describe();
  if (command === "/skills") return describeSkills(s.skills);
  if (command === "/context" || command === "/memory") return [...describeProjectContext(s.context), ...s.hooks.describe()];
  if (command === "/config") return settingsReportLines(s.inkHome, s.cwd, s.trusted);
  if (command === "/tasks") return formatChildRows(s.children.list(), Date.now());
  return undefined;
}
