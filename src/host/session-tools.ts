/**
 * The main agent's tool pool, in the order the fingerprint and the system prompt see it:
 * built-ins, `skill` (only with skills), `task_wait`, `task`, `task_result` (sessions saved),
 * `agent_search` (a roster too long for the system prompt). MCP tools join in place as their
 * servers become ready (syncMcpTools), between the built-ins and `task_wait`.
 */
import type { AgentSessionOptions } from "./agent-session-options.js";
import type { OnToolCall } from "../core/tool-runner.js";
import type { SubagentHookCalls } from "../hooks/session-hooks.js";
import type { AnyTool } from "../protocol/tool.js";
import type { SessionStore } from "../session/store.js";
import { createSkillTool } from "../skills/skill-tool.js";
import { createSkillSearchTool } from "../skills/skill-search-tool.js";
import { modelSkills } from "../skills/skill-parse.js";
import type { SkillLoad } from "../skills/skills.js";
import { createAgentSearchTool } from "../subagents/tools/agent-search-tool.js";
import type { BackgroundChildren } from "../subagents/runtime/background-children.js";
import type { EditClaims } from "../subagents/runtime/edit-claims.js";
import { ROSTER_MAX_AGENTS, type ProfileLoad } from "../subagents/profiles/profiles.js";
import type { RunningChildren } from "../subagents/runtime/running-children.js";
import { createTaskResultTool } from "../subagents/tools/task-result-tool.js";
import { createTaskTool, type TaskToolOptions } from "../subagents/tools/task-tool.js";
import { createTaskWaitTool } from "../subagents/tools/task-wait-tool.js";
import type { TreeBudget } from "../subagents/runtime/tree-budget.js";
import { builtinTools } from "../tools/index.js";
import { boundaryFor, type SandboxSettings } from "../tools/sandbox.js";

/** Default child timeout of headless runs (interactive sessions have none). */
const HEADLESS_TASK_TIMEOUT_MS = 10 * 60_000;

/** What the pool is built from: the session's options, set-up and shared child state. */
export interface SessionToolsDeps {
  options: AgentSessionOptions;
  /** Environment variables the bash tool passes through (settings.json). */
  envPassthrough?: readonly string[];
  /** Variables SessionStart hooks exported (CLAUDE_ENV_FILE), read at each bash call. */
  bashEnv?: () => Record<string, string>;
  /** The user's `sandbox` settings (what confined bash calls may also write and reach). */
  sandboxSettings?: SandboxSettings;
  /** The session is in yolo mode now (read at call time: its bash calls are then confined). */
  yolo: () => boolean;
  profiles: ProfileLoad;
  skills: SkillLoad;
  /** The model of the next main turns, read at call time: children follow a /model switch. */
  model: () => string;
  /** The main agent's system prompt, read at call time. */
  system: () => string;
  store?: SessionStore;
  sessionId: string;
  onToolCall: OnToolCall;
  compaction: TaskToolOptions["compaction"];
  subagentHooks: () => SubagentHookCalls | undefined;
  running: RunningChildren;
  children: BackgroundChildren;
  editClaims: EditClaims;
  treeBudget: TreeBudget;
}

/** Builds the main agent's tool pool (see the module comment); `task` reads the same array at call time. */
export function buildSessionTools(deps: SessionToolsDeps): AnyTool[] {
  const { options } = deps;
  const tools = builtinTools({
    envPassthrough: deps.envPassthrough,
    extraEnv: deps.bashEnv,
    sandboxSettings: deps.sandboxSettings,
    // Unattended calls (yolo, background and worktree children) are confined where bubblewrap allows.
    boundary: (ctx) => boundaryFor({ yolo: deps.yolo(), ...ctx.runsAs }, deps.sandboxSettings),
  });
  // Only with skills: a pool without them stays as before (children made earlier still resume).
  // Skills with disable-model-invocation: true are neither listed nor loadable by the model.
  const usable = modelSkills(deps.skills.skills);
  if (usable.length > 0) tools.push(createSkillTool(usable));
  // More than the system prompt lists: the rest are found with find_skill (as find_agent does for agents).
  if (usable.length > ROSTER_MAX_AGENTS) tools.push(createSkillSearchTool(usable));
  const task = createTaskTool({
    provider: options.provider,
    // Read at call time: children follow a /model switch.
    get model() {
      return deps.model();
    },
    getSystem: deps.system,
    getTools: () => tools,
    profiles: deps.profiles.profiles,
    untrustedProfileFiles: deps.profiles.untrustedProjectFiles,
    store: deps.store,
    parentSessionId: deps.sessionId,
    inkHome: options.inkHome,
    onToolCall: deps.onToolCall,
    compaction: deps.compaction,
    defaultTimeoutMs: options.interactive ? undefined : (options.taskTimeoutMs ?? HEADLESS_TASK_TIMEOUT_MS),
    maxConcurrent: options.maxConcurrentChildren,
    pauseLimitMs: options.childPauseLimitMs,
    thinking: options.thinking,
    running: deps.running,
    subagentHooks: deps.subagentHooks,
    children: deps.children,
    editClaims: deps.editClaims,
    treeBudget: deps.treeBudget,
    askBudget: () => deps.treeBudget.ask,
  });
  tools.push(createTaskWaitTool(deps.children), task);
  if (deps.store) tools.push(createTaskResultTool({ store: deps.store, parentSessionId: deps.sessionId, running: deps.running }));
  // A roster too long for the system prompt can be searched (children never see it: they cannot delegate).
  if (deps.profiles.profiles.length > ROSTER_MAX_AGENTS) tools.push(createAgentSearchTool(deps.profiles.profiles));
  return tools;
}

/** Puts the ready MCP servers' tools into `tools` (built-ins, then MCP tools, then `task_wait` and `task`), in place. */
export function syncMcpTools(tools: AnyTool[], mcpTools: readonly AnyTool[]): void {
  const tail = tools.filter((t) => t.name === "task_wait" || t.name === "task");
  const rest = tools.filter((t) => !tail.includes(t) && !t.name.startsWith("mcp__"));
  tools.splice(0, tools.length, ...rest, ...mcpTools, ...tail);
}
